package compare

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"regexp"
	"testing"

	"playtest/runs/runlog"
	"playtest/variants"
)

// withoutTiming is a comparison's JSON without its summaries' timing.
func withoutTiming(t *testing.T, r *Result) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`"timing":\{[^}]*\}`).ReplaceAllString(string(b), "")
}

// TestComparisonAsAStudy (issue 36): a comparison kept in a directory
// gives the comparison played in memory; played as 3 shards and merged,
// the same; stopped while B plays and resumed from the directory alone,
// the same.
func TestComparisonAsAStudy(t *testing.T) {
	greedy := []variants.Override{{Path: "players.0", Value: "greedy", Origin: "test"}, {Path: "players.1", Value: "{bot: greedy, epsilon: 0.2}", Origin: "test"}}
	pair := func() (*variants.Config, *variants.Config, Options) {
		a := load(t, "stacktics/size2", 120, 4, greedy...)
		b := load(t, "stacktics/size2-nopie", 80, 9, greedy...) // B plays A's games and seed
		opts := Options{Workers: 2}
		if err := Prepare(a, b, &opts); err != nil {
			t.Fatal(err)
		}
		return a, b, opts
	}
	ctx := context.Background()
	a, b, opts := pair()
	mem, err := Run(ctx, a, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := withoutTiming(t, mem)
	dir := t.TempDir()
	opts.Out = filepath.Join(dir, "whole")
	kept, err := Run(ctx, a, b, opts)
	if err != nil || withoutTiming(t, kept) != want {
		t.Fatalf("kept in a directory: %v\n%s\nwant\n%s", err, withoutTiming(t, kept), want)
	}

	var shards []string
	for i := range 3 {
		a, b, opts := pair()
		opts.Out, opts.Shard = filepath.Join(dir, "shard", string(rune('0'+i))), runlog.Shard{Index: i, Count: 3}
		if res, err := Run(ctx, a, b, opts); err != nil || res != nil {
			t.Fatalf("shard %d: %v, %v", i, res, err)
		}
		shards = append(shards, opts.Out)
	}
	merged, err := Merge(ctx, shards, filepath.Join(dir, "merged"))
	if err != nil || withoutTiming(t, merged) != want {
		t.Fatalf("merged: %v\n%s", err, withoutTiming(t, merged))
	}

	a, b, opts = pair()
	opts.Out = filepath.Join(dir, "stopped")
	stop, cancel := context.WithCancel(ctx)
	opts.OnGame = func(games int, _ *Standing) {
		if games == 30 {
			cancel()
		}
	}
	if _, err := Run(stop, a, b, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("not stopped: %v", err)
	}
	resumed, err := Resume(ctx, opts.Out, Options{Workers: 1})
	if err != nil || withoutTiming(t, resumed) != want {
		t.Fatalf("resumed: %v\n%s", err, withoutTiming(t, resumed))
	}
}
