package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"playtest/runs/runlog"
	"playtest/variants"
)

// studyTournament is a quick three-entrant round robin.
func studyTournament(t *testing.T, games string) (*variants.Config, []Entrant) {
	t.Helper()
	cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "games", Value: games, Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	var entrants []Entrant
	for _, text := range []string{"greedy", "{bot: greedy, epsilon: 0.2}", "random"} {
		s, err := variants.ParseBot("--bot", text)
		if err != nil {
			t.Fatal(err)
		}
		entrants = append(entrants, Entrant{Label: Label(text), Spec: s, Text: text})
	}
	return cfg, entrants
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTournamentAsAStudy (issue 36): a round robin kept in a directory
// gives the result played in memory; played as 3 shards and merged, the
// same; stopped in its second pairing and resumed from the directory
// alone, the same; a fresh tournament over the stopped one is refused.
func TestTournamentAsAStudy(t *testing.T) {
	cfg, entrants := studyTournament(t, "60")
	ctx := context.Background()
	mem, err := Run(ctx, cfg, entrants, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := mustJSON(t, mem)
	dir := t.TempDir()
	kept, err := Run(ctx, cfg, entrants, Options{Workers: 2, Out: filepath.Join(dir, "whole")})
	if err != nil || mustJSON(t, kept) != want {
		t.Fatalf("kept in a directory: %v\n%s\nwant\n%s", err, mustJSON(t, kept), want)
	}

	var shards []string
	for i := range 3 {
		out := filepath.Join(dir, "shard", string(rune('0'+i)))
		res, err := Run(ctx, cfg, entrants, Options{Workers: 1, Out: out, Shard: runlog.Shard{Index: i, Count: 3}})
		if err != nil || res != nil {
			t.Fatalf("shard %d: %v, %v", i, res, err)
		}
		shards = append(shards, out)
	}
	if _, err := Merge(ctx, shards[1:], filepath.Join(dir, "merged")); err == nil || !strings.Contains(err.Error(), "shard 0 of 3 is missing") {
		t.Errorf("a shard missing: %v", err)
	}
	merged, err := Merge(ctx, shards, filepath.Join(dir, "merged"))
	if err != nil || mustJSON(t, merged) != want {
		t.Fatalf("merged: %v\n%s", err, mustJSON(t, merged))
	}

	stopped := filepath.Join(dir, "stopped")
	stop, cancel := context.WithCancel(ctx)
	games := 0
	if _, err := Run(stop, cfg, entrants, Options{Workers: 2, Out: stopped, OnGame: func() {
		if games++; games == 60+17 {
			cancel()
		}
	}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("not stopped: %v", err)
	}
	if _, err := Run(ctx, cfg, entrants, Options{Workers: 2, Out: stopped}); err == nil || !strings.Contains(err.Error(), "holds an unfinished tournament") {
		t.Errorf("a fresh tournament over a stopped one: %v", err)
	}
	resumed, err := Resume(ctx, stopped, Options{Workers: 1})
	if err != nil || mustJSON(t, resumed) != want {
		t.Fatalf("resumed: %v\n%s", err, mustJSON(t, resumed))
	}
}

// TestTournamentGrows: a kept round robin resumed with more games
// (Options.Games) gives the round robin of that many games from the
// start, playing only the new ones; fewer games are refused.
func TestTournamentGrows(t *testing.T) {
	cfg, entrants := studyTournament(t, "60")
	ctx := context.Background()
	mem, err := Run(ctx, cfg, entrants, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	small, _ := studyTournament(t, "20")
	dir := filepath.Join(t.TempDir(), "kept")
	if _, err := Run(ctx, small, entrants, Options{Workers: 2, Out: dir}); err != nil {
		t.Fatal(err)
	}
	played := 0
	grown, err := Resume(ctx, dir, Options{Workers: 1, Games: 60, OnGame: func() { played++ }})
	if err != nil || mustJSON(t, grown) != mustJSON(t, mem) {
		t.Fatalf("grown: %v\n%s\nwant\n%s", err, mustJSON(t, grown), mustJSON(t, mem))
	}
	if played != 3*40 {
		t.Errorf("growing played %d games, want the 120 new ones", played)
	}
	if _, err := Resume(ctx, dir, Options{Games: 40}); err == nil || !strings.Contains(err.Error(), "never loses games") {
		t.Errorf("shrunk: %v", err)
	}
}
