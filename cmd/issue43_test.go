package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"playtest/games"
	"playtest/internal/testenv"
	"playtest/sim/model"
	"playtest/variants"
)

// The adversarial cases of issue 43, one per clause, through the command
// line: nothing is written outside a study, and a study.json or
// tune-state.json edited by hand is refused with exit 2.

// cheapBots makes every variant of a command play random bots.
var cheapBots = []string{"--set", "players.0=random", "--set", "players.1=random"}

// unfinishStudy marks the study kept in dir unfinished, as if it was
// stopped, so that --resume plays it again.
func unfinishStudy(t *testing.T, dir string) {
	t.Helper()
	editFile(t, filepath.Join(dir, "study.json"), func(s string) string {
		return strings.Replace(s, `"finished": true`, `"finished": false`, 1)
	})
}

// editStudy rewrites dir's study.json through edit of its decoded JSON.
func editStudy(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	editJSON(t, filepath.Join(dir, "study.json"), edit)
}

// editJSON rewrites the JSON file at path through edit of its decoded
// value.
func editJSON(t *testing.T, path string, edit func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err = json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// swapUnitNames swaps the names of a study's first two units.
func swapUnitNames(m map[string]any) {
	units := m["units"].([]any)
	a, b := units[0].(map[string]any), units[1].(map[string]any)
	a["name"], b["name"] = b["name"], a["name"]
}

// moveOut replaces dir/sub by a link to outside (a copy of it, so that a
// resume that follows the link finds a run to continue there).
func moveOut(t *testing.T, dir, sub, outside string) {
	t.Helper()
	if err := os.Rename(filepath.Join(dir, sub), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, sub)); err != nil {
		t.Fatal(err)
	}
}

// untouched fails the test if anything in dir changed after mark.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			files[p] = string(b)
		}
		return nil
	})
	return files
}

func TestAdversarialIssue43(t *testing.T) {
	testenv.SkipUnderRace(t)
	// Each case starts from a copy of a study or run made once (fixture).
	sweep := append([]string{"sweep", "stacktics-size2", "--games", "4", "--quiet"}, cheapBots...)
	tune := append([]string{"tune", "stacktics-size2", "--first-games", "4", "--games", "16", "--quiet"}, cheapBots...)
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string) []string
		want  string
		// outside is a directory the command must leave as it was.
		outside bool
	}{
		{
			name: "1 a sweep's unit directory is a link",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, filepath.Join(dir, "st"), sweep...)
				unfinishStudy(t, filepath.Join(dir, "st"))
				units, _ := filepath.Glob(filepath.Join(dir, "st", "variants", "04-*"))
				moveOut(t, filepath.Join(dir, "st", "variants"), filepath.Base(units[0]), filepath.Join(dir, "outside"))
				return []string{"sweep", "--resume", "--out", filepath.Join(dir, "st"), "--quiet"}
			},
			want: "is a link", outside: true,
		},
		{
			name: "1 a sweep's variants/ is a link",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, filepath.Join(dir, "st"), sweep...)
				unfinishStudy(t, filepath.Join(dir, "st"))
				moveOut(t, filepath.Join(dir, "st"), "variants", filepath.Join(dir, "outside"))
				return []string{"sweep", "--resume", "--out", filepath.Join(dir, "st"), "--quiet"}
			},
			want: "is a link", outside: true,
		},
		{
			name: "1 a run's plots/ is a link",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, filepath.Join(dir, "r"), reportedRun...)
				moveOut(t, filepath.Join(dir, "r"), "plots", filepath.Join(dir, "outside"))
				return []string{"report", filepath.Join(dir, "r")}
			},
			want: "is a link", outside: true,
		},
		{
			name: "1 a run's report.md is a link",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, filepath.Join(dir, "r"), reportedRun...)
				if err := os.MkdirAll(filepath.Join(dir, "outside"), 0o755); err != nil {
					t.Fatal(err)
				}
				moveOut(t, filepath.Join(dir, "r"), "report.md", filepath.Join(dir, "outside", "report.md"))
				return []string{"report", filepath.Join(dir, "r")}
			},
			want: "is a link", outside: true,
		},
		{
			name: "3 a sweep's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, dir, sweep...)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"sweep", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a tournament's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, dir, "tournament", "stacktics/size2", "--bot", "random", "--bot", "greedy", "--bot", "{bot: alphabeta, nodes: 100}", "--games", "2", "--quiet")
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"tournament", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a comparison's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, dir, append([]string{"compare", "size2", "size2-nopie", "--games", "4", "--quiet"}, cheapBots...)...)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"compare", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a ladder's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, dir, "skill", "mnk/tictactoe", "--budgets", "100,200", "--games", "2", "--quiet")
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"skill", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a race's candidate names swapped",
			setup: func(t *testing.T, dir string) []string {
				fixture(t, dir, tune...)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"tune", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := c.setup(t, dir)
			outside := filepath.Join(dir, "outside")
			before := snapshot(t, outside)
			code, _, errOut := run(t, args...)
			if code != ExitBadInput || !strings.Contains(errOut, c.want) || !oneMessage(errOut) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", args, code, errOut, ExitBadInput, c.want)
			}
			if c.outside {
				after := snapshot(t, outside)
				if len(before) == 0 || len(after) != len(before) {
					t.Errorf("outside held %d files, now %d", len(before), len(after))
				}
				for p, b := range before {
					if after[p] != b {
						t.Errorf("%s was rewritten through the link", p)
					}
				}
			}
		})
	}
}

// TestTuneStateDamaged: a tune-state.json edited into values no race can
// reach is refused on --resume with exit 2 "changed or damaged", never an
// index out of range (exit 70) or a seat at 310%.
func TestTuneStateDamaged(t *testing.T) {
	testenv.SkipUnderRace(t)
	kept := t.TempDir()
	mustRun(t, append([]string{"tune", "stacktics-size2", "--first-games", "4", "--games", "16", "--quiet", "--out", kept}, cheapBots...)...)
	unfinishStudy(t, kept)
	cand := func(st map[string]any, i int) map[string]any { return st["candidates"].([]any)[i].(map[string]any) }
	tallyOf := func(st map[string]any) map[string]any { return cand(st, 0)["tally"].(map[string]any) }
	set := func(st map[string]any, field string, fig int, v any) {
		tallyOf(st)[field].([]any)[fig].([]any)[0] = v
	}
	for _, c := range []struct {
		name string
		edit func(st map[string]any)
		want string
	}{
		{"a score beyond its games (seat 0 at 310%)", func(st map[string]any) { set(st, "sum", 0, 6.2) }, "sums to 6.2 over 2 games"},
		{"a negative sum", func(st map[string]any) { set(st, "sum", 1, -1) }, "sums to -1"},
		{"n = 0", func(st map[string]any) { set(st, "n", 0, 0) }, "counted 0 times"},
		{"n = 1e15", func(st map[string]any) { set(st, "n", 2, 1000000000000000) }, "counted 1000000000000000 times"},
		{"games_spent -5", func(st map[string]any) { st["games_spent"] = -5 }, "games_spent -5"},
		{"games_spent off", func(st map[string]any) { st["games_spent"] = 190 }, "games_spent 190, but the candidates played 192"},
		{"round 1e9", func(st map[string]any) { st["round"] = 1000000000 }, "round 1000000000 of a race of 3 rounds"},
		{"round -1", func(st map[string]any) { st["round"] = -1 }, "round -1 of a race"},
		{"stopped at round 0", func(st map[string]any) {
			st["round"], st["rounds"], st["evaluations"], st["games_spent"], st["stopped"] = 0, []any{}, []any{}, 0, "done"
			for i := range st["candidates"].([]any) {
				st["candidates"].([]any)[i] = map[string]any{"games": 0, "tally": nil}
			}
		}, "stopped (\"done\") before any round was judged"},
		{"a null tally", func(st map[string]any) { cand(st, 0)["tally"] = nil }, "a null tally"},
		{"a null candidate", func(st map[string]any) { st["candidates"].([]any)[3] = nil }, "candidate 4 is null"},
		{"more games than the round", func(st map[string]any) { cand(st, 0)["games"] = 64 }, "candidate 1 has 64 games"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "t")
			if err := os.CopyFS(dir, os.DirFS(kept)); err != nil {
				t.Fatal(err)
			}
			editJSON(t, filepath.Join(dir, "tune-state.json"), c.edit)
			code, _, errOut := run(t, "tune", "--resume", "--out", dir, "--quiet")
			if code != ExitBadInput || !strings.Contains(errOut, "changed or damaged") || !strings.Contains(errOut, c.want) || !oneMessage(errOut) {
				t.Errorf("exit %d, stderr %q; want exit %d, changed or damaged, %q", code, errOut, ExitBadInput, c.want)
			}
		})
	}
}

// shellWorkspace makes a fresh directory with bin/playtest (this test
// binary, run as playtest) for shell scripts the docs give verbatim.
func shellWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nPLAYTEST_TEST_MAIN=1 exec " + shellQuote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "bin", "playtest"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runScript runs a bash script in dir and returns its exit code and
// output; PLAYTEST_GAMES keeps the presets' runs short.
func runScript(t *testing.T, dir, script string, games int) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PLAYTEST_GAMES="+strconv.Itoa(games), "GITHUB_STEP_SUMMARY=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// TestCIWorkflowVerbatim (issue 43): the README's check line and the
// workflow step of docs/ci.md, run word for word in a fresh directory (the
// presets' games cut by PLAYTEST_GAMES), pass and leave the JUnit file and
// the report where they say.
func TestCIWorkflowVerbatim(t *testing.T) {
	testenv.SkipUnderRace(t)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^(bin/playtest check capstone --out r/ --junit r/check\.xml)\s`).FindSubmatch(readme)
	if line == nil {
		t.Fatal("README.md has no `bin/playtest check capstone --out r/ --junit r/check.xml` line")
	}
	dir := shellWorkspace(t)
	// 4 games: capstone's bound is a minimum, which no game has refuted
	// (a pass at any count), and its ismcts takes a second a game.
	if code, out := runScript(t, dir, string(line[1]), 4); code != 0 {
		t.Fatalf("%s: exit %d\n%s", line[1], code, out)
	}
	for _, f := range []string{"r/check.xml", "r/check.md", "r/report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the README's check left no %s", f)
		}
	}

	ci, err := os.ReadFile("../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)- name: check the designer's claims\n\s+run: \|\n(.*?)\n\s+shell: bash \{0\}`).FindSubmatch(ci)
	if m == nil {
		t.Fatal("docs/ci.md has no step 'check the designer's claims' with a run: | script")
	}
	matrix := regexp.MustCompile(`variant: \[([^\]]*)\]`).FindSubmatch(ci)
	if matrix == nil || !slices.Contains(strings.Split(strings.ReplaceAll(string(matrix[1]), " ", ""), ","), "threestone") {
		t.Fatal("docs/ci.md's workflow has no variant matrix with threestone")
	}
	// The matrix's threestone, whose bound (a minimum no game has broken)
	// 20 games pass in a second: the step's rerun at 4,000 games (exit 3)
	// would take minutes, and the matrix's capstone takes four times as
	// long a game.
	v := "threestone"
	script := strings.ReplaceAll(string(m[1]), "${{ matrix.variant }}", v)
	dir = shellWorkspace(t)
	if code, out := runScript(t, dir, script, 20); code != 0 {
		t.Errorf("docs/ci.md's step for %s: exit %d\n%s", v, code, out)
	}
	for _, f := range []string{"report/check.xml", "report/check.html", "report/report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("docs/ci.md's step for %s left no %s", v, f)
		}
	}
}

// TestOutputParents (issue 43): a file inside --out gets its directories;
// one elsewhere in a missing directory is still refused, before --out is
// created.
func TestOutputParents(t *testing.T) {
	dir := t.TempDir()
	variant := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(variant, []byte("game: stacktics\nrules: {size: 2}\nplayers: [random, random]\nexpect:\n  - {metric: plies, stat: min, min: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r")
	code, _, errOut := run(t, "check", variant, "--games", "4", "--quiet", "--out", out, "--junit", filepath.Join(dir, "missing", "c.xml"))
	if code != ExitBadInput || !strings.Contains(errOut, "--junit") {
		t.Errorf("a --junit in a missing directory outside --out: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused check created --out")
	}
	code, _, errOut = run(t, "check", variant, "--games", "4", "--quiet", "--out", out, "--junit", filepath.Join(out, "ci", "deep", "c.xml"), "--markdown", filepath.Join(out, "md", "c.md"))
	if code != 0 {
		t.Fatalf("files inside --out: exit %d, %s", code, errOut)
	}
	for _, f := range []string{"ci/deep/c.xml", "md/c.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("no %s", f)
		}
	}
}

// TestDiffFailOn (issue 43): diff --fail-on exits 1 when a named figure
// moved, 0 when none of them did, and 2 for a figure the runs do not
// report (with a suggestion); without it diff exits 0 whatever moved.
func TestDiffFailOn(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	mustRun(t, "run", "size2", "--games", "60", "--quiet", "--no-reports", "--set", "players.0=random", "--set", "players.1=random", "--out", a)
	mustRun(t, "run", "size2", "--games", "60", "--seed", "9", "--quiet", "--no-reports", "--set", "players.0=random", "--set", "players.1=greedy", "--out", b)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"diff", a, b}, 0, ""},
		{[]string{"diff", a, b, "--fail-on", "any"}, ExitFailure, "plies"},
		{[]string{"diff", a, b, "--fail-on", "plies,stalled"}, ExitFailure, "diff: plies moved (--fail-on plies,stalled)"},
		{[]string{"diff", a, b, "--fail-on", "stalled"}, 0, ""},
		{[]string{"diff", a, a, "--fail-on", "any", "--format", "json"}, 0, ""},
		{[]string{"diff", a, b, "--fail-on", "seat0_wns"}, ExitBadInput, `did you mean "seat0_wins"?`},
	} {
		code, _, errOut := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args[3:], code, errOut, c.code, c.want)
		}
	}
}

// TestCheckInconclusiveFail (issue 43): an undecided bound exits 3 and is a
// skipped JUnit case; with --inconclusive fail it exits 1 and fails.
func TestCheckInconclusiveFail(t *testing.T) {
	dir := t.TempDir()
	variant := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(variant, []byte("game: stacktics\nrules: {size: 2}\nplayers: [random, random]\nexpect:\n  - {metric: seat0_wins, min: 0.45, max: 0.55}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		policy []string
		code   int
		junit  string
	}{
		{nil, 3, `failures="0" skipped="1"`},
		{[]string{"--inconclusive", "fail"}, ExitFailure, `failures="1" skipped="0"`},
		{[]string{"--inconclusive", "maybe"}, ExitBadInput, ""},
	} {
		junit := filepath.Join(dir, "c.xml")
		os.Remove(junit)
		code, _, errOut := run(t, append([]string{"check", variant, "--games", "6", "--quiet", "--junit", junit}, c.policy...)...)
		if code != c.code {
			t.Errorf("%v: exit %d (%s), want %d", c.policy, code, errOut, c.code)
		}
		if b, _ := os.ReadFile(junit); c.junit != "" && !strings.Contains(string(b), "<testsuites name=\"playtest check\" tests=\"1\" "+c.junit) {
			t.Errorf("%v: JUnit %s", c.policy, b)
		}
	}
}

// TestOneVocabulary (issue 43): seat 0's score is seat0_score in every
// command, its old name seat0_pair_score still read; --tolerance is in
// points in skill and tune, a share typed by mistake refused with what was
// meant; an unknown --metric is blamed on the flag, not the sweep file.
func TestOneVocabulary(t *testing.T) {
	random := []string{"--set", "players.0=random", "--set", "players.1=random", "--quiet"}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare", "size2", "size2", "--metric", "seat0_pair_score", "--games", "4"}, 0, "seat0_score per game"},
		{[]string{"compare", "size2", "size2", "--metric", "seat0_score", "--games", "4"}, 0, "seat0_score per game"},
		{[]string{"sweep", "stacktics-size2", "--metric", "seat0_score", "--games", "4"}, 0, "seat0_score"},
		{[]string{"sweep", "stacktics-size2", "--metric", "seat0_pair_score", "--games", "4"}, 0, "seat0_score"},
		{[]string{"sweep", "stacktics-size2", "--metric", "seat0_scor", "--games", "4"}, ExitBadInput, `--metric seat0_scor: unknown metric "seat0_scor" (did you mean "seat0_score"?)`},
		{[]string{"skill", "stacktics/size2", "--budgets", "100,200", "--games", "2", "--tolerance", "0.03"}, ExitBadInput, "did you mean 3 points (--tolerance 3)?"},
		{[]string{"tune", "stacktics-size2", "--first-games", "4", "--games", "8", "--tolerance", "0.02"}, ExitBadInput, "did you mean 2 points (--tolerance 2)?"},
		{[]string{"tune", "stacktics-size2", "--first-games", "4", "--games", "8", "--tolerance", "60", "--format", "json"}, 0, `"tolerance": 0.6`},
	} {
		code, out, errOut := run(t, append(c.args, random...)...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, want %d and %q in\n%s%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
}

// TestHelpExamplesAreSound (issue 43): the sweep file in sweep --help is
// not a rule set seat 0 wins on move 1, its seat-bias test is named as
// the output names it, and compare --help's examples compare figures that
// vary from game to game.
func TestHelpExamplesAreSound(t *testing.T) {
	_, help, _ := run(t, "sweep", "--help")
	m := regexp.MustCompile(`(?s)A sweep file:\n\n(.*?)\n\n`).FindStringSubmatch(help)
	if m == nil {
		t.Fatalf("sweep --help has no sweep file:\n%s", help)
	}
	var lines []string
	for _, l := range strings.Split(m[1], "\n") {
		lines = append(lines, strings.TrimPrefix(l, "  "))
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "my-sweep.yaml")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Every board of the example's zip, proved to depth 2: no opening wins.
	zip := regexp.MustCompile(`rules\.board: \[(\{[^}]*\}), (\{[^}]*\})\]\s+rules\.start_columns: \[(\[[^\]]*\]), (\[[^\]]*\])\]`).FindStringSubmatch(m[1])
	if zip == nil {
		t.Fatalf("sweep --help's example has no board zip: %s", m[1])
	}
	for i, board := range zip[1:3] {
		cols := zip[3+i]
		code, out, errOut := run(t, "solve", "stacktics/size2", "--set", "rules.board="+board, "--set", "rules.start_columns="+cols, "--set", "rules.pie_rule=false", "--depth", "2")
		if code != 0 || strings.Contains(out, "wins by force") {
			t.Errorf("the example's %s board: exit %d, %s%s", board, code, out, errOut)
		}
	}
	code, out, errOut := run(t, "sweep", file, "--games", "4", "--quiet", "--set", "players.0=random", "--set", "players.1=random", "--format", "csv")
	if code != 0 || strings.Count(out, "\n") != 5 {
		t.Errorf("the example sweep: exit %d, %s%s", code, out, errOut)
	}
	if strings.Contains(help, "Seat bias (the\nexact binomial test that seat 0 wins half the decisive games)") || !strings.Contains(help, "sign-flip") {
		t.Error("sweep --help names the binomial test where the output names the sign-flip test over pairs")
	}
	_, chelp, _ := run(t, "compare", "--help")
	examples := regexp.MustCompile(`(?m)^  playtest compare (stacks\S*) (\S+) (.*--metric (\S+).*)$`).FindAllStringSubmatch(chelp, -1)
	if len(examples) == 0 {
		t.Fatalf("compare --help has no STACKS example with --metric:\n%s", chelp)
	}
	for _, ex := range examples {
		// Random bots: whether the metric varies is the rules' question, not
		// the bots' (the presets' ismcts takes seconds).
		code, out, errOut := run(t, "compare", ex[1], ex[2], "--games", "20", "--quiet", "--format", "json", "--set-b", "rules.must_stack_scope=hand", "--metric", ex[4], "--set", "players=[random, random]")
		var res struct {
			A struct {
				Summary struct {
					Metrics []struct {
						Name string `json:"name"`
						Mean *struct {
							Min float64 `json:"min"`
							Max float64 `json:"max"`
						} `json:"mean"`
					} `json:"metrics"`
				} `json:"summary"`
			} `json:"a"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("%v: exit %d, %s", ex[0], code, errOut)
		}
		for _, mt := range res.A.Summary.Metrics {
			if mt.Name == ex[4] && mt.Mean != nil && mt.Mean.Min == mt.Mean.Max {
				t.Errorf("compare --help compares %s, which is %g in every game", ex[4], mt.Mean.Min)
			}
		}
		if ex[4] == "plies" {
			t.Errorf("compare --help compares STACKS' plies, 24 in every game")
		}
	}
}

// TestTuneOneRound (issue 43): a race of one round says "after 1 round",
// draws each candidate's standing with its interval instead of a line
// plot with nothing to join, and suggests a skill ladder of the bots the
// race played.
func TestTuneOneRound(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	code, out, errOut := run(t, "tune", "stacktics-size2", "--first-games", "4", "--games", "4", "--quiet", "--out", dir,
		"--set", "players.0.iterations=100", "--set", "players.1.iterations=100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"after 1 round (", "--set players.0.iterations=100 --set players.1.iterations=100."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "1 rounds") {
		t.Errorf("'1 rounds' in\n%s", out)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "plots", "rounds.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "after one round") && !strings.Contains(string(svg), "after its one round") {
		t.Error("the one-round race's plot is not the candidates' standings")
	}
}

// TestStudyDirectoryMessages (issue 43): a study stopped before it wrote
// study.json is told to start again (and tune is among the studies named);
// a merge refusal says what differs between the shards' studies; a study
// of another kind is not written into a finished one.
func TestStudyDirectoryMessages(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(filepath.Join(other, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	sweepArgs := func(out string, extra ...string) []string {
		return append(append([]string{"sweep", "stacktics-size2", "--games", "4", "--quiet", "--out", out}, cheapBots...), extra...)
	}
	mustRun(t, sweepArgs(filepath.Join(dir, "s0"), "--shard", "0/2")...)
	mustRun(t, sweepArgs(filepath.Join(dir, "s1"), "--shard", "1/2", "--seed", "7")...)
	mustRun(t, "tournament", "stacktics/size2", "--bot", "random", "--bot", "greedy", "--games", "2", "--quiet", "--out", filepath.Join(dir, "tour"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--resume", "--out", empty}, "the directory is empty, so the study was stopped before it began"},
		{[]string{"tune", "--resume", "--out", other}, "not a study directory (playtest sweep, tune, tournament"},
		{[]string{"merge", filepath.Join(dir, "s0"), filepath.Join(dir, "s1"), "--out", filepath.Join(dir, "m")}, "seed 1 against 7"},
		{sweepArgs(filepath.Join(dir, "tour")), "holds a finished tournament"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != ExitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "tour", "variants")); err == nil {
		t.Error("the refused sweep wrote its variants beside the tournament")
	}
}

// TestTuneHugeWeight (issue 43): a soft target's weight of 1e308 (or a
// bound of 1e308) is refused at load, exit 2 naming its line, before
// anything is written: the objective would be +Inf.
func TestTuneHugeWeight(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ target, want string }{
		{"{metric: plies, min: 10, weight: 1e308}", "objective.targets[0].weight: want a weight above 0 and at most 1e+06"},
		{"{metric: plies, max: 1e308}", "objective.targets[0].max: want a bound between"},
	} {
		space := filepath.Join(dir, "space.yaml")
		text := "name: huge\nbase: stacktics/size2\ngames: 8\naxes:\n  - {key: rules.pie_rule, values: [true, false]}\nobjective:\n  targets:\n    - " + c.target + "\n"
		if err := os.WriteFile(space, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		code, _, errOut := run(t, append([]string{"tune", space, "--first-games", "4", "--quiet", "--out", out}, cheapBots...)...)
		if code != ExitBadInput || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "space.yaml:8") {
			t.Errorf("%s: exit %d, %q", c.target, code, errOut)
		}
		if _, err := os.Stat(filepath.Join(out, "study.json")); err == nil {
			t.Errorf("%s: a study was begun", c.target)
		}
	}
}

// TestPlayCtrlCSaves (issue 43): Ctrl-C during a game with entries saves
// it to a file of its own, named in the message, that replay reads.
func TestPlayCtrlCSaves(t *testing.T) {
	cmd := exec.Command(os.Args[0], "play", "stacktics/size3", "--seat", "0", "--bot", "random")
	cmd.Env = append(os.Environ(), "PLAYTEST_TEST_MAIN=1", "TMPDIR="+t.TempDir())
	var errb strings.Builder
	cmd.Stderr = &errb
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The second prompt comes after the person's entry and the bot's
	// answer: then interrupt.
	prompts := make(chan struct{}, 8)
	go func() {
		buf := make([]byte, 4096)
		var seen strings.Builder
		for n := 0; ; {
			k, err := stdout.Read(buf)
			seen.Write(buf[:k])
			for ; strings.Count(seen.String(), "your decision") > n; n++ {
				prompts <- struct{}{}
			}
			if err != nil {
				close(prompts)
				return
			}
		}
	}()
	<-prompts
	if _, err := stdin.Write([]byte("1\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-prompts:
	case <-time.After(time.Minute):
		t.Fatal("no second prompt")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for range prompts {
	}
	_ = cmd.Wait()
	m := regexp.MustCompile(`saved in (\S+playtest-game-\S+\.json)`).FindStringSubmatch(errb.String())
	if cmd.ProcessState.ExitCode() != 130 || m == nil {
		t.Fatalf("exit %d, stderr %q", cmd.ProcessState.ExitCode(), errb.String())
	}
	code, out, errOut := run(t, "replay", m[1])
	if code != 0 || !strings.Contains(out, "seat0") {
		t.Errorf("replay of the saved game: exit %d, %s%s", code, out, errOut)
	}
}

// TestYAMLNoCascades (issue 43): a misspelt or mistyped knob is one
// problem, not followed by a check across knobs that its default fails;
// a key that is part of a knob's name is suggested as that knob.
func TestYAMLNoCascades(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(file, []byte("game: stacktics\nrules:\n  size: 2\n  board: {rows: 5, cols: 3}\n  start_colums: [0, 2]\nplayers: [random, random]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", file}, `v.yaml:5: rules.start_colums: unknown key (did you mean "start_columns"?)`},
		{[]string{"run", "size2", "--set", "rules.size=x"}, `rules.size: want an integer, got "x"`},
		{[]string{"run", "size2", "--set", "rules.pie=false"}, `rules.pie: unknown key (did you mean "pie_rule"?)`},
	} {
		code, _, errOut := run(t, append(c.args, "--games", "2", "--quiet")...)
		if code != ExitBadInput || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "problems") || strings.Contains(errOut, "is required when") {
			t.Errorf("%v: exit %d, %q; want exit 2 and only %q", c.args, code, errOut, c.want)
		}
	}
}

// TestReportsIssue43: check --format json prints check.json's content
// (PLAYTEST_FORMAT too); check.html and compare.html hold a chart and link
// the run reports beside them; playtest games lists the shipped sweeps
// and tune spaces.
func TestReportsIssue43(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	code, out, errOut := run(t, append([]string{"check", "capstone", "--games", "6", "--quiet", "--format", "json", "--out", filepath.Join(dir, "ck")}, cheapBots...)...)
	var report struct {
		Schema string `json:"schema"`
	}
	if code != 0 && code != 3 || json.Unmarshal([]byte(out), &report) != nil || report.Schema != "playtest/check/v1" {
		t.Errorf("check --format json: exit %d, %s%s", code, out, errOut)
	}
	t.Setenv("PLAYTEST_FORMAT", "json")
	if _, out, _ := run(t, append([]string{"check", "capstone", "--games", "2", "--quiet"}, cheapBots...)...); !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Errorf("PLAYTEST_FORMAT=json was ignored: %s", out)
	}
	t.Setenv("PLAYTEST_FORMAT", "")
	mustRun(t, append([]string{"compare", "size2", "size2-nopie", "--games", "8", "--quiet", "--out", filepath.Join(dir, "cmp")}, cheapBots...)...)
	for _, c := range []struct{ page, image, link string }{
		{"ck/check.html", `src="data:image/svg+xml;base64,`, `href="report.html"`},
		{"cmp/compare.html", `src="data:image/svg+xml;base64,`, `href="a/report.html"`},
	} {
		b, err := os.ReadFile(filepath.Join(dir, c.page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.image) || !strings.Contains(string(b), c.link) {
			t.Errorf("%s lacks its chart or its link %s", c.page, c.link)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "cmp", "b", "report.html")); err != nil {
		t.Error("compare --out wrote no report for B's run")
	}
	// Openings as mini-boards where every game starts alike (Stacktics),
	// none where chance or a hidden setup comes first (Capstone).
	mustRun(t, append([]string{"run", "size2", "--games", "10", "--quiet", "--out", filepath.Join(dir, "st")}, cheapBots...)...)
	for _, c := range []struct {
		page string
		want bool
	}{{"st/report.html", true}, {"ck/report.html", false}} {
		b, err := os.ReadFile(filepath.Join(dir, c.page))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `<img class="mini" alt="the position after the opening" src="data:image/svg&#43;xml;base64,`); got != c.want {
			t.Errorf("%s: opening boards %v, want %v", c.page, got, c.want)
		}
	}
	_, games, _ := run(t, "games")
	for _, want := range []string{"sweeps (playtest sweep NAME)", "stacktics-size2 ", "tune spaces (playtest tune NAME)", "stacktics-size2-decisive", "features of a position from one seat's view", "lone_larges"} {
		if !strings.Contains(games, want) {
			t.Errorf("playtest games lacks %q", want)
		}
	}
	if _, stacks, _ := run(t, "games", "stacks"); !strings.Contains(stacks, "stacks-cards") || strings.Contains(stacks, "capstone-goal-order") {
		t.Errorf("playtest games stacks lists another game's sweeps:\n%s", stacks)
	}
}

// TestQuotedFiguresComeFromSamples (issue 43): a preset's figures quoted
// in the README and docs come from what make samples writes: a block
// marked <!-- sample: FILE --> holds only text of FILE (whitespace aside;
// "..." skips), and every number in the text of a link to a sample is in
// that sample. A quote that drifts from the samples fails here.
func TestQuotedFiguresComeFromSamples(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	blocks, numbers := 0, 0
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	read := func(doc, target string) string {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(doc), target))
		if err != nil {
			t.Fatalf("%s quotes %s: %v", doc, target, err)
		}
		return string(b)
	}
	block := regexp.MustCompile("(?s)<!-- sample: (\\S+) -->\n```\n(.*?)```")
	link := regexp.MustCompile(`\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^)\s]*samples/[^)\s]+)\)`)
	number := regexp.MustCompile(`\d[\d,.]*%?`)
	for _, doc := range files {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, m := range block.FindAllStringSubmatch(text, -1) {
			sample := norm(read(doc, m[1]))
			for _, part := range strings.Split(m[2], "\n...\n") {
				if p := norm(part); p != "" && p != "..." && !strings.Contains(sample, p) {
					t.Errorf("%s quotes %s, which does not hold:\n%s", doc, m[1], part)
				}
			}
			blocks++
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			if strings.HasSuffix(m[2], ".md") && !number.MatchString(m[1]) {
				continue // a link to a sample report, not a quote
			}
			sample := read(doc, m[2])
			for _, n := range number.FindAllString(m[1], -1) {
				numbers++
				if !strings.Contains(sample, n) {
					t.Errorf("%s quotes %q from %s, which does not hold %s", doc, m[1], m[2], n)
				}
			}
		}
	}
	if blocks < 2 || numbers < 5 {
		t.Errorf("%d quoted blocks and %d quoted numbers found: the scan is broken", blocks, numbers)
	}
}

// TestLearnCommand (issue 44): playtest learn writes model.json, the same
// bytes with one worker or two, that sim/model reads back and checks
// against the game; the table compares the learned model with the hand
// heuristic and the constant.
func TestLearnCommand(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	var models [2][]byte
	for i, workers := range []string{"1", "2"} {
		out := filepath.Join(dir, workers)
		code, text, errOut := run(t, "learn", "stacktics/size2", "--games", "40", "--quiet", "--workers", workers, "--out", out,
			"--set", "players.0={bot: alphabeta, nodes: 200, noise: 0.5, noise_moves: 10}", "--set", "players.1={bot: alphabeta, nodes: 200, noise: 0.5, noise_moves: 10}")
		if code != 0 {
			t.Fatalf("learn: exit %d: %s", code, errOut)
		}
		for _, want := range []string{"learned model", "hand heuristic, best logistic", "constant (the training mean)", "material"} {
			if !strings.Contains(text, want) {
				t.Errorf("the table lacks %q:\n%s", want, text)
			}
		}
		b, err := os.ReadFile(filepath.Join(out, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		models[i] = b
		for _, f := range []string{"learn.md", "learn.html", "plots/reliability.svg", "plots/reliability.png"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("learn --out wrote no %s", f)
			}
		}
	}
	if string(models[0]) != string(models[1]) {
		t.Error("1 and 2 workers wrote different models")
	}
	if code, _, errOut := run(t, "learn", "capstone", "--games", "4", "--quiet", "--l2", "-1"); code != ExitBadInput || !strings.Contains(errOut, "--l2 -1") {
		t.Errorf("--l2 -1: exit %d, %s", code, errOut)
	}
}

// TestLearnedEvaluationInBots (issue 44): alphabeta with eval: learned
// reads a model.json; a model whose weights are the hand heuristic's
// (scale 1, bias 0) plays exactly the hand heuristic's games; a model of
// other rules is refused with model_strict, and the config hash covers the
// model's content, not its path.
func TestLearnedEvaluationInBots(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	g, err := variants.Load("stacktics/size2", nil)
	if err != nil {
		t.Fatal(err)
	}
	game, err := g.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	f := game.(games.Featurer)
	var names []string
	for _, x := range f.Features() {
		names = append(names, x.Name)
	}
	write := func(name string, rules any) string {
		raw, _ := json.Marshal(rules)
		m := &model.Model{Schema: model.Schema, Game: "stacktics", RulesHash: model.RulesHash("stacktics", rules), Rules: raw, Features: names, Weights: f.HandWeights(), HandScale: 1}
		var b bytes.Buffer
		if err := m.Write(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	same := write("hand.json", g.Rules)
	copyPath := filepath.Join(dir, "copy.json")
	b, _ := os.ReadFile(same)
	_ = os.WriteFile(copyPath, b, 0o644)
	other := write("other.json", "other rules")
	base := []string{"run", "size2", "--games", "12", "--quiet", "--format", "json", "--set", "players.0={bot: alphabeta, nodes: 300}", "--set", "players.1={bot: alphabeta, nodes: 300}"}
	summary := func(extra ...string) map[string]any {
		code, out, errOut := run(t, append(slices.Clone(base), extra...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", extra, code, errOut)
		}
		var s map[string]any
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	hand := summary()
	learned := summary("--set", "players.0.eval=learned", "--set", "players.0.model="+same, "--set", "players.1.eval=learned", "--set", "players.1.model="+same)
	for _, key := range []string{"outcomes", "plies", "openings"} {
		if fmt.Sprint(hand[key]) != fmt.Sprint(learned[key]) {
			t.Errorf("%s: the hand heuristic as a model played other games:\n%v\n%v", key, hand[key], learned[key])
		}
	}
	copied := summary("--set", "players.0.eval=learned", "--set", "players.0.model="+copyPath, "--set", "players.1.eval=learned", "--set", "players.1.model="+same)
	if hand["config_hash"] == learned["config_hash"] || copied["config_hash"] != learned["config_hash"] {
		t.Errorf("config hashes: hand %v, learned %v, the same model under another path %v", hand["config_hash"], learned["config_hash"], copied["config_hash"])
	}
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"players.0.eval=learned", "players.0.model=" + other, "players.0.model_strict=true"}, "learned under other rules"},
		{[]string{"players.0.eval=learned"}, "model: is required with eval: learned"},
		{[]string{"players.0.model=" + same}, "model: is read only with eval: learned"},
		{[]string{"players.0.eval=learned", "players.0.model=" + filepath.Join(dir, "none.json")}, "cannot read"},
	} {
		args := slices.Clone(base)
		for _, set := range c.sets {
			args = append(args, "--set", set)
		}
		if code, _, errOut := run(t, args...); code != ExitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.sets, code, errOut, c.want)
		}
	}
	// Without model_strict a model of other rules is used, with a warning
	// naming the knobs that differ.
	summary("--set", "players.0.eval=learned", "--set", "players.0.model="+other)
	nopie, err := variants.Load("stacktics/size2-nopie", nil)
	if err != nil {
		t.Fatal(err)
	}
	nopieModel := write("nopie.json", nopie.Rules)
	warned := summary("--set", "players.0.eval=learned", "--set", "players.0.model="+nopieModel)
	if w := fmt.Sprint(warned["warnings"]); !strings.Contains(w, "model-rules") || !strings.Contains(w, "`pie_rule`: false → true") {
		t.Errorf("a model of other rules went unwarned: %s", w)
	}
	if w := fmt.Sprint(learned["warnings"]); strings.Contains(w, "model-rules") {
		t.Errorf("a model of these rules was warned about: %s", w)
	}

	// greedy rates the position one ply ahead with the model: the hand
	// heuristic as a model plays the hand heuristic's games.
	if h, l := summary("--set", "players.0=greedy", "--set", "players.1=greedy"),
		summary("--set", "players.0={bot: greedy, eval: learned, model: "+same+"}", "--set", "players.1={bot: greedy, eval: learned, model: "+same+"}"); fmt.Sprint(h["outcomes"], h["plies"], h["openings"]) != fmt.Sprint(l["outcomes"], l["plies"], l["openings"]) {
		t.Errorf("greedy: the hand heuristic as a model played other games")
	}

	// mcts judges its cut rollouts with the model's own chance,
	// σ((logit₀ − logit₁)/2), not eval_scale's logistic: the model is
	// used (other games than the hand heuristic's through eval_scale 6).
	mcts := "{bot: mcts, iterations: 100, rollout_cap: 4, eval_scale: 6"
	mctsRun := func(extra string) map[string]any {
		return summary("--set", "players.0="+mcts+extra+"}", "--set", "players.1="+mcts+extra+"}")
	}
	if h, l := mctsRun(""), mctsRun(", eval: learned, model: "+same); fmt.Sprint(h["outcomes"], h["plies"]) == fmt.Sprint(l["outcomes"], l["plies"]) {
		t.Errorf("mcts: a model left its play unchanged")
	}

	// A tournament's --bot loads its model too: the hand heuristic as a
	// model ties its hand twin exactly (mirrored pairs), a model that
	// rates every position alike does not.
	zero := filepath.Join(dir, "zero.json")
	zm := &model.Model{Schema: model.Schema, Game: "stacktics", RulesHash: model.RulesHash("stacktics", g.Rules), Features: names, Weights: make([]float64, len(names)), HandScale: 1}
	var zb bytes.Buffer
	if err := zm.Write(&zb); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zero, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model string
		tie   bool
	}{{same, true}, {zero, false}} {
		code, out, errOut := run(t, "tournament", "size2", "--games", "8", "--quiet", "--format", "json", "--bot", "{bot: alphabeta, nodes: 300}",
			"--bot", "{bot: alphabeta, nodes: 300, eval: learned, model: "+c.model+"}")
		var res struct {
			Pairings []struct {
				Score struct {
					Score float64 `json:"score"`
				} `json:"score"`
			} `json:"pairings"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Pairings) != 1 {
			t.Fatalf("tournament: exit %d, %s%s", code, out, errOut)
		}
		if tie := res.Pairings[0].Score.Score == 0.5; tie != c.tie {
			t.Errorf("%s: the pairing scores %v", filepath.Base(c.model), res.Pairings[0].Score.Score)
		}
	}
}

// TestLearnGenerations (issue 44): --generations plays each generation's
// model with the variant's alphabeta bots, records its head-to-head
// against the generation before and says why it stopped; bots that cannot
// play a model (random) stop at one generation and say so.
func TestLearnGenerations(t *testing.T) {
	testenv.SkipUnderRace(t)
	code, out, errOut := run(t, "learn", "stacktics/size2", "--games", "40", "--generations", "2", "--head-to-head", "20", "--quiet", "--format", "json",
		"--set", "players.0={bot: alphabeta, nodes: 200, noise: 0.5, noise_moves: 10}", "--set", "players.1={bot: alphabeta, nodes: 200, noise: 0.5, noise_moves: 10}")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Training struct {
			Generations []struct {
				HeadToHead *struct {
					Games int `json:"games"`
				} `json:"head_to_head"`
			} `json:"generations"`
			Stopped string `json:"stopped"`
		} `json:"training"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	gens := m.Training.Generations
	if len(gens) == 0 || gens[0].HeadToHead == nil || gens[0].HeadToHead.Games != 20 || m.Training.Stopped == "" {
		t.Errorf("generations %+v, stopped %q", gens, m.Training.Stopped)
	}
	code, out, errOut = run(t, "learn", "stacktics/size2", "--games", "20", "--generations", "3", "--quiet",
		"--set", "players.0=random", "--set", "players.1=random")
	if code != 0 || !strings.Contains(out, "cannot play a learned model") {
		t.Errorf("random bots: exit %d, %s%s", code, out, errOut)
	}
}

// TestPresetModels (issue 44): every model shipped under configs/models
// (and PRESET-linear.json, the logistic base of a preset's network)
// fits its preset (its features, and strictly its rules: a preset whose
// rules changed needs make models again), and model: preset plays it:
// without a warning under the preset's rules, with model-rules under rules
// changed by --set, refused for a variant that is not a preset.
func TestPresetModels(t *testing.T) {
	files, err := filepath.Glob("../configs/models/*/*.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("%d shipped models (%v): run make models", len(files), err)
	}
	// Every preset ships one (make models lists them in MODEL_PRESETS).
	for _, p := range variants.Presets() {
		if !slices.Contains(files, "../configs/models/"+p+".json") {
			t.Errorf("preset %s ships no model: add it to the Makefile's MODEL_PRESETS and run make models", p)
		}
	}
	// make models learns exactly the presets: a file of configs/ that is
	// no preset (a scripted game's) stops it with an error.
	if _, err := exec.LookPath("make"); err != nil {
		t.Log("no make here to read the Makefile's list (make test always has it)")
	} else if dry, err := exec.Command("make", "--no-print-directory", "-n", "-C", "..", "models").Output(); err != nil {
		t.Errorf("make -n models: %v", err)
	} else if loop := regexp.MustCompile(`for p in ([^;]*);`).FindSubmatch(dry); loop == nil || !slices.Equal(strings.Fields(string(loop[1])), variants.Presets()) {
		t.Errorf("make models learns %q, not the presets %v", loop, variants.Presets())
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(f), "../configs/models/"), ".json")
		// PRESET-linear.json is the logistic model a preset's network was
		// fitted on top of (the Makefile's MODEL_KEEP_LINEAR_PRESETS),
		// played as model: preset:PRESET-linear.
		preset, choice := name, "preset"
		if base, ok := strings.CutSuffix(name, "-linear"); ok && slices.Contains(variants.Presets(), base) {
			preset, choice = base, "preset:"+name
			linear, err := model.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			network, err := model.Load("../configs/models/" + base + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if b := network.Base(); linear.Kind != "" || network.Kind == "" || b == nil || !slices.Equal(b.Weights, linear.Weights) || b.HandScale != linear.HandScale {
				t.Errorf("%s is not the logistic base of %s's network (kinds %q and %q)", name, base, linear.Kind, network.Kind)
			}
		}
		cfg, err := variants.Load(preset, []variants.Override{{Path: "players.0.eval", Value: "learned", Origin: "test"},
			{Path: "players.0.model", Value: choice, Origin: "test"}, {Path: "players.0.model_strict", Value: "true", Origin: "test"}})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if mu, ok := cfg.Players[0].Params.(interface{ HasModel() bool }); !ok || !mu.HasModel() {
			t.Errorf("%s: model: %s loaded nothing", name, choice)
		}
	}
	learned := []string{"--set", "players.0.eval=learned", "--set", "players.0.model=preset", "--set", "players.1.eval=learned", "--set", "players.1.model=preset"}
	for _, c := range []struct {
		args []string
		code int
		want string
		warn bool
	}{
		{[]string{"run", "size2"}, 0, "", false},
		{[]string{"run", "size2", "--set", "rules.pie_rule=false"}, 0, "", true},
	} {
		code, out, errOut := run(t, append(append(c.args, "--games", "4", "--quiet", "--format", "json"), learned...)...)
		if code != c.code || strings.Contains(out, "model-rules") != c.warn {
			t.Errorf("%v: exit %d, model-rules warning %v, want %v: %s", c.args, code, strings.Contains(out, "model-rules"), c.warn, errOut)
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "v.yaml")
	if err := os.WriteFile(file, []byte("game: stacktics\nrules: {size: 2}\nplayers: [{bot: alphabeta, nodes: 200, eval: learned, model: preset}, random]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "run", file, "--games", "2", "--quiet"); code != ExitBadInput || !strings.Contains(errOut, "is not one") {
		t.Errorf("model: preset in a file: exit %d, %s", code, errOut)
	}
}
