package skill

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"playtest/runs/runlog"
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
