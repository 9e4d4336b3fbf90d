package reports

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"strings"
	"testing"

	"playtest/games"
	"playtest/internal/testenv"
	"playtest/sim"
	"playtest/sim/bots"
)

var update = flag.Bool("update", false, "rewrite golden files")

// records builds 10 synthetic games of a sided game: seat 0 wins 5 (with
// side A, except the two after a swap), seat 1 wins 3, two draws (one
// stalled).
func records() []*sim.Record {
	var out []*sim.Record
	add := func(winner games.Player, reason string, plies int, sides []int, metrics ...games.Metric) {
		out = append(out, &sim.Record{
			Index: len(out), Deal: len(out) / 2, Swapped: len(out)%2 == 1,
			Result: games.Result{Winner: winner, Reason: reason}, Plies: plies, Decisions: plies,
			PlayerDecisions: plies, Choices: plies / 2, LegalMoves: 3 * plies,
			Sides: sides, Metrics: metrics,
		})
	}
	ab, ba := []int{0, 1}, []int{1, 0}
	add(games.Seat0, "capture-threshold", 10, ab, games.Value("captures", 3), games.Rate("first_capture.capturer_wins", true))
	add(games.Seat0, "capture-threshold", 12, ab, games.Value("captures", 4), games.Rate("first_capture.capturer_wins", true))
	add(games.Seat0, "capture-threshold", 14, ba, games.Value("captures", 2), games.Rate("first_capture.capturer_wins", false))
	add(games.Seat0, "capture-threshold", 20, ba, games.Value("captures", 5))
	add(games.Seat0, "no-legal-move", 30, ab)
	add(games.Seat1, "capture-threshold", 8, ab, games.Value("captures", 1))
	add(games.Seat1, "capture-threshold", 9, ab)
	add(games.Seat1, "capture-threshold", 40, ab)
	add(games.NoPlayer, "repetition", 50, ab)
	add(games.NoPlayer, "max-plies", 300, ab)
	return out
}

func summary() *Summary { return summaryOf(true) }

// summaryOf aggregates records(), in seat-swapped pairs or not.
func summaryOf(pairs bool) *Summary {
	a := NewAggregator(RunInfo{
		Game: "stacktics", Variant: "golden", ConfigHash: "sha256:test", Seed: 7, Pairs: pairs,
		Rules:   map[string]int{"size": 3},
		Players: [2]bots.Spec{{Bot: "greedy", Params: &bots.GreedyParams{}}, {Bot: "random", Params: &bots.NoParams{}}},
		Sides:   []string{"A", "B"},
	})
	for _, r := range records() {
		a.Add(r)
	}
	return a.Summary(Timing{Workers: 1, ElapsedSeconds: 1})
}

func TestAggregate(t *testing.T) {
	s := summary()
	if s.Outcomes != (Outcomes{Seat0: 5, Seat1: 3, Draw: 2}) || s.Games != 10 {
		t.Errorf("outcomes %+v", s.Outcomes)
	}
	if s.Stalled.Count != 1 || s.DrawReasons["repetition"] != 1 || s.WinReasons["capture-threshold"] != 7 {
		t.Errorf("reasons %+v %+v %+v", s.Stalled, s.DrawReasons, s.WinReasons)
	}
	// Side A won games 0, 1, 4 (seat 0 on A) and 2, 3 were won by seat 0 on
	// B; seat 1 (on B) won 5, 6, 7.
	if s.Sides[0].Wins.Count != 3 || s.Sides[1].Wins.Count != 5 {
		t.Errorf("sides %+v", s.Sides)
	}
	// Player 0 sits in seat 0 in even games and in seat 1 in odd ones: it
	// wins 0, 2, 4 (seat 0) and 5, 7 (seat 1); loses 1, 3, 6; draws 8, 9.
	p0 := s.Players[0]
	if p0.Wins != 5 || p0.Losses != 3 || p0.Draws != 2 || math.Abs(p0.Score.Mean-0.6) > 1e-12 {
		t.Errorf("player 0 %+v", p0)
	}
	if s.Plies.Median != 17 || s.Plies.Max != 300 || s.Plies.Mean != 49.3 {
		t.Errorf("plies %+v", s.Plies)
	}
	if b := s.Metrics[0].Mean.Bootstrap; b == nil || b.Low > 3 || b.High < 3 || b.Low < 1 || b.High > 5 {
		t.Errorf("captures (3, 4, 2, 5, 1): bootstrap interval %+v", b)
	}
	if len(s.Metrics) != 2 || s.Metrics[0].Name != "captures" || s.Metrics[0].Mean.N != 5 ||
		s.Metrics[1].Rate.Count != 2 || s.Metrics[1].Rate.N != 3 {
		t.Errorf("metrics %+v", s.Metrics)
	}
}

// TestBalance checks the Ludii balance metrics and the pair statistics of
// the synthetic games, worked by hand.
func TestBalance(t *testing.T) {
	b := summary().Balance
	if b.AdvantageP1.Count != 5 || b.Completion.Count != 8 || b.Drawishness.Count != 1 || b.Timeouts.Count != 1 || b.AdvantageP1.N != 10 {
		t.Errorf("rates %+v", b)
	}
	// In pairs, seat 0's totals are 2, 2, 1, 0, 1: pair means 1, 1, ½, 0,
	// ½, mean 0.6, unbiased variance 0.7/4 = 0.175, shrunk toward the
	// binomial 0.24/2 = 0.12 by 3 pseudo-pairs: 0.154375, a design effect
	// of 1.286458 and 7.7733 effective games; the score 0.1 / √(¼/7.7733)
	// = 0.5576 gives p = 0.5771. Deviations +1, +1, 0, −1, 0 from even:
	// every sign pattern of the three non-zero ones sums to at least 1
	// away from 0, so the exact sign-flip p is 1.
	if math.Abs(b.SeatBiasP-0.57711) > 1e-4 || b.SeatBiasTest != TestPairScore || b.SeatBiasN != 5 ||
		b.SeatBiasExactP != 1 || b.SeatBiasExactTest != TestSignFlip {
		t.Errorf("seat bias p %v by %q over %d, exact %v by %q", b.SeatBiasP, b.SeatBiasTest, b.SeatBiasN, b.SeatBiasExactP, b.SeatBiasExactTest)
	}
	// Without pairs: Wilson's score test of 5 seat-0 wins in 8 decisive
	// games, z = 0.125/√(¼/8) = 0.7071, p = 0.4795; the exact binomial
	// test, 1 − P(4).
	if u := summaryOf(false).Balance; math.Abs(u.SeatBiasP-0.47950) > 1e-4 || u.SeatBiasTest != TestWilsonScore || u.SeatBiasN != 8 ||
		math.Abs(u.SeatBiasExactP-(1-70.0/256)) > 1e-9 || u.SeatBiasExactTest != TestBinomial {
		t.Errorf("unpaired seat bias p %v by %q over %d, exact %v", u.SeatBiasP, u.SeatBiasTest, u.SeatBiasN, u.SeatBiasExactP)
	}
	// 1 − |0.5 − 0.3| with the interval of the difference crossing zero:
	// without pairs the multinomial one; in pairs twice the paired
	// score's interval less one (the difference is 2·score − 1 game by
	// game).
	u := summaryOf(false).Balance
	se := math.Sqrt((0.8 - 0.04) / 10)
	if math.Abs(u.Balance.Value-0.8) > 1e-12 || math.Abs(u.Balance.Low-(1-(0.2+1.959963984540054*se))) > 1e-9 || u.Balance.High != 1 {
		t.Errorf("unpaired balance %+v", u.Balance)
	}
	paired := summary()
	iv := paired.PairStats.Seat0.CI
	if math.Abs(b.Balance.Value-0.8) > 1e-12 || math.Abs(b.Balance.Low-(1-(2*iv.High-1))) > 1e-9 || b.Balance.High != 1 {
		t.Errorf("paired balance %+v (the paired score's interval %+v), unpaired %+v", b.Balance, iv, u.Balance)
	}
	// Every rate of the balance is over the pairs, as the outcomes' are.
	if b.AdvantageP1 != paired.Rates.Seat0 || b.Completion.Low != 1-paired.Rates.Draw.High || b.Completion.High != 1-paired.Rates.Draw.Low {
		t.Errorf("advantage %+v against seat 0's rate %+v; completion %+v against draws %+v", b.AdvantageP1, paired.Rates.Seat0, b.Completion, paired.Rates.Draw)
	}
	if b.AdvantageP1 == u.AdvantageP1 {
		t.Errorf("the advantage's interval ignores the pairs: %+v", b.AdvantageP1)
	}
	// Σ plies = 493 decisions, Σ ⌊plies/2⌋ = 246 with a choice, 3 moves each.
	if b.PlayerDecisions != 493 || b.BranchingFactor != 3 || math.Abs(b.DecisionMoves-246.0/493) > 1e-12 {
		t.Errorf("decisions %+v", b)
	}
	if b.UncountedDecisions != 0 || b.CountedDecisions() != 493 || b.DecisionsText() != "493 decisions" {
		t.Errorf("counted decisions %d of %d: %q", b.CountedDecisions(), b.PlayerDecisions, b.DecisionsText())
	}
	if b.DurationTurns.Value != 49.3 || b.DurationTurns.Low >= 49.3 || b.DurationTurns.High <= 49.3 {
		t.Errorf("duration %+v", b.DurationTurns)
	}
	// Pairs (seat 0's score over the pair; player 0's): (2, 1), (2, 1),
	// (1, 2), (0, 1), (1, 1).
	ps := summary().PairStats
	if ps == nil || ps.Seat0.Counts != [5]int{1, 0, 2, 0, 2} || ps.Player0.Counts != [5]int{0, 0, 4, 0, 1} || math.Abs(ps.Seat0.Score-0.6) > 1e-12 {
		t.Errorf("pair stats %+v", ps)
	}
}

// TestSampledDecisions checks the branching figures of games whose moves
// were counted at some decisions only (sim.Record.Uncounted): they are
// over the counted decisions, which the text and the tables give as their
// sample size, and a record with more uncounted decisions than decisions
// is refused.
func TestSampledDecisions(t *testing.T) {
	a := NewAggregator(RunInfo{Game: "stacktics", Variant: "sampled", Seed: 1,
		Players: [2]bots.Spec{{Bot: "random", Params: &bots.NoParams{}}, {Bot: "random", Params: &bots.NoParams{}}}})
	// 20 decisions, 2 of them counted, with 30 and 1 legal moves; 10
	// decisions, 1 counted, with 50.
	for i, r := range []sim.Record{
		{PlayerDecisions: 20, Uncounted: 18, Choices: 1, LegalMoves: 31},
		{PlayerDecisions: 10, Uncounted: 9, Choices: 1, LegalMoves: 50},
	} {
		r.Index, r.Deal, r.Plies, r.Decisions, r.Result = i, i, r.PlayerDecisions, r.PlayerDecisions, games.Result{Winner: games.Seat0, Reason: "capture-threshold"}
		if err := a.info.CheckRecord(&r); err != nil {
			t.Fatal(err)
		}
		a.Add(&r)
	}
	b := a.Summary(Timing{Workers: 1}).Balance
	if b.PlayerDecisions != 30 || b.UncountedDecisions != 27 || b.CountedDecisions() != 3 || b.BranchingFactor != 27 || b.DecisionMoves != 2.0/3 {
		t.Errorf("balance %+v", b)
	}
	if got, want := b.DecisionsText(), "30 decisions (moves counted at 3 of them)"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	bad := sim.Record{Index: 2, PlayerDecisions: 3, Uncounted: 4, Result: games.Result{Winner: games.Seat0, Reason: "capture-threshold"}}
	if err := a.info.CheckRecord(&bad); err == nil {
		t.Error("a record with 4 of 3 decisions uncounted passed the check")
	}
}

func TestJSONIsStable(t *testing.T) {
	var a, b bytes.Buffer
	if err := summary().WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	_ = summary().WriteJSON(&b)
	if a.String() != b.String() {
		t.Fatal("two summaries of the same records differ")
	}
	var m map[string]any
	if err := json.Unmarshal(a.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"schema", "game", "variant", "config_hash", "seed", "games", "outcomes", "draw_reasons", "plies", "timing"} {
		if _, ok := m[key]; !ok {
			t.Errorf("summary.json lacks %q", key)
		}
	}
	if m["schema"] != SchemaV1 {
		t.Errorf("schema %v", m["schema"])
	}
	plies := m["plies"].(map[string]any)
	for _, key := range []string{"mean", "median", "p05", "p95", "max"} {
		if _, ok := plies[key]; !ok {
			t.Errorf("plies lacks %q", key)
		}
	}
}

func TestTableGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := summary().WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "table.golden", buf.Bytes(), *update)
}

func TestSummaryRoundTrip(t *testing.T) {
	var a bytes.Buffer
	if err := summary().WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSummary(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("summary.json does not round-trip:\n%s\n%s", a.String(), b.String())
	}
	if _, err := ReadSummary(bytes.NewReader([]byte(`{"schema": "other"}`))); err == nil {
		t.Error("a foreign schema was accepted")
	}
}

func TestGamesCSVRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	info := RunInfo{Seed: 7, Players: [2]bots.Spec{{Bot: "greedy"}, {Bot: "random"}}}
	w, err := NewGamesWriter(&buf, info, []string{"captures", "first_capture.capturer_wins", "never"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records() {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	var rows []*GameRow
	if err := ReadGames(&buf, func(r *GameRow) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 10 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[1] // swapped: random sat in seat 0
	if r.Index != 1 || r.Seed != 7 || r.Pair != 0 || !r.Swapped || r.Bots != [2]string{"random", "greedy"} ||
		r.Winner != "seat0" || r.Reason != "capture-threshold" || r.Plies != 12 || len(r.Metrics) != 2 || r.Metrics[0].Value != 4 {
		t.Errorf("row %+v", r)
	}
	if rows[8].Winner != "draw" {
		t.Errorf("draw row %+v", rows[8])
	}
	// Wide format: one column per metric, empty where a game has none.
	lines := strings.Split(text, "\n")
	if !strings.HasSuffix(lines[0], ",decisions,captures,first_capture.capturer_wins,never") || !strings.HasSuffix(lines[4], ",5,,") {
		t.Errorf("wide columns:\n%s\n%s", lines[0], lines[4])
	}
	var bad bytes.Buffer
	w, _ = NewGamesWriter(&bad, info, []string{"captures"})
	if err := w.Write(records()[0]); err == nil {
		t.Error("a metric without a column was written")
	}
	if err := ReadGames(bytes.NewReader([]byte("a,b\n")), func(*GameRow) error { return nil }); err == nil {
		t.Error("a bad header was accepted")
	}
}

// TestBookBotIsSaid checks that a run whose openings a book bot chose
// says so under its header and in summary.json (book, book_bot), and
// that a run without one says neither.
func TestBookBotIsSaid(t *testing.T) {
	a := NewAggregator(RunInfo{Game: "stacktics", Variant: "booked", Seed: 7, Pairs: true, Book: 6, BookBot: "alphabeta, 500 nodes (noise 0.5)", Sides: []string{"A", "B"},
		Players: [2]bots.Spec{{Bot: "greedy", Params: &bots.GreedyParams{}}, {Bot: "random", Params: &bots.NoParams{}}}})
	for _, r := range records() {
		a.Add(r)
	}
	for _, c := range []struct {
		s    *Summary
		want bool
	}{{a.Summary(Timing{Workers: 1}), true}, {summary(), false}} {
		var text, js bytes.Buffer
		if err := c.s.WriteTable(&text); err != nil {
			t.Fatal(err)
		}
		if err := c.s.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(text.String(), "Each deal's first 6 decisions were chosen by the book bot alphabeta, 500 nodes (noise 0.5) (not proven")
		inJSON := strings.Contains(js.String(), `"book_bot": "alphabeta, 500 nodes (noise 0.5)"`)
		if said != c.want || inJSON != c.want {
			t.Errorf("book bot %v: said %v, in JSON %v\n%s", c.want, said, inJSON, text.String())
		}
	}
}
