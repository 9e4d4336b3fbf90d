package rundir

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"playtest/games/gamestest"
	"playtest/internal/testenv"
	"playtest/reports"
	"playtest/reports/publish"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/variants"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestRunToDirGolden runs a small seeded variant to a directory and
// compares report.md and the terminal table with golden files: both hold
// nothing that depends on the clock or the worker count.
func TestRunToDirGolden(t *testing.T) {
	dir := t.TempDir()
	cfg := load(t, "games=20", "seed=3", "players.0=greedy", "players.1={bot: mcts, iterations: 50, rollout_cap: 6, eval_scale: 6}")
	s, err := RunToDir(context.Background(), cfg, DirOptions{Options: Options{Workers: 2}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary.json", "games.csv", "report.md", "report.html",
		"plots/outcomes.svg", "plots/outcomes.png", "plots/length.svg", "plots/length.png"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "report.golden.md", md, *update)
	var table bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "table.golden", table.Bytes(), *update)

	// playtest report DIR: the same report from the saved files alone.
	if err := os.Remove(filepath.Join(dir, "report.md")); err != nil {
		t.Fatal(err)
	}
	if err := publish.Write(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !bytes.Equal(again, md) {
		t.Error("the rebuilt report.md differs")
	}
	rows := 0
	f, _ := os.Open(filepath.Join(dir, "games.csv"))
	defer f.Close()
	if err := reports.ReadGames(f, func(*reports.GameRow) error { rows++; return nil }); err != nil || rows != 20 {
		t.Errorf("games.csv: %d rows, %v", rows, err)
	}
}

// TestReportEscapes puts markup in the variant's name and checks that no
// report carries it raw.
func TestReportEscapes(t *testing.T) {
	dir := t.TempDir()
	cfg := load(t, "games=4", "players.0=greedy", "players.1=greedy", `name=<script>alert("x")</script> | *bold*`)
	if _, err := RunToDir(context.Background(), cfg, DirOptions{Options: Options{Workers: 1}}, dir); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if strings.Contains(string(html), "<script>alert") || !strings.Contains(string(html), "&lt;script&gt;") {
		t.Error("report.html carries the variant name unescaped")
	}
	if strings.Contains(string(md), "<script>alert") || strings.Contains(string(md), "| *bold*") {
		t.Errorf("report.md carries the variant name unescaped:\n%s", md)
	}
}

// TestRunToDirCancelled checks that an interrupted run writes no result
// file, keeps its log, and refuses to start afresh over it.
func TestRunToDirCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := load(t, "games=50")
	_, err := RunToDir(ctx, cfg, DirOptions{Options: Options{Workers: 1}}, dir)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled run: %v", err)
	}
	for _, name := range []string{"summary.json", "games.csv", "report.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a cancelled run wrote %s", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, runlog.ManifestFile)); err != nil {
		t.Error(err)
	}
	_, err = RunToDir(context.Background(), cfg, DirOptions{}, dir)
	var ue *UnfinishedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "holds an unfinished run (0 of 50 games): continue it with --resume") {
		t.Errorf("a new run over an unfinished one: %v", err)
	}
	other := load(t, "games=51")
	if _, err := RunToDir(context.Background(), other, DirOptions{Resume: true}, dir); err == nil || !strings.Contains(err.Error(), "not of") {
		t.Errorf("resuming another variant: %v", err)
	}
}

// summaryWithoutTiming reads dir's summary.json without its timing block.
func summaryWithoutTiming(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	return timingBlock.ReplaceAllString(string(b), "")
}

var timingBlock = regexp.MustCompile(`(?s)"timing": \{.*?\}`)

// sameFiles compares files of two run directories byte for byte.
func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, name := range names {
		x, err1 := os.ReadFile(filepath.Join(a, name))
		y, err2 := os.ReadFile(filepath.Join(b, name))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs (%v, %v)", name, err1, err2)
		}
	}
}

// withOpening runs a test of a run's directory without and with an
// opening: (the pie rule's keep its own entry), which every game, resumed
// or merged, must start after.
func withOpening(t *testing.T, test func(t *testing.T, sets ...string)) {
	t.Run("from the start", func(t *testing.T) { test(t) })
	t.Run("after an opening", func(t *testing.T) { test(t, "opening=[b1S-c2, keep]") })
}

// checkOpening checks that the run in dir keeps cfg's opening: its
// manifest rebuilds a variant with it, whose games start after it, and its
// summary says so.
func checkOpening(t *testing.T, cfg *variants.Config, dir string) {
	t.Helper()
	m, err := runlog.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := m.Config()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kept.Opening, cfg.Opening) || kept.Hash() != cfg.Hash() {
		t.Errorf("the directory keeps the opening %q, want %q", kept.Opening, cfg.Opening)
	}
	job, err := Job(kept)
	if err != nil {
		t.Fatal(err)
	}
	job.Moves = true
	for i := range 3 {
		r, err := sim.Replay(context.Background(), job, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Moves) < len(cfg.Opening) || !slices.Equal(r.Moves[:len(cfg.Opening)], cfg.Opening) {
			t.Errorf("game %d starts %q, not after the opening %q", i, r.Moves, cfg.Opening)
		}
	}
	var sum struct {
		Opening []string `json:"opening"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	if err != nil || !slices.Equal(sum.Opening, cfg.Opening) {
		t.Errorf("summary.json's opening %q (%v), want %q", sum.Opening, err, cfg.Opening)
	}
}

func TestResumeGivesTheSameSummary(t *testing.T) { withOpening(t, testResume) }

func testResume(t *testing.T, sets ...string) {
	cfg := func() *variants.Config {
		return load(t, append([]string{"games=81", "seed=4", "players.0=greedy", "players.1={bot: greedy, epsilon: 0.2}"}, sets...)...)
	}
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{Options: Options{Workers: 3}}, whole); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, stopAt := range []int{0, 17, 60} {
		ctx, cancel := context.WithCancel(context.Background())
		seen := 0
		opts := DirOptions{Options: Options{Workers: 2, OnRecord: func(*sim.Record) {
			if seen++; seen == 13 {
				cancel()
			}
		}}, Resume: stopAt > 0}
		_, err := RunToDir(ctx, cfg(), opts, dir)
		cancel()
		if !errors.As(err, new(*InterruptedError)) {
			t.Fatalf("stop at %d: %v", stopAt, err)
		}
		// A torn last line, as a kill or a power loss leaves.
		f, _ := os.OpenFile(filepath.Join(dir, runlog.GamesFile), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"index": 99, "deal": 4`)
		f.Close()
	}
	var started [2]int
	s, err := RunToDir(context.Background(), cfg(), DirOptions{Options: Options{Workers: 1}, Resume: true,
		Start: func(done, total int) { started = [2]int{done, total} }}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if started[1] != 81 || started[0] < 13 || s.Games != 81 {
		t.Errorf("resumed at %v, %d games", started, s.Games)
	}
	if a, b := summaryWithoutTiming(t, whole), summaryWithoutTiming(t, dir); a != b {
		t.Errorf("the resumed summary differs:\n%s\n%s", a, b)
	}
	sameFiles(t, whole, dir, runlog.GamesFile, "games.csv", "report.md")
	// Resuming a finished run plays nothing and rewrites the same results.
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true}, dir); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, whole, dir, runlog.GamesFile, "games.csv")
	checkOpening(t, cfg(), dir)
}

func TestShardsMergeIntoOneRun(t *testing.T) { withOpening(t, testMerge) }

func testMerge(t *testing.T, sets ...string) {
	cfg := func() *variants.Config {
		return load(t, append([]string{"games=61", "seed=8", "players.0=greedy", "players.1={bot: greedy, epsilon: 0.3}"}, sets...)...)
	}
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{Options: Options{Workers: 2}}, whole); err != nil {
		t.Fatal(err)
	}
	var shards []string
	covered := 0
	for i := range 3 {
		d := t.TempDir()
		// Shards need no reports (--no-reports): the merged run draws them.
		s, err := RunToDir(context.Background(), cfg(), DirOptions{Options: Options{Workers: 2}, Shard: runlog.Shard{Index: 2 - i, Count: 3}, NoReports: true}, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{publish.MarkdownFile, publish.HTMLFile, publish.PlotsDir} {
			if _, err := os.Stat(filepath.Join(d, name)); !os.IsNotExist(err) {
				t.Errorf("a shard run with NoReports wrote %s", name)
			}
		}
		covered += s.Games
		shards = append(shards, d)
	}
	if covered != 61 {
		t.Errorf("shards cover %d games", covered)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if _, err := Merge(context.Background(), shards[:2], merged); err == nil || !strings.Contains(err.Error(), "shard 0 of 3 is missing") {
		t.Errorf("a missing shard: %v", err)
	}
	if _, err := Merge(context.Background(), append(shards, shards[0]), merged); err == nil || !strings.Contains(err.Error(), "are both shard 2 of 3") {
		t.Errorf("a shard twice: %v", err)
	}
	if _, err := Merge(context.Background(), shards, merged); err != nil {
		t.Fatal(err)
	}
	if a, b := summaryWithoutTiming(t, whole), summaryWithoutTiming(t, merged); a != b {
		t.Errorf("the merged summary differs:\n%s\n%s", a, b)
	}
	sameFiles(t, whole, merged, runlog.GamesFile, "games.csv", "report.md", runlog.ManifestFile)
	checkOpening(t, cfg(), merged)
	other := t.TempDir()
	if _, err := RunToDir(context.Background(), load(t, "games=61", "seed=9"), DirOptions{Shard: runlog.Shard{Index: 0, Count: 3}, NoReports: true}, other); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(context.Background(), []string{shards[0], shards[1], other}, merged); err == nil || !strings.Contains(err.Error(), "shards must come from one run") {
		t.Errorf("shards of two runs: %v", err)
	}
}

// TestFailedGamesAreRecorded runs an engine that panics in a few games:
// the run finishes, errors.jsonl holds each failed game with its seed,
// index and moves, and the summary counts them apart.
func TestFailedGamesAreRecorded(t *testing.T) {
	dir := t.TempDir()
	cfg := load(t, "games=120", "seed=42", "players.0=random", "players.1=random")
	cfg.Rules = gamestest.FaultyRules{Rules: cfg.Rules, Ply: 7, Every: 11}
	s, err := RunToDir(context.Background(), cfg, DirOptions{Options: Options{Workers: 2}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Failed == 0 || s.Games+s.Failed != 120 {
		t.Fatalf("%d games, %d failed", s.Games, s.Failed)
	}
	text, _ := os.ReadFile(filepath.Join(dir, runlog.ErrorsFile))
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	if len(lines) != s.Failed {
		t.Fatalf("%d failed, %d lines in errors.jsonl", s.Failed, len(lines))
	}
	var e sim.GameError
	if err := json.Unmarshal([]byte(lines[0]), &e); err != nil || e.Seed != 42 || len(e.Moves) < 7 || !strings.Contains(e.Message, "forced engine fault") {
		t.Errorf("errors.jsonl: %v %+v", err, e)
	}
	var table bytes.Buffer
	s.WriteTable(&table)
	if !strings.Contains(table.String(), fmt.Sprintf("%d more games failed (errors.jsonl)", s.Failed)) {
		t.Errorf("the table does not say games failed:\n%s", table.String())
	}
}

// TestEmptyShards: with more shards than deals some shards have no games;
// they must play none, and merging gives the run's games exactly once
// (issue 16: a 2-game run in 2 shards merged to 4 games, 6 games in 8
// shards to 18). A shard whose log holds games outside its range (as such
// a shard wrote before the fix) is refused.
func TestEmptyShards(t *testing.T) {
	for _, tt := range []struct{ games, count int }{{2, 2}, {6, 8}} {
		cfg := func() *variants.Config {
			return load(t, fmt.Sprintf("games=%d", tt.games), "seed=4", "players.0=random", "players.1=random")
		}
		var shards []string
		played := 0
		for i := range tt.count {
			d := t.TempDir()
			s, err := RunToDir(context.Background(), cfg(), DirOptions{Shard: runlog.Shard{Index: i, Count: tt.count}, NoReports: true}, d)
			if err != nil {
				t.Fatal(err)
			}
			played += s.Games
			shards = append(shards, d)
		}
		if played != tt.games {
			t.Errorf("%d games in %d shards: the shards played %d", tt.games, tt.count, played)
		}
		merged := filepath.Join(t.TempDir(), "merged")
		s, err := Merge(context.Background(), shards, merged)
		if err != nil || s.Games != tt.games {
			t.Fatalf("%d games in %d shards merged to %v games (%v)", tt.games, tt.count, s, err)
		}
	}
	// A shard log with a game outside the shard's range.
	d := t.TempDir()
	cfg := load(t, "games=2", "seed=4", "players.0=random", "players.1=random")
	if _, err := RunToDir(context.Background(), cfg, DirOptions{Shard: runlog.Shard{Index: 0, Count: 2}, NoReports: true}, d); err != nil {
		t.Fatal(err)
	}
	full := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg, DirOptions{}, full); err != nil {
		t.Fatal(err)
	}
	games, _ := os.ReadFile(filepath.Join(full, runlog.GamesFile))
	if err := os.WriteFile(filepath.Join(d, runlog.GamesFile), games, 0o644); err != nil {
		t.Fatal(err)
	}
	second := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg, DirOptions{Shard: runlog.Shard{Index: 1, Count: 2}, NoReports: true}, second); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(context.Background(), []string{d, second}, filepath.Join(t.TempDir(), "m")); err == nil || !strings.Contains(err.Error(), "outside the directory's games [0, 0)") {
		t.Errorf("a shard log with games outside its range: %v", err)
	}
}

// TestMergeProtectsDirectories: merge refuses an --out that holds an
// unfinished run (as run does), and an --out that is a shard, a link to
// one, or a directory inside one (issue 16: a link to a shard destroyed
// it).
func TestMergeProtectsDirectories(t *testing.T) {
	cfg := func() *variants.Config { return load(t, "games=4", "seed=4", "players.0=random", "players.1=random") }
	shards := runShards(t, cfg, 2)
	before, _ := os.ReadFile(filepath.Join(shards[0], runlog.GamesFile))
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(shards[0], link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{shards[0], link, filepath.Join(link, "sub"), filepath.Join(shards[1], "merged")} {
		if _, err := Merge(context.Background(), shards, out); err == nil || !strings.Contains(err.Error(), "merging would destroy the shard") {
			t.Errorf("--out %s: %v", out, err)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(shards[0], runlog.GamesFile)); string(after) != string(before) {
		t.Error("a refused merge changed the shard")
	}
	// An unfinished run in --out is refused, not replaced.
	busy := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := RunToDir(ctx, load(t, "games=40", "players.0=random", "players.1=random"), DirOptions{Options: Options{Workers: 1, OnRecord: func(*sim.Record) {
		if n++; n == 3 {
			cancel()
		}
	}}}, busy)
	if err == nil {
		t.Fatal("the run was not interrupted")
	}
	var unfinished *UnfinishedError
	if _, err := Merge(context.Background(), shards, busy); !errors.As(err, &unfinished) {
		t.Errorf("--out holding an unfinished run: %v", err)
	}
	// A sibling directory is fine.
	if s, err := Merge(context.Background(), shards, filepath.Join(t.TempDir(), "merged")); err != nil || s.Games != 4 {
		t.Errorf("a good merge: %v", err)
	}
}

// TestImpossibleRecordsAreRefused: a games.jsonl line that is valid JSON
// but cannot be one of the run's games (issue 16: "winner": 5 made resume
// and merge panic) is refused with its file and line; on the last line it
// is a torn tail, cut off by resume.
func TestImpossibleRecordsAreRefused(t *testing.T) {
	cfg := func() *variants.Config { return load(t, "games=6", "seed=4", "players.0=random", "players.1=random") }
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{}, whole); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(whole, runlog.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(good), "\n"), "\n")
	for _, bad := range []struct{ from, to string }{
		{`"winner":`, `"winner":5,"x":`}, {`"winner":`, `"winner":-1,"x":`}, {`"winner":`, `"winner":127,"x":`},
		{`"sides":[`, `"sides":[7,`}, {`"plies":`, `"plies":-3,"x":`},
		// Issue 31: lines that decode but contradict the run.
		{`"reason":"`, `"reason":"zzz","x":"`}, {`"deal":`, `"swapped":true,"deal":`}, {`"deal":`, `"deal":7,"x":`},
		{`"plies":`, `"plies":4611686018427387904,"x":`}, {`"winner":`, `"winner":-1,"reason":"max-plies","x":0,"y":`},
		{`"legal_moves":`, `"legal_moves":0,"x":`}, {`"sides":[`, `"sides":[0,0],"x":[`},
	} {
		line := strings.Replace(lines[2], bad.from, bad.to, 1)
		if line == lines[2] {
			t.Fatalf("%q is not in %s", bad.from, lines[2])
		}
		// In the middle of the log: refused by resume and by merge.
		dir := t.TempDir()
		copyRun(t, whole, dir)
		text := strings.Join(lines[:2], "") + line + strings.Join(lines[3:4], "") + "\n"
		os.WriteFile(filepath.Join(dir, runlog.GamesFile), []byte(text), 0o644)
		os.Remove(filepath.Join(dir, "summary.json"))
		var corrupt *runlog.CorruptError
		if _, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true}, dir); !errors.As(err, &corrupt) || corrupt.Line != 3 ||
			!strings.Contains(err.Error(), filepath.Join(dir, runlog.GamesFile)+" line 3") {
			t.Errorf("%s in the middle: resume gave %v", bad.to, err)
		}
		// As the last line: a torn tail, cut off; the resumed run ends as
		// the whole one did.
		os.WriteFile(filepath.Join(dir, runlog.GamesFile), []byte(strings.Join(lines[:2], "")+line), 0o644)
		if _, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true, NoReports: true}, dir); err != nil {
			t.Errorf("%s as the last line: %v", bad.to, err)
		} else if a, b := summaryWithoutTiming(t, whole), summaryWithoutTiming(t, dir); a != b {
			t.Errorf("%s as the last line: the resumed summary differs", bad.to)
		}
	}
	// Merge checks its shards' lines too.
	shards := runShards(t, cfg, 2)
	shardLog, _ := os.ReadFile(filepath.Join(shards[1], runlog.GamesFile))
	first, rest, _ := strings.Cut(string(shardLog), "\n")
	os.WriteFile(filepath.Join(shards[1], runlog.GamesFile), []byte(strings.Replace(first, `"winner":`, `"winner":5,"x":`, 1)+"\n"+rest), 0o644)
	var corrupt *runlog.CorruptError
	if _, err := Merge(context.Background(), shards, filepath.Join(t.TempDir(), "m")); !errors.As(err, &corrupt) || corrupt.Line != 1 {
		t.Errorf("merge of a shard with an impossible line: %v", err)
	}
}

// copyRun copies a run directory's manifest and logs.
func copyRun(t *testing.T, from, to string) {
	t.Helper()
	for _, name := range []string{runlog.ManifestFile, runlog.GamesFile} {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOneWriterAtATime: a run directory being written is locked; a second
// run, resume or merge into it is refused naming the process (issue 16:
// two resumes at once truncated each other's log).
func TestOneWriterAtATime(t *testing.T) {
	dir := t.TempDir()
	unlock, err := runlog.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := load(t, "games=4", "players.0=random", "players.1=random")
	var busy *runlog.BusyError
	_, err = RunToDir(context.Background(), cfg, DirOptions{}, dir)
	if !errors.As(err, &busy) || busy.PID != os.Getpid() || !strings.Contains(err.Error(), fmt.Sprintf("is in use by process %d", os.Getpid())) {
		t.Errorf("a second writer: %v", err)
	}
	shard := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg, DirOptions{}, shard); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(context.Background(), []string{shard}, dir); !errors.As(err, &busy) {
		t.Errorf("a merge into a locked directory: %v", err)
	}
	unlock()
	if _, err := RunToDir(context.Background(), cfg, DirOptions{}, dir); err != nil {
		t.Errorf("after the lock is released: %v", err)
	}
}

// TestManifestMustMatchLog: a manifest copied from another run over a log
// (issue 16: it resumed silently into a mixed summary) is refused, since
// every log line carries its run's identity.
func TestManifestMustMatchLog(t *testing.T) {
	a := load(t, "games=40", "seed=4", "players.0=random", "players.1=random")
	b := load(t, "games=40", "seed=5", "players.0=random", "players.1=random")
	dirA, dirB := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	if _, err := RunToDir(ctx, a, DirOptions{Options: Options{Workers: 1, OnRecord: func(*sim.Record) {
		if n++; n == 5 {
			cancel()
		}
	}}}, dirA); err == nil {
		t.Fatal("not interrupted")
	}
	if _, err := RunToDir(context.Background(), b, DirOptions{}, dirB); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(dirB, runlog.ManifestFile))
	os.WriteFile(filepath.Join(dirA, runlog.ManifestFile), manifest, 0o644)
	var corrupt *runlog.CorruptError
	_, err := RunToDir(context.Background(), b, DirOptions{Resume: true}, dirA)
	if !errors.As(err, &corrupt) || corrupt.Line != 1 || !strings.Contains(err.Error(), "the log and the manifest come from different runs") {
		t.Errorf("resuming a log under another run's manifest: %v", err)
	}
	lines, _ := os.ReadFile(filepath.Join(dirB, runlog.GamesFile))
	m, _ := runlog.ReadManifest(dirB)
	if want := `"run":"` + m.RunID() + `"`; strings.Count(string(lines), want) != 40 {
		t.Errorf("not every line of games.jsonl carries %s", want)
	}
}

// failingLog saves games until its space runs out.
type failingLog struct {
	gameLog
	left int
}

func (f *failingLog) Add(r *sim.Record) error {
	if f.left == 0 {
		return syscall.ENOSPC
	}
	f.left--
	return f.gameLog.Add(r)
}

// TestWriteErrorStopsTheRun: when the log cannot be written (a full disk)
// the run stops at once instead of playing games it cannot save (issue
// 16), keeps what it saved, and resumes to the same summary once there is
// space.
func TestWriteErrorStopsTheRun(t *testing.T) {
	cfg := func() *variants.Config { return load(t, "games=200", "seed=4", "players.0=random", "players.1=random") }
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{}, whole); err != nil {
		t.Fatal(err)
	}
	defer func(open func(string) (gameLog, error)) { openLog = open }(openLog)
	openLog = func(dir string) (gameLog, error) {
		w, err := runlog.OpenWriter(dir)
		return &failingLog{gameLog: w, left: 10}, err
	}
	dir := t.TempDir()
	seen := 0
	_, err := RunToDir(context.Background(), cfg(), DirOptions{Options: Options{Workers: 2, OnRecord: func(*sim.Record) { seen++ }}}, dir)
	var we *WriteError
	if !errors.As(err, &we) || !errors.Is(err, syscall.ENOSPC) || we.Done != 10 || !strings.Contains(err.Error(), "continue with playtest run --resume --out "+dir) {
		t.Fatalf("a full disk: %v", err)
	}
	if seen != 10 {
		t.Errorf("%d games reported after 10 were saved", seen)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err == nil {
		t.Error("a failed run wrote summary.json")
	}
	openLog = func(dir string) (gameLog, error) { return runlog.OpenWriter(dir) }
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true}, dir); err != nil {
		t.Fatal(err)
	}
	if a, b := summaryWithoutTiming(t, whole), summaryWithoutTiming(t, dir); a != b {
		t.Error("the resumed run's summary differs from the whole run's")
	}
}

// runShards runs the n shards of a variant, each into its own directory.
func runShards(t *testing.T, cfg func() *variants.Config, n int) []string {
	t.Helper()
	var shards []string
	for i := range n {
		d := t.TempDir()
		if _, err := RunToDir(context.Background(), cfg(), DirOptions{Shard: runlog.Shard{Index: i, Count: n}, NoReports: true}, d); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	return shards
}

// TestDamagedRunsAreLeftAlone: a resume refused for a damaged manifest or
// log changes nothing (issue 31: swapped from/to emptied games.jsonl, and
// a damaged third line made resume cut every line after it); a resume that
// rewrites a finished run marks it unfinished first, so a kill then leaves
// no "finished" beside a shorter log.
func TestDamagedRunsAreLeftAlone(t *testing.T) {
	cfg := func() *variants.Config { return load(t, "games=40", "seed=4", "players.0=random", "players.1=random") }
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{}, whole); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(whole, runlog.ManifestFile))
	log, _ := os.ReadFile(filepath.Join(whole, runlog.GamesFile))
	lines := strings.SplitAfter(string(log), "\n")
	for _, c := range []struct {
		name          string
		manifest, log string
	}{
		{"from and to swapped", strings.Replace(strings.Replace(string(manifest), `"from": 0`, `"from": 40`, 1), `"to": 40`, `"to": 0`, 1), string(log)},
		{"to negative", strings.Replace(string(manifest), `"to": 40`, `"to": -5`, 1), string(log)},
		{"from moved", strings.Replace(string(manifest), `"from": 0`, `"from": 30`, 1), string(log)},
		{"line 3 damaged", string(manifest), strings.Join(lines[:2], "") + "{damaged\n" + strings.Join(lines[3:], "")},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, runlog.ManifestFile), []byte(c.manifest), 0o644)
		os.WriteFile(filepath.Join(dir, runlog.GamesFile), []byte(c.log), 0o644)
		_, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true}, dir)
		var bad interface{ BadInput() bool }
		if !errors.As(err, &bad) {
			t.Errorf("%s: resume gave %v, want a refusal", c.name, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, runlog.GamesFile)); string(b) != c.log {
			t.Errorf("%s: the log went from %d to %d bytes", c.name, len(c.log), len(b))
		}
		if b, _ := os.ReadFile(filepath.Join(dir, runlog.ManifestFile)); string(b) != c.manifest {
			t.Errorf("%s: the manifest changed", c.name)
		}
	}
	// A finished run with a torn last line, resumed and stopped at once:
	// unfinished, not "finished" beside a log one game short.
	dir := t.TempDir()
	copyRun(t, whole, dir)
	os.WriteFile(filepath.Join(dir, runlog.GamesFile), []byte(strings.Join(lines[:39], "")+`{"index":39,"de`), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var notices []string
	_, err := RunToDir(ctx, cfg(), DirOptions{Resume: true, Notice: func(s string) { notices = append(notices, s) }}, dir)
	m, _ := runlog.ReadManifest(dir)
	if !errors.Is(err, context.Canceled) || m == nil || m.Finished || len(notices) != 1 || !strings.Contains(notices[0], "line 40") {
		t.Errorf("a finished run resumed and stopped: %v, manifest %+v, notices %q", err, m, notices)
	}
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true}, dir); err != nil {
		t.Fatal(err)
	}
	if a, b := summaryWithoutTiming(t, whole), summaryWithoutTiming(t, dir); a != b {
		t.Errorf("the resumed run's summary differs")
	}
}

// TestFullRecordsReplayOnResume (issue 31): a line that kept its moves is
// replayed when read back, so a flipped winner or a changed length is
// refused by resume and merge, not folded into the summary.
func TestFullRecordsReplayOnResume(t *testing.T) {
	cfg := func() *variants.Config { return load(t, "games=6", "seed=4", "players.0=random", "players.1=random") }
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(), DirOptions{Records: runlog.RecordsFull}, whole); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(filepath.Join(whole, runlog.GamesFile))
	lines := strings.SplitAfter(string(good), "\n")
	checked := 0
	defer func() {
		if checked < 3 {
			t.Errorf("only %d damaged lines tried", checked)
		}
	}()
	for _, bad := range []struct{ from, to string }{
		{`"winner":0,`, `"winner":1,`}, {`"winner":1,`, `"winner":0,`}, {`"plies":`, `"plies":1,"x":`},
	} {
		k := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, bad.from) })
		if k < 0 || k == len(lines)-2 {
			continue // not in a line before the last
		}
		checked++
		dir := t.TempDir()
		copyRun(t, whole, dir)
		lines := slices.Clone(lines)
		lines[k] = strings.Replace(lines[k], bad.from, bad.to, 1)
		os.WriteFile(filepath.Join(dir, runlog.GamesFile), []byte(strings.Join(lines, "")), 0o644)
		var corrupt *runlog.CorruptError
		if _, err := RunToDir(context.Background(), cfg(), DirOptions{Resume: true}, dir); !errors.As(err, &corrupt) || !strings.Contains(err.Error(), "its moves give") {
			t.Errorf("%s → %s: resume gave %v", bad.from, bad.to, err)
		}
		if _, err := Merge(context.Background(), []string{dir}, filepath.Join(t.TempDir(), "m")); !errors.As(err, &corrupt) {
			t.Errorf("%s → %s: merge gave %v", bad.from, bad.to, err)
		}
	}
}

// TestRunGrows: a run resumed with more games (DirOptions.Extend) keeps
// the games it logged and ends with the summary, games.csv and report of
// a run of that many games from the start, interrupted on the way or not;
// without Extend, or to fewer games, or from a shard, it is refused.
func TestRunGrows(t *testing.T) {
	cfg := func(games int) *variants.Config {
		return load(t, fmt.Sprintf("games=%d", games), "seed=4", "players.0=greedy", "players.1={bot: greedy, epsilon: 0.2}")
	}
	whole := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(70), DirOptions{Options: Options{Workers: 3}}, whole); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(30), DirOptions{Options: Options{Workers: 2}}, dir); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, runlog.GamesFile))
	if _, err := RunToDir(context.Background(), cfg(70), DirOptions{Resume: true}, dir); err == nil {
		t.Fatal("a resume with more games but without Extend was accepted")
	}
	// Grown to 50, interrupted after a few, then grown on to 70.
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	_, err := RunToDir(ctx, cfg(50), DirOptions{Options: Options{Workers: 2, OnRecord: func(*sim.Record) {
		if seen++; seen == 7 {
			cancel()
		}
	}}, Resume: true, Extend: true}, dir)
	cancel()
	if !errors.As(err, new(*InterruptedError)) {
		t.Fatalf("grown to 50: %v", err)
	}
	var started [2]int
	if _, err := RunToDir(context.Background(), cfg(70), DirOptions{Options: Options{Workers: 1}, Resume: true, Extend: true,
		Start: func(done, total int) { started = [2]int{done, total} }}, dir); err != nil {
		t.Fatal(err)
	}
	if started[0] < 37 || started[1] != 70 {
		t.Errorf("grown on from %v, want at least 37 of 70 games kept", started)
	}
	after, _ := os.ReadFile(filepath.Join(dir, runlog.GamesFile))
	if !bytes.HasPrefix(after, before) {
		t.Error("growing rewrote the games it had")
	}
	if a, b := summaryWithoutTiming(t, whole), summaryWithoutTiming(t, dir); a != b {
		t.Errorf("the grown summary differs:\n%s\n%s", a, b)
	}
	sameFiles(t, whole, dir, "games.csv", "report.md")
	m, err := runlog.ReadManifest(dir)
	if err != nil || len(m.Extends) != 2 || m.Games != 70 || m.ConfigHash != cfg(70).Hash() {
		t.Fatalf("grown manifest %+v, %v", m, err)
	}
	// A run never loses games.
	if _, err := RunToDir(context.Background(), cfg(40), DirOptions{Resume: true, Extend: true}, dir); err == nil {
		t.Error("a resume to fewer games was accepted")
	}
	// A shard does not grow: its slice depends on the run's size.
	shard := t.TempDir()
	if _, err := RunToDir(context.Background(), cfg(30), DirOptions{Shard: runlog.Shard{Index: 0, Count: 2}}, shard); err != nil {
		t.Fatal(err)
	}
	_, err = RunToDir(context.Background(), cfg(70), DirOptions{Resume: true, Extend: true, Shard: runlog.Shard{Index: 0, Count: 2}}, shard)
	if err == nil || !strings.Contains(err.Error(), "merge the shards first") {
		t.Errorf("a shard grew: %v", err)
	}
}
