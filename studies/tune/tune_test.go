package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"playtest/games/pcg"
	"playtest/studies/sweep"
	"playtest/variants"
)

// synthetic is a player of made-up games: each game seat 0 wins with
// probability p, so a deal (two games) scores 0, ½ or 1 for seat 0.
func synthetic(rng *pcg.Rand, p map[string]float64) func(c *Candidate, from, to int) error {
	return func(c *Candidate, from, to int) error {
		for deal := from / 2; deal < to/2; deal++ {
			score := 0.0
			for range 2 {
				if rng.Float64() < p[c.Label] {
					score++
				}
			}
			addDeal(c, score)
		}
		return nil
	}
}

// addDeal tallies a deal of two games in which seat 0 scored score in
// all, no draws and 20 plies a game.
func addDeal(c *Candidate, score float64) {
	if c.tally.Sum == nil {
		c.tally.Sum, c.tally.N = make([][]float64, figTargets), make([][]int, figTargets)
	}
	for f, v := range []float64{score, 0, 40} {
		c.tally.Sum[f], c.tally.N[f] = append(c.tally.Sum[f], v), append(c.tally.N[f], 2)
	}
}

// TestRaceKeepsTheBest races candidates whose seat-0 scores are known
// (50%, the best, and 53, 56, 60 and 70%) 300 times: the best is dropped
// in at most alpha of the races (the union bound makes it far rarer), and
// the 70% candidate, far off, is dropped in nearly every race.
func TestRaceKeepsTheBest(t *testing.T) {
	p := map[string]float64{"best": 0.5, "a": 0.53, "b": 0.56, "c": 0.6, "far": 0.7}
	const races = 300
	bestDropped, farDropped, spent := 0, 0, 0
	for seed := range uint64(races) {
		res := &Result{Goal: BalanceOnly, Alpha: 0.05, Keep: 1, FullSweep: len(p) * 1600}
		var cands []*Candidate
		for _, label := range []string{"a", "best", "b", "c", "far"} {
			cands = append(cands, &Candidate{Label: label})
		}
		if err := res.race(cands, rounds(100, 1600), synthetic(pcg.New(seed, 7), p), Options{}, nil); err != nil {
			t.Fatal(err)
		}
		for _, c := range cands {
			switch {
			case c.Label == "best" && c.DroppedAfter > 0:
				bestDropped++
			case c.Label == "far" && c.DroppedAfter > 0:
				farDropped++
			}
		}
		spent += res.Spent
	}
	if float64(bestDropped) > 0.05*races {
		t.Errorf("the best candidate was dropped in %d of %d races", bestDropped, races)
	}
	if farDropped < races*95/100 {
		t.Errorf("the 70%% candidate was dropped in only %d of %d races", farDropped, races)
	}
	t.Logf("best dropped in %d of %d races, the far one in %d; %.0f%% of a full sweep's games", bestDropped, races, farDropped, 100*float64(spent)/float64(races*5*1600))
}

// TestHalvingAndTolerance: successive halving keeps half of each round's
// candidates by rank (never fewer than two, never after the last round)
// and says they were set aside, not shown worse; a tolerance stops the
// race once the leader is shown within it.
func TestHalvingAndTolerance(t *testing.T) {
	p := map[string]float64{}
	var cands []*Candidate
	for i := range 9 {
		label := fmt.Sprint(i)
		p[label] = 0.5 + 0.01*float64(i)
		cands = append(cands, &Candidate{Label: label})
	}
	res := &Result{Goal: BalanceOnly, Alpha: 0.05, Keep: 0.5}
	if err := res.race(cands, rounds(100, 1600), synthetic(pcg.New(1, 7), p), Options{}, nil); err != nil {
		t.Fatal(err)
	}
	var left, byRank []string
	for _, c := range cands {
		switch c.DroppedBy {
		case "":
			left = append(left, c.Label)
		case DroppedByRank:
			byRank = append(byRank, c.Label)
			if !strings.Contains(c.Why, "set aside by rank, not shown worse") {
				t.Errorf("%s: %s", c.Label, c.Why)
			}
		}
	}
	// 9 → 5 → 3 → 2, then two at 800 and 1600 games.
	if got := fmt.Sprint(res.Rounds[0].Candidates, res.Rounds[1].Candidates, res.Rounds[2].Candidates, res.Rounds[3].Candidates, res.Rounds[4].Candidates); got != "9 5 3 2 2" {
		t.Errorf("candidates per round %s (%+v)", got, res.Rounds)
	}
	if len(left) > 2 || len(byRank) == 0 || res.Spent != 9*100+5*100+3*200+2*400+2*800 {
		t.Errorf("left %v, set aside %v, spent %d", left, byRank, res.Spent)
	}
	for _, c := range cands {
		res.Candidates = append(res.Candidates, *c)
	}
	if s := res.Summary(); !strings.Contains(s, "Successive halving set") {
		t.Errorf("summary %s", s)
	}

	// A tolerance of 10 points: the 50% candidate is shown within it early.
	cands = []*Candidate{{Label: "0"}, {Label: "8"}}
	res = &Result{Goal: BalanceOnly, Alpha: 0.05, Keep: 1, Tolerance: 0.1}
	if err := res.race(cands, rounds(100, 1600), synthetic(pcg.New(2, 7), p), Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) == 5 || !strings.Contains(res.Stopped, "within the tolerance of 10.0 points") {
		t.Errorf("%d rounds, stopped %q", len(res.Rounds), res.Stopped)
	}
}

// TestDropsAndRounds: a round drops a candidate shown less balanced than
// the leader on the same deals, and says why.
func TestDropsAndRounds(t *testing.T) {
	if got := fmt.Sprint(rounds(100, 1000)); got != "[100 200 400 800 1000]" {
		t.Errorf("rounds %s", got)
	}
	res := &Result{Goal: BalanceOnly, Alpha: 0.05, Keep: DefaultKeep}
	even, lopsided := &Candidate{Label: "even"}, &Candidate{Label: "lopsided"}
	play := func(c *Candidate, from, to int) error {
		for d := from / 2; d < to/2; d++ {
			v := float64(d % 3) // seat 0's total over the deal's two games: 0, 1, 2, a mean of ½ a game
			if c == lopsided {
				v = 2 // seat 0 wins every game
			}
			addDeal(c, v)
		}
		return nil
	}
	if err := res.race([]*Candidate{lopsided, even}, rounds(60, 60), play, Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if lopsided.DroppedAfter != 1 || even.DroppedAfter != 0 || !strings.Contains(lopsided.Why, "after 60 games on the same deals as even, its objective is at least") {
		t.Errorf("lopsided %+v, even %+v", lopsided, even)
	}
	if res.Rounds[0].Dropped != 1 || res.Rounds[0].Leader != "even" || len(res.Evaluations) != 2 || res.Stopped != "one candidate left" {
		t.Errorf("round %+v, %d evaluations, stopped %q", res.Rounds[0], len(res.Evaluations), res.Stopped)
	}
}

func testSpace(t *testing.T, sets ...string) (*sweep.Sweep, []*variants.Config, []sweep.Point) {
	t.Helper()
	s, err := sweep.Load("stacktics-size2")
	if err != nil {
		t.Fatal(err)
	}
	overrides, err := variants.ParseSets(append([]string{"players.0=random", "players.1=random"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	opts := sweep.Options{}
	cfgs, points, err := sweep.Prepare(s, overrides, &opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, cfgs, points
}

// TestRunIsDeterministic: a race of real games gives the same result with
// 1 and 3 workers, and a budget stops it before the round that would pass
// it.
func TestRunIsDeterministic(t *testing.T) {
	s, cfgs, points := testSpace(t)
	var out [2]string
	for i, workers := range []int{1, 3} {
		res, err := Run(context.Background(), s, cfgs, points, Options{Workers: workers, FirstGames: 20, MaxGames: 80})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		out[i] = string(b)
	}
	if out[0] != out[1] {
		t.Errorf("1 and 3 workers differ:\n%s\n%s", out[0], out[1])
	}
	res, err := Run(context.Background(), s, cfgs, points, Options{FirstGames: 20, MaxGames: 80, Budget: 200, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spent > 200 || len(res.Rounds) != 2 || !strings.Contains(res.Stopped, "budget of 200 games") {
		t.Errorf("spent %d in %d rounds, stopped %q", res.Spent, len(res.Rounds), res.Stopped)
	}
}

func TestValidate(t *testing.T) {
	_, cfgs, _ := testSpace(t)
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{FirstGames: 1}, "at least 2 games"},
		{Options{FirstGames: 30, MaxGames: 20}, "at least 2 games"},
		{Options{FirstGames: 21, MaxGames: 41}, "even numbers"},
		{Options{Alpha: 1}, "--alpha 1"},
		{Options{Budget: -1}, "budget of 0 or more"},
		{Options{Keep: 1.5}, "--keep 1.5"},
		{Options{Tolerance: -0.5}, "--tolerance -50 points"},
		{Options{FirstGames: 20, Budget: 79}, "the first round alone plays 80 games (4 candidates × 20)"},
	} {
		if err := Validate(len(cfgs), cfgs[0], c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opts, err, c.want)
		}
	}
	_, nopairs, _ := testSpace(t, "pairs=false")
	if err := Validate(1, nopairs[0], Options{}); err == nil || !strings.Contains(err.Error(), "pairs: true") {
		t.Errorf("without pairs: %v", err)
	}
}

// TestSummaryClaimsOnlyWhatTheRaceShowed: one candidate left is the most
// balanced; with several left the summary names only the least imbalanced
// so far, and says they are not shown apart.
func TestSummaryClaimsOnlyWhatTheRaceShowed(t *testing.T) {
	r := &Result{Goal: BalanceOnly, FullSweep: 100, Spent: 50, MaxGames: 50, Stopped: "x", Bots: "random",
		Candidates: []Candidate{{Label: "a", Games: 50}, {Label: "b", Games: 50, DroppedAfter: 1}}}
	if s := r.Summary(); !strings.HasPrefix(s, "Most balanced: a, seat 0") || strings.Contains(s, "not shown") {
		t.Errorf("one left: %s", s)
	}
	r.Candidates[1].DroppedAfter = 0
	if s := r.Summary(); !strings.HasPrefix(s, "Most balanced: not shown yet among the 2 left; the least imbalanced so far is a,") || !strings.Contains(s, "The 2 left are not shown apart") {
		t.Errorf("two left: %s", s)
	}
	r.Candidates[1].DroppedAfter, r.Candidates[1].DroppedBy = 1, DroppedByRank
	if s := r.Summary(); !strings.HasPrefix(s, "Most balanced of the candidates raced to the end: a,") || !strings.Contains(s, "set 1 aside by rank") {
		t.Errorf("one left, one set aside: %s", s)
	}
}

// TestResumeGivesTheSameRace: a race kept in a directory and stopped at
// any point (here after 100, 300 and 600 games of 680, with its state saved
// after every candidate) resumes from the directory alone to the result
// of the race never stopped.
func TestResumeGivesTheSameRace(t *testing.T) {
	defer func(d time.Duration) { SaveEvery = d }(SaveEvery)
	SaveEvery = 0
	s, cfgs, points := testSpace(t)
	opts := Options{Workers: 2, FirstGames: 20, MaxGames: 320}
	whole := opts
	whole.Out = t.TempDir()
	res, err := Run(context.Background(), s, cfgs, points, whole)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(res)
	for _, stopAt := range []int{100, 300, 600} {
		dir := stopRace(t, s, cfgs, points, opts, stopAt)
		res, err := Resume(context.Background(), dir, Options{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(res); string(got) != string(want) {
			t.Errorf("stopped after %d games and resumed:\n%s\nwant\n%s", stopAt, got, want)
		}
		// A finished race resumes to the same result too.
		if res, err := Resume(context.Background(), dir, Options{}); err != nil {
			t.Error(err)
		} else if got, _ := json.Marshal(res); string(got) != string(want) {
			t.Errorf("a finished race resumed differs")
		}
	}
}

// objectiveOf decodes an objective: for the space's first variant.
func objectiveOf(t *testing.T, cfg *variants.Config, text string) (Objective, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return ParseObjective("space.yaml", doc.Content[0], cfg)
}

// TestParseObjective: a space's objective: decodes strictly, each error
// naming the file, line and key.
func TestParseObjective(t *testing.T) {
	_, cfgs, _ := testSpace(t)
	o, err := objectiveOf(t, cfgs[0], "balance: 2\ntargets:\n  - {metric: plies, min: 20, max: 60, weight: 0.01}\n  - {metric: draws, max: 0.05}\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "2 × |seat 0's score over seat-swapped pairs − 50%| + 0.01 × the distance of plies outside 20 ≤ plies ≤ 60, subject to draws ≤ 0.05"
	if o.String() != want || !o.Targets[1].Unit || o.Targets[0].Unit || o.IsBalanceOnly() {
		t.Errorf("%s\n%+v", o, o)
	}
	for _, c := range []struct{ text, want string }{
		{"balanse: 1\n", `space.yaml:1: objective.balanse: unknown key (did you mean "balance"?)`},
		{"balance: -1\n", `space.yaml:1: objective.balance: want a weight from 0 to 1e+06, got -1`},
		{"targets:\n  - {metric: plys, max: 3}\n", `space.yaml:2: objective.targets[0].metric: unknown metric "plys" (did you mean "plies"?)`},
		{"targets:\n  - {metric: plies}\n", `space.yaml:2: objective.targets[0]: want min:, max: or both`},
		{"targets:\n  - {metric: plies, min: 5, max: 3}\n", `min 5 is above max 3`},
		{"targets:\n  - {metric: plies, max: 3, weight: 0}\n", `weight: want a weight above 0 and at most 1e+06 (leave weight out for a hard constraint)`},
		{"targets:\n  - {max: 3}\n", `objective.targets[0].metric: is required`},
		{"balance: 0\ntargets:\n  - {metric: draws, max: 0.1}\n", `objective: minimises nothing`},
		{"targets: 3\n", `objective.targets: want a list of targets`},
		{"targets:\n  - {metric: plies, max: 3, max: 4}\n", `objective.targets[0].max: appears twice`},
	} {
		if _, err := objectiveOf(t, cfgs[0], c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.text, err, c.want)
		}
	}
}

// TestObjectiveTargets: a soft target steers the race (random play is
// shorter on 4×4 than on 3×5, so a target of short games puts a 4×4
// candidate first), and a hard target every candidate breaks empties
// the race, which says so.
func TestObjectiveTargets(t *testing.T) {
	s, cfgs, points := testSpace(t)
	short, err := objectiveOf(t, cfgs[0], "balance: 0\ntargets:\n  - {metric: plies, max: 30, weight: 1}\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), s, cfgs, points, Options{FirstGames: 40, MaxGames: 160, Keep: 1, Objective: short})
	if err != nil {
		t.Fatal(err)
	}
	if best := res.Candidates[0]; best.Values[0] != "4x4" || best.Targets[0].Metric != "plies" || best.Objective.Value != best.Plies-30 {
		t.Errorf("best %+v", best)
	}
	if !strings.HasPrefix(res.Summary(), "Best") {
		t.Errorf("summary %s", res.Summary())
	}
	impossible, err := objectiveOf(t, cfgs[0], "targets:\n  - {metric: plies, max: 5}\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), s, cfgs, points, Options{FirstGames: 40, MaxGames: 160, Objective: impossible})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "every candidate was shown to break a hard target" || res.Candidates[0].DroppedBy != DroppedByConstraint ||
		!strings.Contains(res.Candidates[0].Why, "its plies is shown outside plies ≤ 5") || !strings.HasPrefix(res.Summary(), "No candidate is left") {
		t.Errorf("stopped %q, %+v\n%s", res.Stopped, res.Candidates[0], res.Summary())
	}
}

// TestNTBEAFindsGoodPoints: on a made-up space of 4 knobs of 6 values
// (1,296 points) whose cost is a sum of each knob's squared distance from
// a best value plus noise far larger than most differences, NTBEA's
// proposals, from 1,500 noisy evaluations, are among the best few
// percent of the space in every one of 10 searches; a search that
// proposed points at random would not be.
func TestNTBEAFindsGoodPoints(t *testing.T) {
	dims, best := []int{6, 6, 6, 6}, []int{4, 1, 3, 0}
	cost := func(x []int) float64 {
		c := 0.0
		for a, v := range x {
			c += 0.001 * float64((v-best[a])*(v-best[a]))
		}
		return c
	}
	sp := &space{Labels: make([][]string, len(dims))}
	for a, n := range dims {
		for v := range n {
			sp.Labels[a] = append(sp.Labels[a], fmt.Sprint(v))
		}
	}
	var cands []*Candidate
	var costs []float64
	for i := range 6 * 6 * 6 * 6 {
		x := []int{i / 216, i / 36 % 6, i / 6 % 6, i % 6}
		sp.Points = append(sp.Points, x)
		cands = append(cands, &Candidate{Label: fmt.Sprint(x)})
		costs = append(costs, cost(x))
	}
	sorted := slices.Clone(costs)
	slices.Sort(sorted)
	top := sorted[len(sorted)*3/100] // the best 3%
	for seed := range uint64(10) {
		res := &Result{Goal: BalanceOnly, Axes: []string{"a", "b", "c", "d"}, Seed: seed, Budget: 1500 * 20 * 5 / 3, EvalGames: 20, Confirm: 4}
		noise := pcg.New(seed, 99)
		evaluate := func(c *Candidate, e int) (float64, error) {
			i := slices.Index(cands, c)
			return -costs[i] + 0.02*(noise.Float64()-0.5)*3.46, nil // sd 0.02
		}
		proposed, err := res.ntbea(sp, cands, nil, evaluate, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Search.Evaluations != 1500 || len(proposed) != 4 || len(res.Effects) != 4 {
			t.Fatalf("%d evaluations, %d proposed, %d effects", res.Search.Evaluations, len(proposed), len(res.Effects))
		}
		i := slices.Index(cands, proposed[0])
		if costs[i] > top {
			t.Errorf("seed %d: the first proposal %s costs %.4f, outside the best 3%% (%.4f)", seed, proposed[0].Label, costs[i], top)
		}
		// The knobs' effects, as the search sampled them: knob a's value
		// farthest from its best costs more than its best.
		if e := res.Effects[0]; e.Mean[0] <= e.Mean[best[0]] {
			t.Errorf("seed %d: knob a's effects %v", seed, e.Mean)
		}
	}
}

// TestNTBEARaceIsDeterministicAndResumes: an NTBEA search and its
// confirmation race of real games give the same result with 1 and 3
// workers, and stopped in the search or in the race, resume to it.
func TestNTBEARaceIsDeterministicAndResumes(t *testing.T) {
	defer func(d time.Duration) { SaveEvery = d }(SaveEvery)
	SaveEvery = 0
	s, cfgs, points := testSpace(t)
	opts := Options{Search: SearchNTBEA, Budget: 400, EvalGames: 8, Confirm: 2, FirstGames: 20, MaxGames: 80}
	var want []byte
	for _, workers := range []int{1, 3} {
		o := opts
		o.Workers, o.Out = workers, t.TempDir()
		res, err := Run(context.Background(), s, cfgs, points, o)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res)
		if want == nil {
			want = got
			if res.Search == nil || res.Search.Evaluations != 30 || len(res.Candidates) != 2 || res.Spent > 400 {
				t.Fatalf("search %+v, %d candidates raced, %d games", res.Search, len(res.Candidates), res.Spent)
			}
		} else if string(got) != string(want) {
			t.Errorf("1 and 3 workers differ:\n%s\n%s", want, got)
		}
	}
	for _, stopAt := range []int{100, 300} {
		res, err := Resume(context.Background(), stopRace(t, s, cfgs, points, opts, stopAt), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(res); string(got) != string(want) {
			t.Errorf("stopped after %d games and resumed:\n%s\nwant\n%s", stopAt, got, want)
		}
	}
}

// TestPlanned: the games a progress bar expects are the race's with
// halving and no test's drop, the budget's, or an NTBEA race's budget.
func TestPlanned(t *testing.T) {
	_, cfgs, _ := testSpace(t)
	for _, c := range []struct {
		candidates int
		opts       Options
		want       int
	}{
		{24, Options{FirstGames: 100, MaxGames: 1600}, 24*100 + 12*100 + 6*200 + 3*400 + 2*800},
		{24, Options{FirstGames: 100, MaxGames: 1600, Keep: 1}, 24 * 1600},
		{24, Options{FirstGames: 100, MaxGames: 1600, Budget: 5000}, 5000},
		{1000, Options{}, 20 * 1000},
		{1000, Options{Budget: 50000}, 50000},
	} {
		if got := Planned(c.candidates, cfgs[0], c.opts); got != c.want {
			t.Errorf("%d candidates, %+v: %d, want %d", c.candidates, c.opts, got, c.want)
		}
	}
}

// stopRace runs a race kept in a new directory, stops it after stopAt
// games, and returns the directory.
func stopRace(t *testing.T, s *sweep.Sweep, cfgs []*variants.Config, points []sweep.Point, opts Options, stopAt int) string {
	t.Helper()
	opts.Out = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	played := 0
	opts.OnGame = func() {
		if played++; played == stopAt {
			cancel()
		}
	}
	if _, err := Run(ctx, s, cfgs, points, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped after %d games: %v", stopAt, err)
	}
	return opts.Out
}
