package runlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/games"
	"playtest/sim"
)

func TestParseShard(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	for _, c := range []struct {
		text string
		env  map[string]string
		want Shard
		err  string
	}{
		{"2/8", nil, Shard{2, 8}, ""},
		{"8", map[string]string{"JOB_COMPLETION_INDEX": "5", "SLURM_ARRAY_TASK_ID": "1"}, Shard{5, 8}, ""},
		{"8", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, Shard{3, 8}, ""},
		{"8", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1"}, Shard{2, 8}, ""},
		{"8", nil, Shard{}, "no shard index"},
		{"8/8", nil, Shard{}, `I "8": want a shard index from 0 to 7`},
		{"8", map[string]string{"JOB_COMPLETION_INDEX": "9"}, Shard{}, `JOB_COMPLETION_INDEX "9"`},
		{"x/0", nil, Shard{}, "want I/N"},
	} {
		env = c.env
		got, err := ParseShard(c.text, get)
		if got != c.want || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q %v: %v %v, want %v %q", c.text, c.env, got, err, c.want, c.err)
		}
	}
}

func TestShardRanges(t *testing.T) {
	for _, c := range []struct {
		games, count int
		pairs        bool
	}{{61, 3, true}, {10, 4, false}, {7, 8, true}, {1000, 7, true}} {
		next := 0
		for i := range c.count {
			from, to := Shard{i, c.count}.Range(c.games, c.pairs)
			if from != next || to < from || (c.pairs && from%2 != 0) {
				t.Errorf("%+v shard %d: [%d, %d) after %d", c, i, from, to, next)
			}
			next = to
		}
		if next != c.games {
			t.Errorf("%+v: shards end at %d", c, next)
		}
	}
}

// writeLog logs games with the given indices (game 3 failed) to dir and
// appends tail to games.jsonl.
func writeLog(t testing.TB, dir string, indices []int, tail string) {
	t.Helper()
	w, err := OpenWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range indices {
		r := &sim.Record{Index: i, Result: games.Result{Winner: games.Seat1, Reason: "x"}, Plies: i,
			Metrics: []games.Metric{games.Value("m", 0.1*float64(i))}}
		if i == 3 {
			r.Err = &sim.GameError{Index: 3, Message: "boom", Moves: []string{"a"}}
		}
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	f, _ := os.OpenFile(filepath.Join(dir, GamesFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(tail)
	f.Close()
}

// TestResumeCutsOnlyATornLastLine: ScanTorn reports a torn last line
// (and says what it is), reading every game before it and changing
// nothing; Cut then drops that line alone.
func TestResumeCutsOnlyATornLastLine(t *testing.T) {
	for _, tail := range []string{`{"index": 5, "de`, "{\"index\": 5, \"winner\": 9}\n", "\x00\x00\x00"} {
		dir := t.TempDir()
		writeLog(t, dir, []int{0, 1, 2, 3, 4}, tail)
		before, _ := os.ReadFile(filepath.Join(dir, GamesFile))
		valid := func(r *sim.Record) error {
			if r.Result.Winner > 1 {
				return fmt.Errorf("winner %d", r.Result.Winner)
			}
			return nil
		}
		if next, err := Scan(dir, 0, 1000, valid, func(*sim.Record) error { return nil }); err != nil || next != 5 {
			t.Errorf("%q: Scan reaches %d, %v", tail, next, err)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, GamesFile)); string(after) != string(before) {
			t.Errorf("%q: Scan changed the log", tail)
		}
		var seen []int
		next, torn, err := ScanTorn(dir, 0, 1000, valid, func(r *sim.Record) error {
			seen = append(seen, r.Index)
			if (r.Index == 3) != (r.Err != nil) || (r.Err == nil && r.Metrics[0].Value != 0.1*float64(r.Index)) {
				t.Errorf("game %d read back as %+v", r.Index, r)
			}
			return nil
		})
		if err != nil || next != 5 || len(seen) != 5 || len(torn) != 1 || torn[0].Line != 5 || !strings.Contains(torn[0].String(), "dropped its torn last line (line 5") {
			t.Fatalf("%q: next %d, seen %v, torn %v, %v", tail, next, seen, torn, err)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, GamesFile)); string(after) != string(before) {
			t.Errorf("%q: ScanTorn changed the log", tail)
		}
		if err := torn[0].Cut(); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, GamesFile))
		if strings.Count(string(b), "\n") != 4 || !strings.HasSuffix(string(b), "\n") {
			t.Errorf("%q: after the cut games.jsonl is:\n%s", tail, b)
		}
		if next, torn, err := ScanTorn(dir, 0, 1000, valid, func(*sim.Record) error { return nil }); next != 5 || torn != nil || err != nil {
			t.Errorf("%q: a second resume reaches %d, %v, %v", tail, next, torn, err)
		}
	}
}

// TestDamageIsRefusedNotCut: a damaged line before the last, a game
// missing while later ones follow, a game twice and a game past the run
// are refused by ScanTorn with the file and line, and the log is
// left as it was (issue 31: resume cut 199,997 good lines after a
// damaged third line).
func TestDamageIsRefusedNotCut(t *testing.T) {
	for _, c := range []struct {
		name    string
		indices []int
		tail    string
		to      int
		line    int
		want    string
	}{
		{"a damaged line", []int{0, 1}, "garbage\n", 1000, 3, "undecodable"},
		{"a gap", []int{0, 1, 2, 3, 4, 6}, "", 1000, 5, "game 6, but game 5 before it is in neither"},
		{"a repeat", []int{0, 1, 2, 2, 3, 4}, "", 1000, 4, "game 2 a second time"},
		{"past the run", []int{0, 1, 2, 3, 4, 5}, "", 5, 5, "game 5, outside the directory's games [0, 5)"},
	} {
		dir := t.TempDir()
		writeLog(t, dir, c.indices, c.tail)
		if c.name == "a damaged line" {
			writeLog(t, dir, []int{2, 3, 4}, "")
		}
		before, _ := os.ReadFile(filepath.Join(dir, GamesFile))
		_, torn, err := ScanTorn(dir, 0, c.to, nil, func(*sim.Record) error { return nil })
		var corrupt *CorruptError
		if !errors.As(err, &corrupt) || corrupt.Line != c.line || !strings.Contains(err.Error(), c.want) || torn != nil {
			t.Errorf("%s: %v, want line %d: %s", c.name, err, c.line, c.want)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, GamesFile)); string(after) != string(before) {
			t.Errorf("%s: the log was changed", c.name)
		}
	}
}

// TestManifestFieldsMustAgree: a manifest whose range, shard, records or
// hash cannot describe its run is refused as read (issue 31: a resume
// with from and to swapped emptied the log, then failed).
func TestManifestFieldsMustAgree(t *testing.T) {
	good := Manifest{Schema: SchemaV1, Games: 400, Pairs: true, From: 0, To: 400, Records: RecordsSummary,
		ConfigHash: "sha256:" + strings.Repeat("ab", 32)}
	for _, c := range []struct {
		name   string
		change func(*Manifest)
		want   string
	}{
		{"good", func(*Manifest) {}, ""},
		{"a good shard", func(m *Manifest) { m.Shard, m.From, m.To = Shard{1, 4}, 100, 200 }, ""},
		{"from and to swapped", func(m *Manifest) { m.From, m.To = 400, 0 }, "games [400, 0), but the whole of a 400-game run plays games [0, 400)"},
		{"to negative", func(m *Manifest) { m.To = -5 }, "games [0, -5)"},
		{"from moved", func(m *Manifest) { m.From = 30 }, "games [30, 400)"},
		{"a shard's range", func(m *Manifest) { m.Shard, m.From, m.To = Shard{1, 4}, 0, 400 }, "shard 1 of 4 of a 400-game run plays games [100, 200)"},
		{"shard index past count", func(m *Manifest) { m.Shard = Shard{4, 4} }, "shard 4 of 4"},
		{"shard index without count", func(m *Manifest) { m.Shard = Shard{2, 0} }, "shard 2 of 0"},
		{"no games", func(m *Manifest) { m.Games, m.To = 0, 0 }, "games 0"},
		{"records", func(m *Manifest) { m.Records = "all" }, `records "all"`},
		{"hash", func(m *Manifest) { m.ConfigHash = "x" }, `config_hash "x"`},
		{"grown", func(m *Manifest) { m.Extends = []string{"0123456789abcdef", "fedcba9876543210"} }, ""},
		{"grown from no run", func(m *Manifest) { m.Extends = []string{""} }, `extends ""`},
		{"grown from a bad run", func(m *Manifest) { m.Extends = []string{"../x"} }, `extends "../x"`},
	} {
		dir := t.TempDir()
		m := good
		c.change(&m)
		if err := m.Write(dir); err != nil {
			t.Fatal(err)
		}
		_, err := ReadManifest(dir)
		var me *ManifestError
		if c.want == "" && err != nil || c.want != "" && (!errors.As(err, &me) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestLockRefusesLinks: a .lock that is a symbolic link or a hard link is
// refused, and what it points to is left alone (issue 31: the pid was
// written over the link's target); so are links in place of the log.
func TestLockRefusesLinks(t *testing.T) {
	for _, link := range []func(target, path string) error{os.Symlink, os.Link} {
		dir := t.TempDir()
		victim := filepath.Join(t.TempDir(), "victim.txt")
		os.WriteFile(victim, []byte("keep me\n"), 0o644)
		if err := link(victim, filepath.Join(dir, LockFile)); err != nil {
			t.Fatal(err)
		}
		_, err := Lock(dir)
		var le *LinkError
		if !errors.As(err, &le) {
			t.Errorf("a linked .lock: %v", err)
		}
		os.Remove(filepath.Join(dir, LockFile))
		if err := link(victim, filepath.Join(dir, GamesFile)); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenWriter(dir); !errors.As(err, &le) {
			t.Errorf("a linked games.jsonl: %v", err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
			t.Errorf("the link's target now holds %q", b)
		}
	}
	dir := t.TempDir()
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatalf("a plain directory: %v", err)
	}
	unlock()
}

// FuzzScanLog reads fuzzed logs (issue 31): ScanTorn never panics and never
// changes the file; what it refuses is a *CorruptError (bad input, exit 2);
// what it accepts, with its torn last line cut, reads back to the same game
// with nothing torn.
func FuzzScanLog(f *testing.F) {
	dir := f.TempDir()
	writeLog(f, dir, []int{0, 1, 2, 3, 4}, "")
	good, _ := os.ReadFile(filepath.Join(dir, GamesFile))
	f.Add(good)
	f.Add(good[:len(good)-9])
	f.Add(bytes.Replace(good, []byte(`"index":2`), []byte(`"index":7`), 1))
	f.Add(append(bytes.Clone(good), good...))
	f.Add([]byte("\n\n{}\n"))
	valid := func(r *sim.Record) error {
		if r.Result.Winner > 1 || r.Plies < 0 {
			return fmt.Errorf("impossible")
		}
		return nil
	}
	f.Fuzz(func(t *testing.T, log []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, GamesFile)
		os.WriteFile(path, log, 0o644)
		next, torn, err := ScanTorn(dir, 0, 50, valid, func(*sim.Record) error { return nil })
		if b, _ := os.ReadFile(path); !bytes.Equal(b, log) {
			t.Fatal("ScanTorn changed the log")
		}
		if err != nil {
			var corrupt *CorruptError
			if !errors.As(err, &corrupt) || !corrupt.BadInput() {
				t.Fatalf("refused, but not as a damaged log: %v", err)
			}
			return
		}
		for _, tl := range torn {
			if err := tl.Cut(); err != nil {
				t.Fatal(err)
			}
		}
		again, torn, err := ScanTorn(dir, 0, 50, valid, func(*sim.Record) error { return nil })
		if again != next || torn != nil || err != nil {
			t.Fatalf("after the cut: game %d (was %d), torn %v, %v", again, next, torn, err)
		}
	})
}

// FuzzReadManifest reads fuzzed manifests (issue 31): never a panic, and
// one it accepts plays the games its shard gives, so a resume cannot be
// sent past the run's games.
func FuzzReadManifest(f *testing.F) {
	good := Manifest{Schema: SchemaV1, Games: 400, Pairs: true, From: 100, To: 200, Shard: Shard{1, 4}, Records: RecordsSummary,
		ConfigHash: "sha256:" + strings.Repeat("ab", 32), Recipe: Recipe{Source: "preset stacktics/size2", DefaultName: "stacktics/size2", Text: "game: stacktics\n"}}
	b, _ := json.Marshal(good)
	f.Add(b)
	f.Add(bytes.Replace(b, []byte(`"from":100`), []byte(`"from":-100`), 1))
	f.Add(bytes.Replace(b, []byte(`"count":4`), []byte(`"count":0`), 1))
	f.Fuzz(func(t *testing.T, text []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, ManifestFile), text, 0o644)
		m, err := ReadManifest(dir)
		if err != nil {
			return
		}
		from, to := m.Shard.Range(m.Games, m.Pairs)
		if m.From != from || m.To != to || from < 0 || to > m.Games || from > to {
			t.Fatalf("accepted games [%d, %d) of a %d-game run, %v", m.From, m.To, m.Games, m.Shard)
		}
		_, _ = m.Config() // must not panic
	})
}
