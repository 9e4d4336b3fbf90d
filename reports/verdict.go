package reports

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"playtest/games"
	"playtest/internal/shell"
	"playtest/reports/stats"
	"playtest/sim/bots"
	"playtest/sim/model"
)

// Headline is the run's answer to "does the first player have an
// advantage?" in one plain sentence, with the figures it comes from. The
// wording follows from the numbers alone and always names the bots'
// strength: the answer is the bots' answer until a skill ladder shows that
// stronger play does not change it.
type Headline struct {
	// Text is the sentence the table and reports print first.
	Text string `json:"text"`
	// Verdict is seat0-advantage, seat1-advantage, balanced (no
	// significant advantage, and the interval rules out one larger than
	// EquivalenceMargin) or inconclusive.
	Verdict string `json:"verdict"`
	// Measure says what Value is: "seat 0's score over pairs" (a win 1, a
	// draw ½, over seat-swapped pairs) or "seat 0's share of decisive
	// games".
	Measure string  `json:"measure"`
	Value   float64 `json:"value"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	// N is the sample size: pairs, or decisive games.
	N    int    `json:"n"`
	Unit string `json:"unit"`
	// P is the seat-bias test's two-sided p-value; Test names the test.
	P    float64 `json:"p"`
	Test string  `json:"test"`
	// Bots describes the players' strength.
	Bots string `json:"bots"`
}

// Verdicts of a Headline.
const (
	VerdictSeat0      = "seat0-advantage"
	VerdictSeat1      = "seat1-advantage"
	VerdictBalanced   = "balanced"
	VerdictUndecided  = "inconclusive"
	EquivalenceMargin = 0.05
	// SignificanceLevel is the level at which a headline calls a seat
	// advantage significant.
	SignificanceLevel = 0.05
)

// Seat-bias tests, as Balance.SeatBiasTest, SeatBiasExactTest and
// Headline.Test name them. The score tests are the ones the intervals
// invert (the headline's); the exact ones are shown beside them.
const (
	TestPairScore   = "score test over seat-swapped pairs"
	TestWilsonScore = "score test over decisive games"
	TestBinomial    = "exact binomial test over decisive games"
	TestSignFlip    = "exact sign-flip test over seat-swapped pairs"
)

// Warning is something in a run's figures that says its answer may be the
// bots' rather than the game's, with what to run next.
type Warning struct {
	// Code names the warning for scripts: weak-bots, early-decisions,
	// pie-choice.
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Warning codes.
const (
	WarnWeakBots       = "weak-bots"
	WarnEarlyDecisions = "early-decisions"
	WarnPieChoice      = "pie-choice"
	WarnRepeatedGames  = "repeated-games"
	WarnModelRules     = "model-rules"
)

// Thresholds of the warnings.
const (
	// EarlyPlies: a game won within this many plies was decided by the
	// first move and its answer.
	EarlyPlies = 2
	// EarlyShare of all games decided that early earns a warning.
	EarlyShare = 0.05
	// PieMinGames is the fewest games after a pie choice judged.
	PieMinGames = 20
)

// SkillCommand is the command that climbs the skill ladder of the run's
// variant.
func SkillCommand(info RunInfo) string {
	target := strings.TrimPrefix(info.Source, "preset ")
	if target == "" {
		target = info.Variant
	}
	cmd := "playtest skill " + shell.Quote(target)
	if info.Rerun != "" {
		cmd += " " + info.Rerun
	}
	return cmd
}

// decisionCount writes "1 decision", "3 decisions".
func decisionCount(n int) string {
	if n == 1 {
		return "1 decision"
	}
	return fmt.Sprintf("%d decisions", n)
}

// headline builds the run's Headline from its figures.
func (a *Aggregator) headline(s *Summary) Headline {
	h := Headline{Bots: bots.DescribePlayers(a.info.Players)}
	// The interval and the p-value come from one score test, so the
	// verdict read off the interval agrees with p by construction.
	if p := s.PairStats; p != nil {
		h.Measure, h.Unit, h.Test = "seat 0's score over pairs", "pairs", TestPairScore
		h.Value, h.Low, h.High, h.N, h.P = p.Seat0.Score, p.Seat0.CI.Low, p.Seat0.CI.High, p.Seat0.Pairs, p.Seat0.P
	} else {
		decisive := s.Outcomes.Seat0 + s.Outcomes.Seat1
		r := NewRate(s.Outcomes.Seat0, decisive)
		h.Measure, h.Unit, h.Test = "seat 0's share of decisive games", "decisive games", TestWilsonScore
		h.Value, h.Low, h.High, h.N, h.P = r.Rate, r.Low, r.High, decisive, stats.WilsonTest(s.Outcomes.Seat0, decisive)
	}
	switch {
	case h.P < SignificanceLevel && h.Value > 0.5:
		h.Verdict = VerdictSeat0
	case h.P < SignificanceLevel && h.Value < 0.5:
		h.Verdict = VerdictSeat1
	case h.Low >= 0.5-EquivalenceMargin && h.High <= 0.5+EquivalenceMargin:
		h.Verdict = VerdictBalanced
	default:
		h.Verdict = VerdictUndecided
	}
	h.Text = h.sentence(s, a.info)
	switch b := s.Broken; {
	case b != nil && b.Proof != nil:
		// A proof settles what the games only sample: the rest of the
		// sentence (the bots' score, advice to climb a skill ladder)
		// would say less, and some of it the opposite.
		h.Text = fmt.Sprintf("The rules are broken: %s (proven by a search of every line; seat 0 scored %s [%s] in these %d games).",
			b.Text, FormatPercent(h.Value), FormatInterval(h.Low, h.High), s.Games)
	case b != nil:
		h.Text = "The rules look broken: " + b.Text + ". " + h.Text
	}
	if p := s.Proven; p != nil {
		h.Text = fmt.Sprintf("Proven value: %s. In these games: %s", p.Text, h.Text)
		if h.contradicts(p) {
			h.Text += " These games' answer is the bots', not the game's: the proof judges the game."
		}
	}
	return h
}

// contradicts says the bots' verdict is not the one the proven value
// gives: a seat's advantage where perfect play draws, or none (or the
// other seat's) where a seat wins. An undecided verdict contradicts
// nothing.
func (h *Headline) contradicts(p *ProvenStart) bool {
	switch {
	case h.Verdict == VerdictUndecided:
		return false
	case p.Draw:
		return h.Verdict != VerdictBalanced
	case p.Winner == games.Seat0:
		return h.Verdict != VerdictSeat0
	}
	return h.Verdict != VerdictSeat1
}

// sentence writes the headline in plain words.
func (h *Headline) sentence(s *Summary, info RunInfo) string {
	var b strings.Builder
	if h.Unit == "pairs" {
		fmt.Fprintf(&b, "Seat 0 (the first player) scores %s [%s] over %d seat-swapped pairs (wins %s, draws %s)",
			pct0(h.Value), span(h.Low, h.High), h.N, pct0(s.Rates.Seat0.Rate), pct0(s.Rates.Draw.Rate))
	} else {
		fmt.Fprintf(&b, "Seat 0 (the first player) wins %s [%s] of %d decisive games (draws %s of %d)",
			pct0(h.Value), span(h.Low, h.High), h.N, pct0(s.Rates.Draw.Rate), s.Games)
	}
	switch h.Verdict {
	case VerdictSeat0, VerdictSeat1:
		who := "first-move"
		if h.Verdict == VerdictSeat1 {
			who = "second-player"
		}
		size := ""
		if h.Low >= 0.5-EquivalenceMargin && h.High <= 0.5+EquivalenceMargin {
			size = " but small (under 5 points)"
		}
		fmt.Fprintf(&b, ": a significant %s advantage%s (%s)", who, size, PClause(h.P))
	case VerdictBalanced:
		fmt.Fprintf(&b, ": no evidence of a seat advantage (%s), and the interval rules out one larger than 5 points", PClause(h.P))
	default:
		if info.Players[0].Perfect() && info.Players[1].Perfect() {
			// Perfect play ends every game at the proven value: more
			// games repeat it, they would not tell anything new.
			fmt.Fprintf(&b, ": no significant seat advantage (%s); the interval is wide only for the few games, since perfect play ends every game at the proven value", PClause(h.P))
			break
		}
		fmt.Fprintf(&b, ": inconclusive, no significant seat advantage (%s) but the interval still allows one; more games would tell", PClause(h.P))
	}
	if r := s.Repetition; r.Mostly(s.Games) {
		fmt.Fprintf(&b, ", but %s: the bots repeat themselves, so this describes a few lines of play, not the game", r.Describe(s.Games))
	}
	fmt.Fprintf(&b, ". Bots: %s", h.Bots)
	switch {
	case info.Players[0].Perfect() && info.Players[1].Perfect():
		b.WriteString(": perfect play, each move proven to keep its seat's value.")
	case info.Players[0].Weak() || info.Players[1].Weak():
		b.WriteString(": bots that do not search, so this describes their blunders more than the rules; use a search bot (mcts, ismcts) and run `" + SkillCommand(info) + "`.")
	default:
		b.WriteString(" — run `" + SkillCommand(info) + "` to see whether stronger play changes this.")
	}
	return b.String()
}

// pct0 writes a rate as a whole percentage, or with one decimal near the
// ends and where rounding would make it 50%: "55%", "0.4%", "49.6%".
func pct0(x float64) string {
	if nearEnd(x) || roundsToHalf(x) {
		return fmt.Sprintf("%.1f%%", 100*x)
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

// roundsToHalf says a share other than ½ rounds to 50% as a whole
// percentage, hiding which side of it it lies.
func roundsToHalf(x float64) bool { return x != 0.5 && math.Round(100*x) == 50 }

// nearEnd says a share is within 10 points of 0 or 1 (but not at it),
// where whole percentages say too little.
func nearEnd(x float64) bool { return x > 0 && x < 0.1 || x < 1 && x > 0.9 }

// span writes an interval in whole percentages, "52–58%", or with one
// decimal at both ends when either is near 0 or 1, "19.0–90.7%", or when
// rounding would put an end on the other side of 50%, or on it:
// "49.6–55.6%".
func span(lo, hi float64) string {
	if nearEnd(lo) || nearEnd(hi) || roundsToHalf(lo) || roundsToHalf(hi) {
		return fmt.Sprintf("%.1f–%.1f%%", 100*lo, 100*hi)
	}
	return fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
}

// PClause states a p-value in a sentence: "p = 0.032", or "p < 0.0001".
func PClause(p float64) string {
	if p < 0.0001 {
		return "p < 0.0001"
	}
	return "p = " + FormatP(p)
}

// FormatP writes a p-value with two significant digits ("< 0.0001" below).
func FormatP(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}

// warnings lists what in the figures says the bots may be too weak for the
// answer to be the game's.
func (a *Aggregator) warnings(s *Summary) []Warning {
	out := []Warning{}
	next := "run `" + SkillCommand(a.info) + "` to see whether stronger bots change the answer"
	var weak []string
	for i, p := range a.info.Players {
		if p.Weak() {
			weak = append(weak, fmt.Sprintf("player %d plays %s", i, p.Bot))
		}
	}
	if s.Broken != nil && s.Broken.Proof != nil {
		weak = nil // a proof judges the rules whatever the bots: they are not to blame
	}
	switch len(weak) {
	case 1:
		out = append(out, Warning{WarnWeakBots, fmt.Sprintf("%s, which does not search: the rates describe its blunders as much as the rules; give it a search bot (mcts, or ismcts where a seat hides something) and %s", weak[0], next)})
	case 2:
		out = append(out, Warning{WarnWeakBots, fmt.Sprintf("%s and %s, which do not search: the rates describe their blunders as much as the rules; give them search bots (mcts, or ismcts where a seat hides something) and %s", weak[0], weak[1], next)})
	}
	if b := s.Broken; b != nil {
		msg := b.Text + ": "
		if b.Proof != nil {
			msg += fmt.Sprintf("a search of every line to %s proves it, so stronger or more varied bots cannot change the result; change the rules (the start, the first moves allowed) and run again", decisionCount(b.Proof.Plies))
		} else {
			msg += "no proof is possible in this game (chance or hidden information), but games this short usually mean a rule hands the game to one seat; read the rules' start and first moves, then run `" + SkillCommand(a.info) + "` to see whether stronger bots change it"
		}
		return append(out, Warning{WarnBrokenRules, msg})
	}
	if r := s.Repetition; r.Repeated(s.Games) {
		out = append(out, Warning{WarnRepeatedGames, fmt.Sprintf("%s: the figures describe a few lines of play, and more games of these bots add little; bots that always answer alike (alphabeta without noise, greedy) need variety (alphabeta: noise with noise_moves; or mcts), and games decided in a few plies need stronger bots: %s", r.Describe(s.Games), next)})
	}
	if n := s.Games; n > 0 && a.early >= 5 && float64(a.early) >= EarlyShare*float64(n) {
		out = append(out, Warning{WarnEarlyDecisions, fmt.Sprintf("%d of %d games (%s) were won by ply %d, decided by the first move and its answer: the bots may be blundering their openings; %s", a.early, n, FormatPercent(float64(a.early)/float64(n)), EarlyPlies, next)})
	}
	for _, choice := range []struct{ metric, name string }{{games.MetricPieKeepSeat1Wins, "keep"}, {games.MetricPieSwapSeat1Wins, "swap"}} {
		acc := a.metrics[choice.metric]
		if acc == nil || acc.moments.N < PieMinGames {
			continue
		}
		r := NewRate(acc.hits, acc.moments.N)
		// A chooser who sees which side is better never picks one that
		// loses most of the time: its wins after a choice stay near half
		// or above.
		if r.High < 0.4 {
			out = append(out, Warning{WarnPieChoice, fmt.Sprintf("after choosing to %s under the pie rule, seat 1 won only %s [%s] of %d games: a player who can tell the better side would not make that choice so often; %s", choice.name, FormatPercent(r.Rate), FormatInterval(r.Low, r.High), r.N, next)})
		}
	}
	out = append(out, a.modelWarnings()...)
	return out
}

// modelWarnings says which players play a learned evaluation learned under
// other rules than the run's, naming the knobs that differ: its judgement
// comes from another game's positions. Players that play the same model
// share one warning.
func (a *Aggregator) modelWarnings() []Warning {
	var out []Warning
	here := model.RulesHash(a.info.Game, a.info.Rules)
	var players []int
	var users []bots.ModelUser
	for i, p := range a.info.Players {
		mu, ok := p.Params.(bots.ModelUser)
		if !ok || mu.LearnedModel() == nil || mu.LearnedModel().RulesHash == here {
			continue
		}
		players, users = append(players, i), append(users, mu)
	}
	same := func(j, k int) bool { return users[j].ModelLabel() == users[k].ModelLabel() }
	for k, mu := range users {
		if k > 0 && same(k-1, k) {
			continue // told with the player before
		}
		who := fmt.Sprintf("player %d plays", players[k])
		if k+1 < len(users) && same(k, k+1) {
			who = fmt.Sprintf("players %d and %d play", players[k], players[k+1])
		}
		only := ""
		if kind := mu.LearnedModel().BaseOf; kind != "" {
			only = fmt.Sprintf(", and only its logistic base: its %s network reads another board", kind)
		}
		out = append(out, Warning{WarnModelRules, fmt.Sprintf("%s a model learned under other rules (%s)%s: its evaluation was learned on another rule set's positions, so a difference it makes may be the model's, not the rules'; learn one for these rules with `playtest learn`, or let a sweep, comparison or tune learn each variant's with --learn",
			who, rulesDifference(mu.LearnedModel().Rules, a.info.Rules), only)})
	}
	return out
}

// rulesDifference names the knobs whose values differ between a model's
// rules (JSON) and a run's, as "knob: model's → run's".
func rulesDifference(modelRules json.RawMessage, rules any) string {
	var was, now map[string]json.RawMessage
	b, _ := json.Marshal(rules)
	if json.Unmarshal(modelRules, &was) != nil || json.Unmarshal(b, &now) != nil {
		return "its rules are not recorded"
	}
	compact := func(v json.RawMessage) string { return string(CompactJSON(v)) }
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(now)) {
		if compact(was[k]) != compact(now[k]) {
			diffs = append(diffs, fmt.Sprintf("`%s`: %s → %s", k, orAbsent(compact(was[k])), compact(now[k])))
		}
	}
	if len(diffs) == 0 {
		return "the same knobs, another version's rules"
	}
	return strings.Join(diffs, ", ")
}

// orAbsent writes a JSON value, or "absent".
func orAbsent(v string) string {
	if v == "" {
		return "absent"
	}
	return v
}

// pairedRate is a rate over seat-swapped pairs: the count and rate over
// all games, the interval from the pairs (PairedWilson).
func pairedRate(count, n int, pairs *stats.Pentanomial) Rate {
	r := NewRate(count, n)
	if pairs.Pairs() > 0 {
		iv := pairs.PairedWilson(stats.Z95)
		r.Low, r.High = iv.Low, iv.High
	}
	return r
}
