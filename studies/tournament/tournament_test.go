package tournament

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"playtest/runs/runlog"
	"playtest/variants"
)

// TestFitElo checks the Bradley-Terry fit on results worked by hand: 75
// points of 100 (plus the virtual draw: 75.5 of 101) is a score of 0.7475,
// 188.9 Elo, with a standard error of 1/sqrt(101 × 0.7475 × 0.2525) nats.
func TestFitElo(t *testing.T) {
	r := fitElo([][]float64{{0, 25}, {75, 0}}, [][]float64{{0, 100}, {100, 0}})
	want := -400 * math.Log10(101/75.5-1)
	se := 400 / math.Ln10 / math.Sqrt(101*0.7475247524752475*(1-0.7475247524752475))
	if r[0].Elo != 0 || math.Abs(r[1].Elo-want) > 0.01 || math.Abs(r[1].High-r[1].Elo-1.959963984540054*se) > 0.01 {
		t.Errorf("ratings %+v, want %.2f ± %.2f", r, want, 1.96*se)
	}
	// Three equal entrants rate equal; one that wins everything stays finite.
	eq := fitElo([][]float64{{0, 5, 5}, {5, 0, 5}, {5, 5, 0}}, [][]float64{{0, 10, 10}, {10, 0, 10}, {10, 10, 0}})
	for _, x := range eq {
		if math.Abs(x.Elo) > 1e-6 {
			t.Errorf("equal entrants: %+v", eq)
		}
	}
	sweep := fitElo([][]float64{{0, 0}, {20, 0}}, [][]float64{{0, 20}, {20, 0}})
	if math.IsInf(sweep[1].Elo, 0) || math.IsNaN(sweep[1].Elo) || sweep[1].Elo < 400 {
		t.Errorf("a clean sweep: %+v", sweep)
	}
}

func TestRoundRobin(t *testing.T) {
	cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "games", Value: "10", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	var entrants []Entrant
	for _, text := range []string{"random", "greedy", "{bot: alphabeta, nodes: 2000}"} {
		s, err := variants.ParseBot("--bot", text)
		if err != nil {
			t.Fatal(err)
		}
		entrants = append(entrants, Entrant{Label: Label(text), Spec: s})
	}
	games := 0
	res, err := Run(context.Background(), cfg, entrants, Options{Workers: 2, OnGame: func() { games++ }})
	if err != nil {
		t.Fatal(err)
	}
	if games != 30 || res.Schema != SchemaV1 {
		t.Errorf("OnGame told of %d games, want 30; schema %q", games, res.Schema)
	}
	if r := res.Ranking(); r[0] != 2 || r[2] != 0 {
		t.Errorf("ranking %v, want the strongest (#3) first", r)
	}
	if len(res.Pairings) != 3 || res.Pairings[0].Wins+res.Pairings[0].Draws+res.Pairings[0].Losses != 10 {
		t.Fatalf("pairings %+v", res.Pairings)
	}
	if !(res.Ratings[2].Elo > res.Ratings[1].Elo && res.Ratings[1].Elo > res.Ratings[0].Elo) {
		t.Errorf("ratings not in order of strength: %+v", res.Ratings)
	}
	var b bytes.Buffer
	if err := res.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	// greedy and alphabeta without noise always answer alike: their
	// pairing replays a few games and says so; random's games all differ.
	if p := res.Pairings[0].Repetition; p == nil || p.Distinct != 10 {
		t.Errorf("random against greedy: %+v", p)
	}
	for _, want := range []string{"alphabeta, nodes: 2000", "anchor", "vs #3", "warning (repeated-games): #2 vs #3: "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if _, err := Run(context.Background(), cfg, entrants[:1], Options{Workers: 1}); err == nil {
		t.Error("a tournament of one entrant")
	}
	b.Reset()
	if err := res.WriteMarkdown(&b); err != nil || !strings.Contains(b.String(), "| rank | # | entrant | Elo | 95% CI |") ||
		!strings.Contains(b.String(), "| 1 | 3 | alphabeta, nodes: 2000 |") {
		t.Errorf("markdown %v:\n%s", err, b.String())
	}
	odd := *cfg
	odd.Games = 3
	if err := Validate(&odd, entrants); err == nil || !strings.Contains(err.Error(), "even number of games") {
		t.Errorf("3 games per pairing: %v", err)
	}
}

// TestTournamentAccuracy (issue 55): with Accuracy each entrant's
// decisions are judged against perfect play, pooled over its pairings
// (perfect keeps every value; a random bot gives some away), and kept in a
// study's directory a merge judges them alike.
func TestTournamentAccuracy(t *testing.T) {
	cfg, err := variants.Load("connect4/4x4", []variants.Override{{Path: "games", Value: "8", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	var entrants []Entrant
	for _, text := range []string{"perfect", "random", "{bot: alphabeta, nodes: 300}"} {
		s, err := variants.ParseBot("--bot", text)
		if err != nil {
			t.Fatal(err)
		}
		entrants = append(entrants, Entrant{Label: Label(text), Spec: s, Text: text})
	}
	res, err := Run(context.Background(), cfg, entrants, Options{Workers: 2, Accuracy: 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Accuracy) != 3 || res.AccuracyGames != 6 {
		t.Fatalf("accuracy %+v", res.Accuracy)
	}
	if a := res.Accuracy[0]; a.Accuracy != 1 || a.Games != 12 {
		t.Errorf("perfect: %+v", a)
	}
	if a := res.Accuracy[1]; a.Blunders() == 0 || a.Accuracy >= 1 {
		t.Errorf("random: %+v", a)
	}
	var b bytes.Buffer
	if err := res.WriteTable(&b); err != nil || !strings.Contains(b.String(), "accuracy (95% CI)") {
		t.Errorf("%v\n%s", err, b.String())
	}
	var shards []string
	for i := range 2 {
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, entrants, Options{Workers: 2, Accuracy: 6, Out: dir, Shard: runlog.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	merged, err := Merge(context.Background(), shards, filepath.Join(t.TempDir(), "merged"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Accuracy {
		if a, m := res.Accuracy[i], merged.Accuracy[i]; a.Kept != m.Kept || a.Decisions != m.Decisions || a.Interval != m.Interval {
			t.Errorf("entrant %d: merged %+v, one process %+v", i, m, a)
		}
	}
}
