package reports

import (
	"fmt"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/bots"
)

var mcts = bots.Spec{Bot: "mcts", Params: bots.DefaultMCTSParams()}

// pairedRun aggregates n pairs of games whose seat-0 results are given per
// pair by result(k) (two winners), with both seats on spec.
func pairedRun(n int, spec bots.Spec, result func(k int) [2]games.Player, extra func(r *sim.Record)) *Summary {
	a := NewAggregator(RunInfo{Source: "preset stacktics/size2", Game: "stacktics", Variant: "stacktics/size2", Seed: 1, Pairs: true,
		Players: [2]bots.Spec{spec, spec}})
	for k := range n {
		w := result(k)
		for g := range 2 {
			r := &sim.Record{Index: 2*k + g, Deal: k, Swapped: g == 1, Plies: 20, Result: games.Result{Winner: w[g], Reason: "capture-threshold"}}
			if w[g] == games.NoPlayer {
				r.Result.Reason = "repetition"
			}
			if extra != nil {
				extra(r)
			}
			a.Add(r)
		}
	}
	return a.Summary(Timing{})
}

func both(p games.Player) func(int) [2]games.Player {
	return func(int) [2]games.Player { return [2]games.Player{p, p} }
}

// split: every pair split, seat 0 winning one game and seat 1 the other.
func split(int) [2]games.Player { return [2]games.Player{games.Seat0, games.Seat1} }

func TestHeadlineVerdicts(t *testing.T) {
	// Seat 0 wins 3 games of 4 in pairs: (2, 1) alternating.
	mostly0 := func(k int) [2]games.Player {
		if k%2 == 0 {
			return [2]games.Player{games.Seat0, games.Seat0}
		}
		return [2]games.Player{games.Seat0, games.Seat1}
	}
	tests := []struct {
		name    string
		s       *Summary
		verdict string
		phrase  string
	}{
		{"seat 0 sweeps", pairedRun(50, mcts, both(games.Seat0), nil), VerdictSeat0, "a significant first-move advantage"},
		{"seat 1 sweeps", pairedRun(50, mcts, both(games.Seat1), nil), VerdictSeat1, "a significant second-player advantage"},
		{"seat 0 3 in 4", pairedRun(200, mcts, mostly0, nil), VerdictSeat0, "first-move advantage (p < 0.0001)"},
		{"split, many pairs", pairedRun(2000, mcts, split, nil), VerdictBalanced, "no evidence of a seat advantage"},
		{"split, few pairs", pairedRun(10, mcts, split, nil), VerdictUndecided, "inconclusive"},
		{"draws", pairedRun(400, mcts, both(games.NoPlayer), nil), VerdictBalanced, "draws 100%"},
	}
	for _, tt := range tests {
		h := tt.s.Headline
		if h.Verdict != tt.verdict || !strings.Contains(h.Text, tt.phrase) {
			t.Errorf("%s: verdict %q, text %q; want %q with %q", tt.name, h.Verdict, h.Text, tt.verdict, tt.phrase)
		}
		if !strings.Contains(h.Text, "Bots: mcts, 1,000 iterations in both seats") || !strings.Contains(h.Text, "`playtest skill stacktics/size2`") {
			t.Errorf("%s: the headline does not name the bots' strength and the skill ladder: %q", tt.name, h.Text)
		}
		if h.Unit != "pairs" || h.Test != TestPairScore || h.N != tt.s.PairStats.Seat0.Pairs {
			t.Errorf("%s: headline over %d %s by %q", tt.name, h.N, h.Unit, h.Test)
		}
	}
	weak := pairedRun(50, bots.Spec{Bot: "random", Params: &bots.NoParams{}}, both(games.Seat0), nil).Headline
	if !strings.Contains(weak.Text, "Bots: random in both seats: bots that do not search") {
		t.Errorf("weak bots: %q", weak.Text)
	}
}

// TestHeadlineOfPerfectPlay (issue 55): perfect bots in both seats are
// called perfect play, never weak; a few drawn games are "no significant
// advantage" without "more games would tell" (perfect play repeats the
// proven value), many are balanced, and a forced win is significant.
func TestHeadlineOfPerfectPlay(t *testing.T) {
	perfect := bots.Spec{Bot: "perfect", Params: &bots.PerfectParams{Nodes: 1000, TableMB: 1}}
	few := pairedRun(2, perfect, both(games.NoPlayer), nil).Headline
	many := pairedRun(100, perfect, both(games.NoPlayer), nil).Headline
	won := pairedRun(10, perfect, func(int) [2]games.Player { return [2]games.Player{games.Seat1, games.Seat1} }, nil).Headline
	for _, c := range []struct {
		name     string
		h        Headline
		want     []string
		notWants []string
	}{
		{"2 drawn pairs", few, []string{"no significant seat advantage", "perfect play ends every game at the proven value", "in both seats: perfect play"}, []string{"more games would tell", "do not search"}},
		{"100 drawn pairs", many, []string{"no evidence of a seat advantage", "perfect play"}, []string{"more games would tell", "do not search"}},
		{"10 pairs seat 1 won", won, []string{"significant second-player advantage", "perfect play"}, []string{"do not search"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.h.Text, w) {
				t.Errorf("%s: no %q in %q", c.name, w, c.h.Text)
			}
		}
		for _, w := range c.notWants {
			if strings.Contains(c.h.Text, w) {
				t.Errorf("%s: %q in %q", c.name, w, c.h.Text)
			}
		}
	}
}

// TestHeadlineNeverContradictsP (issue 34) reads the headline of every
// pentanomial of up to 24 pairs and of random ones of 500 pairs (decisive
// pairs only, as in the scan, and with draws): a significant
// verdict exactly when p < 0.05, with an interval that leaves 50% out on
// the verdict's side, and a sentence that says "significant" only then.
// The two cases are among them: counts [14, 0, 486, 0, 0] (p =
// 0.00012 read "no evidence") and [0, 0, 0, 6, 0] (p = 0.031 read "no
// significant advantage"; it is one, by both the score test and the exact
// sign-flip test).
func TestHeadlineNeverContradictsP(t *testing.T) {
	a := NewAggregator(RunInfo{Source: "preset stacktics/size2", Variant: "stacktics/size2", Pairs: true, Players: [2]bots.Spec{mcts, mcts}})
	check := func(p stats.Pentanomial) {
		s := &Summary{PairStats: &PairStats{Seat0: p.Score(stats.Z95)}}
		h := a.headline(s)
		significant := h.Verdict == VerdictSeat0 || h.Verdict == VerdictSeat1
		outside := h.Low > 0.5 && h.Verdict == VerdictSeat0 || h.High < 0.5 && h.Verdict == VerdictSeat1
		said := strings.Contains(h.Text, ": a significant")
		if significant != (h.P < SignificanceLevel) || significant != outside || said != significant ||
			!significant && (h.Low > 0.5 || h.High < 0.5) {
			t.Fatalf("counts %v: verdict %s, p %g, interval [%g, %g]: %q", p, h.Verdict, h.P, h.Low, h.High, h.Text)
		}
	}
	var rec func(p stats.Pentanomial, k, left int)
	rec = func(p stats.Pentanomial, k, left int) {
		if k == 4 {
			p[4] = left
			if p.Pairs() > 0 {
				check(p)
			}
			return
		}
		for c := 0; c <= left; c++ {
			p[k] = c
			rec(p, k+1, left-c)
		}
	}
	for n := 1; n <= 24; n++ {
		rec(stats.Pentanomial{}, 0, n)
	}
	rng := pcg.New(34, 1)
	for range 5000 {
		var p stats.Pentanomial
		w := [5]int{rng.IntN(50), rng.IntN(5), rng.IntN(500), rng.IntN(5), rng.IntN(50)}
		if rng.IntN(2) == 0 {
			w[1], w[3] = 0, 0 // decisive pairs only
		}
		for range 500 {
			u, k := rng.IntN(w[0]+w[1]+w[2]+w[3]+w[4]+1), 0
			for k < 4 && u >= w[k] {
				u -= w[k]
				k++
			}
			p[k]++
		}
		check(p)
	}
	for _, c := range []struct {
		p       stats.Pentanomial
		verdict string
	}{{stats.Pentanomial{14, 0, 486, 0, 0}, VerdictSeat1}, {stats.Pentanomial{0, 0, 0, 6, 0}, VerdictSeat0}} {
		if h := a.headline(&Summary{PairStats: &PairStats{Seat0: c.p.Score(stats.Z95)}}); h.Verdict != c.verdict {
			t.Errorf("counts %v: %s, want %s: %s", c.p, h.Verdict, c.verdict, h.Text)
		}
	}
}

func TestPairedOutcomeIntervals(t *testing.T) {
	// Every deal is won by the same seat in both games (perfect
	// within-pair correlation): 40 pairs carry the information of 40
	// games, not 80, so the paired interval is wider than Wilson's.
	s := pairedRun(40, mcts, func(k int) [2]games.Player { return [2]games.Player{games.Player(k % 2), games.Player(k % 2)} }, nil)
	wilson := NewRate(s.Outcomes.Seat0, s.Games)
	if s.Rates.Interval != IntervalPairedWilson || s.Rates.Seat0.High-s.Rates.Seat0.Low <= 1.3*(wilson.High-wilson.Low) {
		t.Errorf("paired %+v vs Wilson %+v", s.Rates.Seat0, wilson)
	}
	if c := s.PairStats.Correlation; c < 0.95 {
		t.Errorf("within-pair correlation %v, want about 1", c)
	}
	if c := pairedRun(40, mcts, split, nil).PairStats.Correlation; c > -0.95 {
		t.Errorf("split pairs: correlation %v, want about −1", c)
	}
}

func TestWarnings(t *testing.T) {
	codes := func(s *Summary) string {
		var out []string
		for _, w := range s.Warnings {
			out = append(out, w.Code)
			if !strings.Contains(w.Message, "playtest skill stacktics/size2") {
				t.Errorf("warning %s does not say what to run next: %q", w.Code, w.Message)
			}
		}
		return strings.Join(out, ",")
	}
	if got := codes(pairedRun(50, mcts, split, nil)); got != "" {
		t.Errorf("a clean run warns: %s", got)
	}
	if got := codes(pairedRun(50, bots.Spec{Bot: "greedy", Params: &bots.GreedyParams{}}, split, nil)); got != WarnWeakBots {
		t.Errorf("greedy bots: %s", got)
	}
	// 6 of 100 games won at ply 2, after a decision of each seat.
	early := pairedRun(50, mcts, split, func(r *sim.Record) {
		if r.Index%17 == 0 {
			r.Plies, r.PlayerDecisions = 2, 2
		}
	})
	if got := codes(early); got != WarnEarlyDecisions || !strings.Contains(early.Warnings[0].Message, "6 of 100 games") {
		t.Errorf("early decisions: %s %+v", got, early.Warnings)
	}
	// The same games decided by chance alone, no seat deciding anything
	// (issue 58): no blunder of the bots, no warning.
	byChance := pairedRun(50, mcts, split, func(r *sim.Record) {
		if r.Index%17 == 0 {
			r.Plies, r.PlayerDecisions, r.Decisions = 0, 0, 9
		}
	})
	if got := codes(byChance); got != "" {
		t.Errorf("games decided by chance alone: %s %+v", got, byChance.Warnings)
	}
	// Bots that replay 8 games (issue 35's alphabeta): a warning, and the
	// headline says its figure describes a few lines of play; 100
	// different games earn neither.
	repeated := pairedRun(50, mcts, both(games.Seat1), func(r *sim.Record) { r.Fingerprint = uint64(r.Index%8 + 1) })
	if got := codes(repeated); got != WarnRepeatedGames || !strings.Contains(repeated.Warnings[0].Message, "only 8 of the 100 games were different (the most frequent was played 13 times)") ||
		!strings.Contains(repeated.Headline.Text, "(p < 0.0001), but only 8 of the 100 games were different") {
		t.Errorf("repeated games: %s %+v\n%s", got, repeated.Warnings, repeated.Headline.Text)
	}
	// Bots alike in both seats play a pair's two games alike: 50 different
	// games of 100, but each pair's twins count once (the intervals are
	// over the pairs), so 50 of 50: no warning.
	alike := pairedRun(50, mcts, both(games.Seat1), func(r *sim.Record) { r.Fingerprint = uint64(r.Index/2 + 1) })
	if got := codes(alike); got != "" || alike.Repetition.Distinct != 50 || alike.Repetition.Twins != 50 {
		t.Errorf("pairs alike within, different between: %s, %+v", got, alike.Repetition)
	}
	// Twin pairs that also repeat between pairs: 5 different of 50.
	few := pairedRun(50, mcts, both(games.Seat1), func(r *sim.Record) { r.Fingerprint = uint64(r.Index/2%5 + 1) })
	if got := codes(few); got != WarnRepeatedGames || !strings.Contains(few.Warnings[0].Message, "only 5 of the 100 games were different (the most frequent was played 20 times; of 50, counting as one the two games of each of the 50 seat-swapped pairs that played one game twice)") {
		t.Errorf("twin pairs repeating: %s %+v", got, few.Warnings)
	}
	// Without pairs the games are the samples.
	var unpaired RepetitionCounter
	for i := range 100 {
		unpaired.Add(uint64(i%8 + 1))
	}
	if r := unpaired.Summary(); !r.Repeated(100) || !strings.Contains(r.Describe(100), "only 8 of the 100 games were different (the most frequent was played 13 times)") {
		t.Errorf("unpaired: %+v %s", r, r.Describe(100))
	}
	varied := pairedRun(50, mcts, both(games.Seat1), func(r *sim.Record) { r.Fingerprint = uint64(r.Index + 1) })
	if got := codes(varied); got != "" || strings.Contains(varied.Headline.Text, "different games") || varied.Repetition.Distinct != 100 {
		t.Errorf("100 different games: %s, %+v", got, varied.Repetition)
	}
	// Seat 1 keeps in every game and wins only a fifth of them.
	pie := pairedRun(30, mcts, func(k int) [2]games.Player {
		if k%5 == 0 {
			return [2]games.Player{games.Seat1, games.Seat1}
		}
		return [2]games.Player{games.Seat0, games.Seat0}
	}, func(r *sim.Record) {
		r.Metrics = []games.Metric{games.Rate(games.MetricPieSwap, false), games.Rate(games.MetricPieKeepSeat1Wins, r.Result.Winner == games.Seat1)}
	})
	if got := codes(pie); got != WarnPieChoice || !strings.Contains(pie.Warnings[0].Message, "choosing to keep") {
		t.Errorf("pie choice: %s %+v", got, pie.Warnings)
	}
}

func TestOpenings(t *testing.T) {
	// 12 openings over 120 games: game i opens with m(i mod 24), where
	// 12 to 23 fold onto m00, so m00 has 65 games and m01 to m11 5 each.
	s := pairedRun(60, mcts, split, func(r *sim.Record) {
		k := r.Index % 24
		if k >= 12 {
			k = 0
		}
		r.Opening = fmt.Sprintf("m%02d", k)
		r.Metrics = []games.Metric{games.Rate(games.MetricPieSwap, r.Index%2 == 0)}
	})
	o := s.Openings
	if o == nil || o.Games != 120 || o.Distinct != 12 || len(o.Rows) != TopOpenings+1 {
		t.Fatalf("openings %+v", o)
	}
	// m00 has 5 × 12 + 5 = 65 games (k = 0 and k = 12..23), the others 5.
	top := o.Rows[0]
	if top.Move != "m00" || top.Share.Count != 65 || top.Seat0Wins.N != 65 || top.Swap == nil || top.Swap.N != 65 {
		t.Errorf("top opening %+v", top)
	}
	if o.Rows[1].Move != "m01" || o.Rows[1].Share.Count != 5 {
		t.Errorf("second opening %+v (ties in name order)", o.Rows[1])
	}
	rest := o.Rows[TopOpenings]
	if !rest.Others || rest.Move != "2 others" || rest.Share.Count != 10 {
		t.Errorf("the rest %+v", rest)
	}
	// Split pairs: seat 0 wins the even games, which are the even k.
	if top.Seat0Wins.Count+top.Draws.Count > top.Share.Count {
		t.Errorf("top opening counts %+v", top)
	}
}
