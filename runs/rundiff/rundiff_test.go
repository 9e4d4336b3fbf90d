package rundiff

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"playtest/reports"
)

func summary(game string, hash string, seed uint64, seat0, n int) *reports.Summary {
	s := &reports.Summary{Game: game, Variant: "v", ConfigHash: hash, Seed: seed, Games: n,
		Rates:   reports.OutcomeRates{Seat0: reports.NewRate(seat0, n), Seat1: reports.NewRate(n-seat0, n), Draw: reports.NewRate(0, n)},
		Stalled: reports.NewRate(0, n)}
	return s
}

func find(t *testing.T, r *Result, metric string) Change {
	t.Helper()
	for _, c := range r.Changes {
		if c.Metric == metric {
			return c
		}
	}
	t.Fatalf("no change for %s in %+v", metric, r.Changes)
	return Change{}
}

func TestCompare(t *testing.T) {
	old := summary("g", "a", 1, 500, 1000)
	cur := summary("g", "b", 2, 560, 1000)
	cur.Metrics = []reports.Metric{{Name: "extra", Kind: "value", Mean: &reports.Mean{N: 1000, Mean: 2, Low: 1.9, High: 2.1}}}
	res, err := Compare("old", old, "new", cur)
	if err != nil {
		t.Fatal(err)
	}
	c := find(t, res, "seat0_wins")
	// Newcombe's hybrid score interval of 0.56 − 0.50 with n = 1000 each:
	// [0.0163, 0.1033] (computed by hand from the Wilson intervals).
	if math.Abs(c.Delta-0.06) > 1e-12 || math.Abs(c.Interval.Low-0.0163) > 5e-4 || math.Abs(c.Interval.High-0.1033) > 5e-4 || !c.Rate {
		t.Errorf("seat0_wins change %+v", c)
	}
	if c.P > 0.01 || c.P < 0.001 || !c.Significant {
		t.Errorf("p %v (adjusted %v), want a significant change", c.P, c.Adjusted)
	}
	if d := find(t, res, "draws"); d.P != 1 || d.Significant {
		t.Errorf("draws did not move: %+v", d)
	}
	if len(res.OnlyNew) != 1 || res.OnlyNew[0] != "extra" {
		t.Errorf("only new %v", res.OnlyNew)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil || !strings.Contains(b.String(), "+6.0 pts [+1.6, +10.3]") || !strings.Contains(b.String(), "Only in the new run: extra.") {
		t.Errorf("text %v:\n%s", err, b.String())
	}
	b.Reset()
	if err := res.WriteMarkdown(&b); err != nil || !strings.Contains(b.String(), `| seat0\_wins | 50.0% \[46.9, 53.1\] | 56.0% \[52.9, 59.0\] |`) {
		t.Errorf("markdown %v:\n%s", err, b.String())
	}
	if _, err := Compare("old", old, "new", summary("h", "b", 2, 1, 10)); err == nil {
		t.Error("two games compared")
	}
	// One game a side (issue 31: "73 [73, 73] → 300 [300, 300] … p <
	// 0.0001, moved: yes"), and an empty shard: too few for a test.
	tiny, _ := Compare("old", summary("g", "a", 1, 1, 1), "new", summary("g", "b", 2, 0, 1))
	empty, _ := Compare("old", old, "new", summary("g", "b", 2, 0, 0))
	for _, r := range []*Result{tiny, empty} {
		for _, c := range r.Changes {
			if !c.TooFew || c.Significant || c.P != 1 {
				t.Errorf("%s from %d and %d games: %+v", c.Metric, c.Old.N, c.New.N, c)
			}
		}
		b.Reset()
		if err := r.WriteText(&b); err != nil || !strings.Contains(b.String(), "too few games") || strings.Contains(b.String(), "yes") {
			t.Errorf("too few games:\n%s", b.String())
		}
	}
	same, _ := Compare("old", old, "new", summary("g", "a", 1, 500, 1000))
	if len(same.Notes) != 1 || !strings.Contains(same.Notes[0], "same configuration") {
		t.Errorf("notes %v", same.Notes)
	}
}

// TestFalseAlarms diffs pairs of runs of one rate drawn from the same
// distribution: with Holm over the builtin figures, a change is flagged in
// about 5% of diffs or fewer, never far more.
func TestFalseAlarms(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(seed uint64) *reports.Summary {
		wins := 0
		for range 400 {
			if rng.Float64() < 0.55 {
				wins++
			}
		}
		return summary("g", "x", seed, wins, 400)
	}
	flagged := 0
	const trials = 2000
	for i := range trials {
		res, err := Compare("a", draw(uint64(2*i)), "b", draw(uint64(2*i+1)))
		if err != nil {
			t.Fatal(err)
		}
		if find(t, res, "seat0_wins").Significant {
			flagged++
		}
	}
	if rate := float64(flagged) / trials; rate > 0.07 {
		t.Errorf("%d of %d diffs of one distribution flagged a change (%.1f%%)", flagged, trials, 100*rate)
	}
}
