package skill

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"playtest/runs/runlog"
	"playtest/sim/bots"
	"playtest/studies/study"
)

func isPending(m *study.Manifest) bool {
	_, ok := pending(m)
	return ok
}

// withoutSeconds is a ladder's JSON without the rungs' seconds, the one
// figure that depends on the machine.
func withoutSeconds(t *testing.T, r *Result) string {
	t.Helper()
	c := *r
	c.Rungs = append([]Rung(nil), r.Rungs...)
	for i := range c.Rungs {
		c.Rungs[i].Seconds = 0
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLadderAsAStudy (issue 36): a fixed ladder kept in a directory gives
// the ladder played in memory; played as 4 shards and merged, the same;
// stopped in its second rung and resumed from the directory alone, the
// same; --resume and --shard are refused for a ladder that is not fixed.
func TestLadderAsAStudy(t *testing.T) {
	cfg := cheap(t, "games=40")
	budgets := []int{16, 64, 256}
	ctx := context.Background()
	mem, err := Run(ctx, cfg, Options{Budgets: budgets, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := withoutSeconds(t, mem)
	dir := t.TempDir()
	kept, err := Run(ctx, cfg, Options{Budgets: budgets, Workers: 2, Out: filepath.Join(dir, "whole")})
	if err != nil || withoutSeconds(t, kept) != want {
		t.Fatalf("kept in a directory: %v\n%s\nwant\n%s", err, withoutSeconds(t, kept), want)
	}

	var shards []string
	for i := range 4 {
		out := filepath.Join(dir, "shard", string(rune('0'+i)))
		res, err := Run(ctx, cfg, Options{Budgets: budgets, Workers: 1, Out: out, Shard: runlog.Shard{Index: i, Count: 4}})
		if err != nil || res != nil {
			t.Fatalf("shard %d: %v, %v", i, res, err)
		}
		shards = append(shards, out)
	}
	merged, err := Merge(ctx, shards, filepath.Join(dir, "merged"))
	if err != nil || withoutSeconds(t, merged) != want {
		t.Fatalf("merged: %v\n%s", err, withoutSeconds(t, merged))
	}

	stopped := filepath.Join(dir, "stopped")
	stop, cancel := context.WithCancel(ctx)
	games := 0
	if _, err := Run(stop, cfg, Options{Budgets: budgets, Workers: 2, Out: stopped, OnGame: func() {
		if games++; games == 40+40+13 {
			cancel()
		}
	}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("not stopped: %v", err)
	}
	resumed, err := Resume(ctx, stopped, Options{Workers: 1})
	if err != nil || withoutSeconds(t, resumed) != want {
		t.Fatalf("resumed: %v\n%s", err, withoutSeconds(t, resumed))
	}

	// Killed before its first run, in the proof behind its opening book
	// (issue 53): the ladder has recorded itself, and a resume plays it
	// whole.
	early := filepath.Join(dir, "early")
	if err := recordPending(cfg, Options{Budgets: budgets, Out: early}); err != nil {
		t.Fatal(err)
	}
	if m, err := study.Read(early); err != nil || !isPending(m) {
		t.Fatalf("no pending record: %v", err)
	}
	resumed, err = Resume(ctx, early, Options{Workers: 2})
	if err != nil || withoutSeconds(t, resumed) != want {
		t.Fatalf("resumed before its first run: %v\n%s", err, withoutSeconds(t, resumed))
	}

	for _, opts := range []Options{
		{Out: dir, Resume: true},
		{Budgets: budgets, UntilSettled: true, Out: dir, Shard: runlog.Shard{Index: 0, Count: 2}},
	} {
		if err := Validate(cfg, opts); err == nil || !strings.Contains(err.Error(), "need a ladder fixed in advance") {
			t.Errorf("%+v: %v", opts, err)
		}
	}
}

// TestLadderGrows: a kept ladder resumed with more games (Options.Games),
// finished or stopped before its first run, gives the ladder of that
// many games from the start, keeping the games its runs played; fewer
// games, or a shard, are refused.
func TestLadderGrows(t *testing.T) {
	budgets := []int{16, 64, 256}
	ctx := context.Background()
	mem, err := Run(ctx, cheap(t, "games=40"), Options{Budgets: budgets, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := withoutSeconds(t, mem)
	dir := t.TempDir()
	small := cheap(t, "games=20")
	kept := filepath.Join(dir, "kept")
	if _, err := Run(ctx, small, Options{Budgets: budgets, Workers: 2, Out: kept}); err != nil {
		t.Fatal(err)
	}
	played := 0
	grown, err := Resume(ctx, kept, Options{Workers: 1, Games: 40, OnGame: func() { played++ }})
	if err != nil || withoutSeconds(t, grown) != want {
		t.Fatalf("grown: %v\n%s\nwant\n%s", err, withoutSeconds(t, grown), want)
	}
	if played != 5*20 {
		t.Errorf("growing played %d games, want the 100 new ones", played)
	}
	if _, err := Resume(ctx, kept, Options{Games: 30}); err == nil || !strings.Contains(err.Error(), "never loses games") {
		t.Errorf("shrunk: %v", err)
	}
	// Grown again, the command keeps the games first asked and the last
	// growth's, once.
	if _, err := Resume(ctx, kept, Options{Workers: 2, Games: 44}); err != nil {
		t.Fatal(err)
	}
	if m, err := study.Read(kept); err != nil || !strings.HasSuffix(m.Command, " (grown to 44 games)") || strings.Count(m.Command, "grown") != 1 {
		t.Errorf("the command grown twice: %q (%v)", m.Command, err)
	}

	early := filepath.Join(dir, "early")
	if err := recordPending(small, Options{Budgets: budgets, Out: early}); err != nil {
		t.Fatal(err)
	}
	if grown, err = Resume(ctx, early, Options{Workers: 2, Games: 40}); err != nil || withoutSeconds(t, grown) != want {
		t.Fatalf("grown before its first run: %v\n%s", err, withoutSeconds(t, grown))
	}

	shard := filepath.Join(dir, "shard")
	if _, err := Run(ctx, small, Options{Budgets: budgets, Workers: 1, Out: shard, Shard: runlog.Shard{Index: 1, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(ctx, shard, Options{Games: 40}); err == nil || !strings.Contains(err.Error(), "merge the shards first") {
		t.Errorf("a shard grew: %v", err)
	}
}

// TestCompareKept: two ladders kept as studies, one per family, compare
// as RunFamilies compares the same ladders played together; a ladder not
// finished, a shard, or one on other deals is refused.
func TestCompareKept(t *testing.T) {
	ctx := context.Background()
	specs := []string{"{bot: mcts, iterations: 40, rollout_cap: 6, eval_scale: 6}", "{bot: mcts, iterations: 40, rollout_cap: 2, eval_scale: 6}"}
	families := []bots.Spec{family(t, specs[0]), family(t, specs[1])}
	budgets := []int{16, 64}
	together, err := RunFamilies(ctx, cheap(t), families, Options{Budgets: budgets, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var dirs []string
	for i, spec := range specs {
		out := filepath.Join(dir, string(rune('a'+i)))
		if _, err := Run(ctx, cheap(t, "players.0="+spec, "players.1="+spec), Options{Budgets: budgets, Workers: 1, Out: out}); err != nil {
			t.Fatal(err)
		}
		if err := study.FinishDir(out); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, out)
	}
	kept, err := CompareKept(dirs, DefaultTolerance)
	if err != nil {
		t.Fatal(err)
	}
	if kept.Text != together.Text || kept.Agreement != together.Agreement || *kept.Shift != *together.Shift || kept.Names[1] != "mcts (family 2)" {
		t.Errorf("kept: %s %+v\ntogether: %s %+v", kept.Text, kept.Shift, together.Text, together.Shift)
	}

	other := filepath.Join(dir, "seed")
	if _, err := Run(ctx, cheap(t, "seed=7"), Options{Budgets: budgets, Workers: 2, Out: other}); err != nil {
		t.Fatal(err)
	}
	if err := study.FinishDir(other); err != nil {
		t.Fatal(err)
	}
	if _, err := CompareKept([]string{dirs[0], other}, 0); err == nil || !strings.Contains(err.Error(), "do not play the same deals") {
		t.Errorf("other seeds: %v", err)
	}
	shard := filepath.Join(dir, "shard")
	if _, err := Run(ctx, cheap(t), Options{Budgets: budgets, Workers: 1, Out: shard, Shard: runlog.Shard{Index: 0, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	stopped := filepath.Join(dir, "stopped")
	stop, cancel := context.WithCancel(ctx)
	games := 0
	if _, err := Run(stop, cheap(t), Options{Budgets: budgets, Workers: 1, Out: stopped, OnGame: func() {
		if games++; games == 5 {
			cancel()
		}
	}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("not stopped: %v", err)
	}
	for _, tt := range []struct{ dir, want string }{{shard, "assemble the shards"}, {stopped, "not finished"}, {dir, "no study.json"}} {
		if _, err := CompareKept([]string{dirs[0], tt.dir}, 0); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.dir, err, tt.want)
		}
	}
	if _, err := CompareKept(dirs[:1], 0); err == nil {
		t.Error("one ladder compared")
	}
	if _, err := CompareKept([]string{dirs[0], filepath.Join(dirs[0], ".")}, 0); err == nil || !strings.Contains(err.Error(), "the same ladder") {
		t.Errorf("a ladder against itself: %v", err)
	}

	// A family's ladder of fewer games compares over its games, the first
	// of the other's; grown, it compares as the ladder of those games from
	// the start.
	fewer := filepath.Join(dir, "fewer")
	if _, err := Run(ctx, cheap(t, "games=10", "players.0="+specs[1], "players.1="+specs[1]), Options{Budgets: budgets, Workers: 1, Out: fewer}); err != nil {
		t.Fatal(err)
	}
	if err := study.FinishDir(fewer); err != nil {
		t.Fatal(err)
	}
	if f, err := CompareKept([]string{dirs[0], fewer}, 0); err != nil || f.Common != 10 || f.Shift == nil || f.Shift.Deals > 5 ||
		!strings.Contains(f.Text, "each top rung read over its first 10 games, the deals both ladders play") {
		t.Errorf("fewer games: %v\n%+v", err, f)
	}
	if _, err := Resume(ctx, fewer, Options{Workers: 2, Games: 20}); err != nil {
		t.Fatal(err)
	}
	if err := study.FinishDir(fewer); err != nil {
		t.Fatal(err)
	}
	if grown, err := CompareKept([]string{dirs[0], fewer}, DefaultTolerance); err != nil || grown.Text != kept.Text || grown.Common != 0 {
		t.Errorf("grown: %v\n%v\nwant\n%s", err, grown, kept.Text)
	}
}

// TestLadderClimbs: a kept ladder resumed with higher budgets
// (Options.Budgets) plays only the new rungs' runs and gives the ladder
// of all those budgets from the start, its study the same; with more
// games too, and from a ladder stopped before its first run. Budgets
// that do not begin with the kept ones, rungs too close, or a shard are
// refused.
func TestLadderClimbs(t *testing.T) {
	ctx := context.Background()
	cfg := cheap(t, "games=40")
	low, high := []int{16, 64}, []int{16, 64, 256}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	fresh, err := Run(ctx, cfg, Options{Budgets: high, Workers: 2, Out: whole})
	if err != nil {
		t.Fatal(err)
	}
	want := withoutSeconds(t, fresh)
	kept := filepath.Join(dir, "kept")
	if _, err := Run(ctx, cfg, Options{Budgets: low, Workers: 2, Out: kept, Command: "playtest skill --budgets=16,64 --out=kept"}); err != nil {
		t.Fatal(err)
	}
	played := 0
	climbed, err := Resume(ctx, kept, Options{Workers: 1, Budgets: high, OnGame: func() { played++ }})
	if err != nil || withoutSeconds(t, climbed) != want {
		t.Fatalf("climbed: %v\n%s\nwant\n%s", err, withoutSeconds(t, climbed), want)
	}
	if played != 2*40 {
		t.Errorf("climbing played %d games, want the new rung's 80", played)
	}
	a, errA := study.Read(kept)
	b, errB := study.Read(whole)
	if errA != nil || errB != nil || a.Identity() != b.Identity() || a.Command != "playtest skill --budgets=16,64,256 --out=kept" {
		t.Errorf("the climbed study is not the whole one: %v %v %q", errA, errB, a.Command)
	}
	// The same budgets again: nothing to climb, nothing played.
	played = 0
	if again, err := Resume(ctx, kept, Options{Workers: 2, Budgets: high, OnGame: func() { played++ }}); err != nil || withoutSeconds(t, again) != want || played != 0 {
		t.Errorf("resumed at its own budgets: %v, %d games played", err, played)
	}

	// Climbing and growing at once, from a ladder stopped before its first
	// run and from a finished one.
	bigger, err := Run(ctx, cheap(t, "games=44"), Options{Budgets: high, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	early := filepath.Join(dir, "early")
	if err := recordPending(cfg, Options{Budgets: low, Out: early}); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if _, err := Run(ctx, cfg, Options{Budgets: low, Workers: 2, Out: small}); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{early, small} {
		if got, err := Resume(ctx, out, Options{Workers: 2, Budgets: high, Games: 44}); err != nil || withoutSeconds(t, got) != withoutSeconds(t, bigger) {
			t.Errorf("%s climbed and grown: %v", filepath.Base(out), err)
		}
	}

	for _, tt := range []struct {
		budgets []int
		want    string
	}{
		{[]int{16, 128, 512}, "climbs only at the top"},
		{[]int{64, 256}, "climbs only at the top"},
		{[]int{16}, "climbs only at the top"},
		{[]int{16, 64, 256, 400}, "at least 2 times apart"},
	} {
		if _, err := Resume(ctx, kept, Options{Budgets: tt.budgets}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.budgets, err, tt.want)
		}
	}
	shard := filepath.Join(dir, "shard")
	if _, err := Run(ctx, cfg, Options{Budgets: low, Workers: 1, Out: shard, Shard: runlog.Shard{Index: 1, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(ctx, shard, Options{Budgets: high}); err == nil || !strings.Contains(err.Error(), "merge the shards first") {
		t.Errorf("a shard climbed: %v", err)
	}
}

func TestClimbedCommand(t *testing.T) {
	for _, tt := range []struct{ command, want string }{
		{"playtest skill x --budgets=1,4 --games=40", "playtest skill x --budgets=1,4,16 --games=40"},
		{"playtest skill x --budgets=1,4 --games=40 (grown to 80 games)", "playtest skill x --budgets=1,4,16 --games=40 (grown to 80 games)"},
		{"playtest skill x", "playtest skill x (climbed to --budgets=1,4,16)"},
		{"", ""},
	} {
		if got := climbedCommand(tt.command, []int{1, 4, 16}); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.command, got, tt.want)
		}
	}
}
