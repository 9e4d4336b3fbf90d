package compare

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"playtest/internal/testenv"
	"playtest/reports"
	"playtest/variants"
)

// load loads a preset with cheap search bots and the given games and seed.
func load(t *testing.T, name string, games, seed int, extra ...variants.Override) *variants.Config {
	t.Helper()
	o := []variants.Override{
		{Path: "players.0", Value: testenv.MCTS(50), Origin: "test"},
		{Path: "players.1", Value: testenv.MCTS(50), Origin: "test"},
		{Path: "games", Value: strconv.Itoa(games), Origin: "test"},
		{Path: "seed", Value: strconv.Itoa(seed), Origin: "test"},
	}
	cfg, err := variants.Load(name, append(o, extra...))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func run(t *testing.T, a, b *variants.Config, opts Options) *Result {
	t.Helper()
	if err := Prepare(a, b, &opts); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), a, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCompareWithItselfFindsNoDifference(t *testing.T) {
	for _, metric := range []string{"seat0_score", "plies", "captures"} {
		a, b := load(t, "stacktics/size2", 60, 3), load(t, "stacktics/size2", 60, 3)
		res := run(t, a, b, Options{Workers: 2, Metric: metric})
		d := res.Diff
		if d.Value != 0 || d.Low != 0 || d.High != 0 || d.N != 30 || res.Games != 60 {
			t.Errorf("%s: A − B = %+v over %d games", metric, d, res.Games)
		}
		if res.A.Summary.Rates != res.B.Summary.Rates || res.A.Mean != res.B.Mean {
			t.Errorf("%s: the same variant on the same seeds gave different results", metric)
		}
	}
}

// plainMCTS turns implicit minimax backups off: at 50 iterations such mcts
// swaps well enough that the pie rule moves seat 0's score by about 20
// points, a difference the tests can count on. (With the default
// implicit: 0.5 the heuristic's judgement of the swap dominates at this
// budget and the two variants score alike.)
var plainMCTS = []variants.Override{
	{Path: "players.0.implicit", Value: "0", Origin: "test"},
	{Path: "players.1.implicit", Value: "0", Origin: "test"},
}

func TestCompareFindsPieRule(t *testing.T) {
	// Without the pie rule seat 0 wins about 60%; with it, about 40%.
	a, b := load(t, "stacktics/size2-nopie", 200, 1, plainMCTS...), load(t, "stacktics/size2", 200, 1, plainMCTS...)
	res := run(t, a, b, Options{Workers: 3})
	if res.Diff.Low <= 0 {
		t.Errorf("nopie − pie seat-0 score: %+v, want an interval above 0", res.Diff)
	}
	var out bytes.Buffer
	if err := res.WriteText(&out); err != nil || !strings.Contains(out.String(), "the interval excludes 0") {
		t.Errorf("%v\n%s", err, out.String())
	}
}

func TestSPRTStopsEarlyOnARealDifference(t *testing.T) {
	h := &Hypotheses{Delta0: 0, Delta1: 0.1, Alpha: 0.05, Beta: 0.05}
	var first *Result
	for _, workers := range []int{1, 4} {
		a, b := load(t, "stacktics/size2-nopie", 2000, 1, plainMCTS...), load(t, "stacktics/size2", 2000, 1, plainMCTS...)
		res := run(t, a, b, Options{Workers: workers, SPRT: h})
		if res.SPRT.Decision != "H1 accepted" || !res.Stopped() || res.Games > 400 {
			t.Fatalf("workers %d: %s after %d of %d games (LLR %.3f)", workers, res.SPRT.Decision, res.Games, res.Requested, res.SPRT.LLR)
		}
		if first == nil {
			first = res
		} else if res.Games != first.Games || res.SPRT.LLR != first.SPRT.LLR {
			t.Errorf("stopped after %d games with 1 worker, %d with 4", first.Games, res.Games)
		}
	}
	t.Logf("H1 accepted after %d of 2000 games, LLR %.3f", first.Games, first.SPRT.LLR)
}

// TestSPRTOnEqualVariants compares a variant with itself: it must never
// accept H1. With H0 at no difference it accepts H0; with hypotheses
// symmetric about 0 the evidence never leans either way and it plays every
// game without stopping.
func TestSPRTOnEqualVariants(t *testing.T) {
	for _, c := range []struct {
		h    Hypotheses
		want string
	}{
		{Hypotheses{Delta0: 0, Delta1: 0.1, Alpha: 0.05, Beta: 0.05}, "H0 accepted"},
		{Hypotheses{Delta0: -0.1, Delta1: 0.1, Alpha: 0.05, Beta: 0.05}, "continue"},
	} {
		for seed := 1; seed <= 3; seed++ {
			a, b := load(t, "stacktics/size2", 300, seed), load(t, "stacktics/size2", 300, seed)
			res := run(t, a, b, Options{Workers: 2, SPRT: &c.h})
			if res.SPRT.Decision != c.want || res.SPRT.LLR > 1e-9 {
				t.Errorf("%+v, seed %d: %s after %d games, LLR %.3f", c.h, seed, res.SPRT.Decision, res.Games, res.SPRT.LLR)
			}
			if c.want == "continue" && res.Games != 300 {
				t.Errorf("symmetric hypotheses stopped after %d games", res.Games)
			}
		}
	}
}

func TestBadComparisons(t *testing.T) {
	a, b := load(t, "stacktics/size2", 10, 1), load(t, "capstone/capstone", 10, 1)
	if err := Prepare(a, b, &Options{}); err == nil || !strings.Contains(err.Error(), "plays stacktics and") {
		t.Errorf("different games: %v", err)
	}
	b = load(t, "stacktics/size2", 10, 1)
	if err := Prepare(a, b, &Options{Metric: "capture"}); err == nil || !strings.Contains(err.Error(), `(did you mean "captures"?)`) {
		t.Errorf("unknown metric: %v", err)
	}
	opts := Options{Metric: "plies", SPRT: &Hypotheses{Delta0: 0, Delta1: 0.1, Alpha: 0.05, Beta: 0.05}}
	if err := Prepare(a, b, &opts); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), a, b, opts); err == nil || !strings.Contains(err.Error(), "needs a score or an event") {
		t.Errorf("SPRT on plies: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{"delta0=0,delta1=0.1", ""},
		{"elo0=0,elo1=10,alpha=0.1,beta=0.1", ""},
		{"delta0=0.1,delta1=0", "want -1 < delta0 < delta1 < 1"},
		{"delta0=0", "want both hypotheses"},
		{"delta0=0,delta1=0.1,gamma=1", `unknown key "gamma"`},
		{"delta0=0,elo1=5", "not both"},
		{"delta0=0,delta1=0.1,alpha=0", "alpha and beta must lie strictly between 0 and 1"},
		{"delta0=x", "want key=number"},
		{"elo0=0,elo1=5,model=normalized", ""},
		{"delta0=0,delta1=0.1,model=normalized", "give elo0 and elo1"},
		{"elo0=0,elo1=5,model=bayesian", `model "bayesian": want logistic or normalized`},
		{"elo0=5,elo1=0,model=normalized", "want elo0 < elo1"},
	} {
		_, err := ParseHypotheses(c.text)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	h, _ := ParseHypotheses("elo0=0,elo1=10")
	if h.Delta0 != 0 || h.Delta1 < 0.0287 || h.Delta1 > 0.0288 || h.Model != ModelLogistic {
		t.Errorf("elo 10 as a difference: %v (want 2·0.51439 − 1 = 0.02878)", h.Delta1)
	}
	// The normalized model on a variant against itself: H0 is accepted
	// (every pair scores ½: t̂ = 0, so the LLR falls by about t1²/2 a pair).
	h, err := ParseHypotheses("elo0=0,elo1=100,model=normalized")
	if err != nil || !h.test().Normalized || h.String() != "H0: nElo = 0 vs H1: nElo = 100 (normalized Elo)" {
		t.Fatalf("%v %+v %q", err, h, h.String())
	}
	same := Options{SPRT: &h}
	a, b = load(t, "stacktics/size2", 200, 1), load(t, "stacktics/size2", 200, 1)
	if err := Prepare(a, b, &same); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), a, b, same)
	if err != nil || res.SPRT.Decision != "H0 accepted" || res.ExitCode() != ExitH0 {
		t.Errorf("normalized SPRT of a variant against itself: %v %+v", err, res.SPRT)
	}
}

// TestFurtherFromEven (issue 43): the paired distance from an even score,
// B's minus A's, and the sentence that names the fairer variant only when
// the interval excludes 0.
func TestFurtherFromEven(t *testing.T) {
	var u unitMeans
	// 400 units: A scores ½ in every unit, B 1 in 3 of 4 (75%).
	for i := range 400 {
		b := 0.0
		if i%4 != 0 {
			b = 1
		}
		u.add(i, 0.5, b)
	}
	f := u.furtherFromEven()
	if f.N != 400 || math.Abs(f.Value-0.25) > 1e-12 || f.Low <= 0.2 || f.High >= 0.3 {
		t.Fatalf("further from even %+v, want 0.25 with a tight interval", f)
	}
	// B below ½ by as much as A above it: equally far.
	var v unitMeans
	for i := range 400 {
		v.add(i, float64(i%2)*0.5+0.25, 0.75-float64(i%2)*0.5)
	}
	if g := v.furtherFromEven(); math.Abs(g.Value) > 1e-12 || g.Low >= 0 || g.High <= 0 {
		t.Errorf("mirror images: %+v, want 0 inside its interval", g)
	}
	summary := &reports.Summary{Pairs: true}
	res := &Result{Metric: FairnessMetric, A: Side{Mean: 0.5, Summary: summary}, B: Side{Mean: 0.75, Summary: summary}, FurtherFromEven: &f}
	if got := res.fairnessText(); !strings.HasPrefix(got, "B is further from even than A by 25.0 points") || !strings.Contains(got, "A is the fairer") {
		t.Errorf("B further: %q", got)
	}
	neg := reports.MetricEstimate{Value: -f.Value, Low: -f.High, High: -f.Low, N: f.N}
	res.FurtherFromEven = &neg
	if got := res.fairnessText(); !strings.HasPrefix(got, "A is further from even than B by 25.0 points") || !strings.Contains(got, "B is the fairer") {
		t.Errorf("A further: %q", got)
	}
	// At the threshold: an interval that touches 0 does not name the
	// fairer variant.
	edge := reports.MetricEstimate{Value: 0.04, Low: 0, High: 0.08, N: 50}
	res.FurtherFromEven = &edge
	if got := res.fairnessText(); !strings.HasPrefix(got, "neither is shown the fairer") {
		t.Errorf("an interval from 0: %q", got)
	}
	wide := reports.MetricEstimate{Value: 0.02, Low: -0.05, High: 0.09, N: 50}
	res.FurtherFromEven = &wide
	if got := res.fairnessText(); !strings.HasPrefix(got, "neither is shown the fairer") {
		t.Errorf("undecided: %q", got)
	}
	res.Metric, res.FurtherFromEven = "plies", nil
	if got := res.fairnessText(); got != "" || res.share() || res.meanText(31.25) != "31.25" {
		t.Errorf("plies: %q, share %v, mean %q", got, res.share(), res.meanText(31.25))
	}
}
