package runlog

import (
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

// TestScanStopsAtAGap logs games 0–4 with game 3 failed, then a game after
// a gap and a torn line: Scan reads 0–4, and with truncate cuts the rest.
func TestScanStopsAtAGap(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 2, 3, 4, 6} {
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
	f.WriteString(`{"index": 5, "de`)
	f.Close()
	var seen []int
	next, err := Scan(dir, 0, 1000, true, nil, func(r *sim.Record) error {
		seen = append(seen, r.Index)
		if (r.Index == 3) != (r.Err != nil) || (r.Err == nil && r.Metrics[0].Value != 0.1*float64(r.Index)) {
			t.Errorf("game %d read back as %+v", r.Index, r)
		}
		return nil
	})
	if err != nil || next != 5 || len(seen) != 5 {
		t.Fatalf("next %d, seen %v, %v", next, seen, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, GamesFile))
	if strings.Count(string(b), "\n") != 4 || !strings.HasSuffix(string(b), "\n") {
		t.Errorf("after the cut games.jsonl is:\n%s", b)
	}
	if next, _ := Scan(dir, 0, 1000, false, nil, func(*sim.Record) error { return nil }); next != 5 {
		t.Errorf("a second scan reaches %d", next)
	}
}
