package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/runs/runlog"
	"playtest/studies/study"
)

// studySweep writes a two-variant sweep of quick games and prepares it.
func studySweep(t *testing.T, dir string, games string) (*Sweep, Options) {
	t.Helper()
	write(t, dir, "a.yaml", "game: stacktics\nrules: {size: 2}\nplayers: [greedy, {bot: greedy, epsilon: 0.3}]\ngames: "+games+"\n")
	s, err := Load(write(t, dir, "s.yaml", "name: two\nbase: a.yaml\naxes:\n  - {key: rules.pie_rule, values: [true, false]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return s, Options{Workers: 2}
}

// runSweep plays the sweep into out with opts and writes its results.
func runSweep(t *testing.T, s *Sweep, opts Options) *Result {
	t.Helper()
	cfgs, points, err := Prepare(s, nil, &opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), s, cfgs, points, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res != nil && opts.Out != "" {
		if err := res.WriteDir(opts.Out); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

// TestShardsMergeIntoTheSweep (issue 36): a sweep played as 3 shards and
// merged writes the sweep.json one process writes, byte for byte, and
// each variant's summary the same apart from timing; the merged study is
// finished; and merge refuses missing, repeated, unfinished and foreign
// shards without touching anything.
func TestShardsMergeIntoTheSweep(t *testing.T) {
	dir := t.TempDir()
	s, opts := studySweep(t, dir, "41")
	whole := opts
	whole.Out = filepath.Join(dir, "whole")
	runSweep(t, s, whole)
	var shards []string
	for i := range 3 {
		o := opts
		o.Out, o.Shard = filepath.Join(dir, "shard", string(rune('0'+i))), runlog.Shard{Index: i, Count: 3}
		if res := runSweep(t, s, o); res != nil {
			t.Fatal("a shard returned a sweep result")
		}
		shards = append(shards, o.Out)
	}
	if _, err := os.Stat(filepath.Join(shards[0], JSONFile)); err == nil {
		t.Error("a shard wrote sweep.json")
	}

	refused := func(name string, dirs []string, want string) {
		t.Helper()
		out := filepath.Join(dir, "refused-"+name)
		_, err := Merge(context.Background(), dirs, out)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", name, out)
		}
	}
	refused("missing", shards[:2], "shard 2 of 3 is missing")
	refused("repeated", []string{shards[0], shards[1], shards[1]}, "are both shard 1 of 3")
	refused("whole and shard", []string{whole.Out, shards[1]}, "must split the study the same way")
	other, _ := studySweep(t, filepath.Join(dir), "40")
	o := opts
	o.Out, o.Shard = filepath.Join(dir, "other"), runlog.Shard{Index: 2, Count: 3}
	runSweep(t, other, o)
	refused("foreign", []string{shards[0], shards[1], o.Out}, "must come from one study")
	m, err := study.Read(shards[2])
	if err != nil {
		t.Fatal(err)
	}
	m.Finished = false
	m.Write(shards[2])
	refused("unfinished", shards, "is unfinished: continue it with playtest sweep --resume --out")
	study.Finish(shards[2], m)

	merged := filepath.Join(dir, "merged")
	if _, err := Merge(context.Background(), shards, merged); err != nil {
		t.Fatal(err)
	}
	same := func(a, b string) {
		t.Helper()
		x, _ := os.ReadFile(a)
		y, err := os.ReadFile(b)
		if err != nil || string(x) != string(y) || len(x) == 0 {
			t.Errorf("%s and %s differ (%v)", a, b, err)
		}
	}
	same(filepath.Join(whole.Out, JSONFile), filepath.Join(merged, JSONFile))
	same(filepath.Join(whole.Out, CSVFile), filepath.Join(merged, CSVFile))
	for _, u := range m.Units {
		a, _ := os.ReadFile(filepath.Join(whole.Out, u.Dir, "summary.json"))
		b, _ := os.ReadFile(filepath.Join(merged, u.Dir, "summary.json"))
		if withoutTiming(a) != withoutTiming(b) || len(a) == 0 {
			t.Errorf("%s: the merged summary differs from one process's", u.Name)
		}
	}
	if m, err := study.Read(merged); err != nil || !m.Finished || m.Shard.Count != 0 {
		t.Errorf("the merged study: %+v, %v", m, err)
	}
}

// TestSweepResumesFromItsDirectory (issue 36): a sweep stopped in its
// second variant, resumed with its arguments and stopped again, continues
// from --out alone (no sweep file: it is removed) to the sweep.json an
// uninterrupted sweep writes; a fresh sweep
// into the stopped one's directory is refused, and so is a resume of
// another sweep there.
func TestSweepResumesFromItsDirectory(t *testing.T) {
	dir := t.TempDir()
	s, opts := studySweep(t, dir, "60")
	whole := opts
	whole.Out = filepath.Join(dir, "whole")
	runSweep(t, s, whole)

	stopped := opts
	stopped.Out = filepath.Join(dir, "stopped")
	cfgs, points, err := Prepare(s, nil, &stopped)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	games := 0
	stopped.OnGame = func() {
		if games++; games == 60+25 {
			cancel()
		}
	}
	if _, err := Run(ctx, s, cfgs, points, stopped); !errors.Is(err, context.Canceled) {
		t.Fatalf("not stopped: %v", err)
	}
	if _, err := Run(context.Background(), s, cfgs, points, Options{Workers: 2, Out: stopped.Out}); err == nil || !strings.Contains(err.Error(), "holds an unfinished sweep") {
		t.Errorf("a fresh sweep over a stopped one: %v", err)
	}
	other, _ := studySweep(t, filepath.Join(dir), "50")
	ocfgs, opoints, _ := Prepare(other, nil, &Options{})
	if _, err := Run(context.Background(), other, ocfgs, opoints, Options{Workers: 2, Out: stopped.Out, Resume: true}); err == nil || !strings.Contains(err.Error(), "not this one") {
		t.Errorf("resuming another sweep: %v", err)
	}
	// Resumed with the sweep's own arguments, and stopped again.
	ctx, cancel = context.WithCancel(context.Background())
	games = 0
	again := stopped
	again.Resume, again.OnGame = true, func() {
		if games++; games == 20 {
			cancel()
		}
	}
	if _, err := Run(ctx, s, cfgs, points, again); !errors.Is(err, context.Canceled) || games < 20 {
		t.Fatalf("the resume with the sweep's arguments: %v after %d games", err, games)
	}
	// Then from the directory alone.
	os.Remove(filepath.Join(dir, "s.yaml"))
	os.Remove(filepath.Join(dir, "a.yaml"))
	res, err := Resume(context.Background(), stopped.Out, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.WriteDir(stopped.Out); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(whole.Out, JSONFile))
	b, _ := os.ReadFile(filepath.Join(stopped.Out, JSONFile))
	if string(a) != string(b) || len(a) == 0 {
		t.Errorf("the resumed sweep differs from the uninterrupted one:\n%s\n%s", b, a)
	}
	if m, err := study.Read(stopped.Out); err != nil || !m.Finished {
		t.Errorf("the resumed study is not finished: %v", err)
	}
}

// withoutTiming drops a summary's timing block.
func withoutTiming(b []byte) string {
	s := string(b)
	if i := strings.Index(s, `"timing"`); i >= 0 {
		if j := strings.Index(s[i:], "}"); j >= 0 {
			return s[:i] + s[i+j+1:]
		}
	}
	return s
}
