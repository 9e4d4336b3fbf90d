package howplays

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/sim/model"
)

// line is a synthetic game whose figures are known by construction: a
// line of plies, forced but for a first choice when choose is set, whose
// heuristic gives seat 0 the lead leads[ply] (from the last entry on, the
// last); at the end, the seat the first choice named wins (move 0: seat
// 0), or with coin a fair chance outcome decides. A ply in forcing is a
// forcing move (a capture the judge searches through).
type line struct {
	plies   int
	choose  bool
	coin    bool
	leads   []float64
	forcing map[int]bool
}

type lineState struct {
	g      *line
	ply    int
	choice games.Move
	winner games.Player
	over   bool
}

func (g *line) Name() string          { return "line" }
func (g *line) NewState() games.State { return &lineState{g: g, winner: games.NoPlayer} }
func (g *line) MaxLegalMoves() int    { return 2 }

func (s *lineState) CurrentPlayer() games.Player {
	switch {
	case s.over:
		return games.Terminal
	case s.ply == s.g.plies:
		return games.Chance
	}
	return games.Player(s.ply % 2)
}

func (s *lineState) LegalMoves(buf []games.Move) []games.Move {
	if s.over || s.ply == s.g.plies {
		return buf
	}
	if s.ply == 0 && s.g.choose {
		return append(buf, 0, 1)
	}
	return append(buf, 0)
}

func (s *lineState) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome {
	if s.over || s.ply != s.g.plies {
		return buf
	}
	if s.g.coin {
		return append(buf, games.ChanceOutcome{Move: 0, Weight: 1}, games.ChanceOutcome{Move: 1, Weight: 1})
	}
	return append(buf, games.ChanceOutcome{Move: s.choice, Weight: 1})
}

func (s *lineState) Apply(m games.Move) {
	if s.ply == s.g.plies {
		s.winner, s.over = games.Player(m), true
		return
	}
	if s.ply == 0 {
		s.choice = m
	}
	s.ply++
}

func (s *lineState) Evaluate(seat games.Player) float64 {
	lead := 0.0
	if n := len(s.g.leads); n > 0 {
		lead = s.g.leads[min(s.ply, n-1)]
	}
	if s.g.choose && s.ply > 0 {
		lead = 3 * (1 - 2*float64(s.choice)) // the choice decides
	}
	if seat == games.Seat0 {
		return lead / 2
	}
	return -lead / 2
}

func (s *lineState) ForcingMoves(buf []games.Move) []games.Move {
	if s.g.forcing[s.ply] && !s.over && s.ply < s.g.plies {
		return append(buf, 0)
	}
	return buf
}

func (s *lineState) Clone() games.State     { c := *s; return &c }
func (s *lineState) CopyFrom(o games.State) { *s = *o.(*lineState) }
func (s *lineState) IsTerminal() bool       { return s.over }
func (s *lineState) Result() games.Result   { return games.Result{Winner: s.winner, Reason: "line"} }
func (s *lineState) Plies() int             { return s.ply }
func (s *lineState) MoveString(m games.Move) string {
	return strconv.Itoa(int(m))
}
func (s *lineState) ParseMove(t string) (games.Move, error) {
	n, err := strconv.Atoi(t)
	return games.Move(n), err
}
func (s *lineState) String() string { return fmt.Sprintf("ply %d", s.ply) }

// playLine plays n games of g with random bots, traced, and reads them
// with the mapping (fitted when m is nil).
func playLine(t *testing.T, g *line, n int, m *Mapping) []Game {
	t.Helper()
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	job := &sim.Job{Game: g, Players: [2]bots.Spec{random, random}, Games: n, Seed: 3, Trace: n}
	var recs []*sim.Record
	if err := sim.Run(context.Background(), job, sim.Options{Workers: 2}, func(r *sim.Record) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	if m == nil {
		var traces [][]int32
		var scores []float64
		for _, r := range recs {
			traces = append(traces, r.Trace)
			scores = append(scores, r.Result.ValueFor(games.Seat0)/2+0.5)
		}
		f := Fit(traces, scores)
		m = &f
	}
	var out []Game
	for _, r := range recs {
		if len(r.Trace) != r.Decisions {
			t.Fatalf("game %d: %d trace entries for %d decisions", r.Index, len(r.Trace), r.Decisions)
		}
		out = append(out, NewGame(r, *m))
	}
	return out
}

func figure(t *testing.T, figs []Figure, name string) Figure {
	t.Helper()
	for _, f := range figs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no figure %q in %v", name, figs)
	return Figure{}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.4f, want %.4f ± %g", what, got, want, tol)
	}
}

// A coin flip after forced moves: no skill, nothing to judge, so the
// fitted mapping says the same throughout, seat 0's observed share (½ up
// to the sample's noise): uncertainty near 1, no lead change, decided only
// by the result (nothing played after), one turning point (the flip), a
// fair coin's outcome uniformity.
func TestCoinFlipGame(t *testing.T) {
	gs := playLine(t, &line{plies: 6, coin: true}, 400, nil)
	figs := Measure(gs, false, 1)
	near(t, "uncertainty", figure(t, figs, "uncertainty").Value, 1, 0.1)
	for _, g := range gs {
		if g.P[0] != gs[0].P[0] || g.P[len(g.P)-2] != gs[0].P[0] {
			t.Fatalf("game %d: trace %v, want one constant chance", g.Index, g.P)
		}
	}
	near(t, "lead changes", figure(t, figs, "lead_changes").Value, 0, 0)
	near(t, "after decided", figure(t, figs, "after_decided").Value, 0, 0)
	near(t, "decided at", figure(t, figs, "decided_at").Value, 7, 0)
	near(t, "turning points", figure(t, figs, "turning_points").Value, 1, 0)
	near(t, "stability", figure(t, figs, "stability").Value, 1, 1e-9)
	u := figure(t, figs, "outcome_uniformity")
	near(t, "outcome uniformity", u.Value, 0.75, 0.01)
	// 1 − variance is at least 0.75 in every resample: the interval's
	// low end is the fair coin's.
	if u.Low > 0.7501 || u.High < 0.75 || u.N != 400 {
		t.Errorf("outcome uniformity %+v: its interval should reach the fair coin's 0.75", u)
	}
	near(t, "decision moves", figure(t, figs, "decision_moves").Value, 0, 0)
	for _, f := range figs {
		if f.Name == "coverage" || f.Name == "repetition" || f.Name == "clarity" {
			t.Errorf("figure %q for a game without a board, hashes or a search bot", f.Name)
		}
	}
}

// A game decided by its first move: the winner's chance is above 90% from
// decision 1 on, so 7 of its 8 decisions (7 plies and the result's chance
// node) are played after it was decided. Before the first move the game
// is even (up to the sample's seat balance): no drama.
func TestGameDecidedOnTheFirstMove(t *testing.T) {
	gs := playLine(t, &line{plies: 7, choose: true}, 200, nil)
	figs := Measure(gs, false, 1)
	near(t, "decided at", figure(t, figs, "decided_at").Value, 1, 0)
	near(t, "after decided", figure(t, figs, "after_decided").Value, 7.0/8, 1e-9)
	near(t, "lead changes", figure(t, figs, "lead_changes").Value, 0, 0)
	near(t, "drama", figure(t, figs, "drama").Value, 0, 0.06)
	near(t, "comebacks", figure(t, figs, "comeback").Value, 0, 0)
	near(t, "turning points", figure(t, figs, "turning_points").Value, 1, 0)
	near(t, "decision moves", figure(t, figs, "decision_moves").Value, 1.0/7, 1e-9)
	near(t, "decision factor", figure(t, figs, "decision_factor").Value, 2, 0)
}

// A lead that alternates every move under a model's mapping changes hands
// at every decision: 7 changes in a game of 8 leads and the result.
func TestLeadThatAlternates(t *testing.T) {
	leads := []float64{2, -2, 2, -2, 2, -2, 2, -2}
	m := Mapping{Source: MappingModel, B: 1}
	gs := playLine(t, &line{plies: 8, coin: true, leads: leads}, 100, &m)
	figs := Measure(gs, false, 1)
	// 8 leads alternate (7 changes); the result adds one for the half of
	// the games seat 0 wins (the last lead is seat 1's).
	lc := figure(t, figs, "lead_changes")
	if lc.Value < 7 || lc.Value > 8 || lc.Low < 7 || lc.High > 8 {
		t.Errorf("lead changes %+v, want between 7 and 8", lc)
	}
	for _, g := range gs {
		want := 7
		if g.Seat0 == 1 {
			want = 8
		}
		if got := g.LeadChanges(); got != want {
			t.Errorf("game %d: %d lead changes, want %d", g.Index, got, want)
		}
	}
	// The 7 steps between the 8 leads move the chance by σ(2) − σ(−2) =
	// 0.76 (turning points); the chance node keeps seat 1's lead, and the
	// result is one more turning point when seat 0 wins.
	step := 2*0.8807970779778823 - 1
	near(t, "stability", figure(t, figs, "stability").Value, 1-7*step/8, 1e-9)
	for _, g := range gs {
		if want := 7 + int(g.Seat0); len(g.TurningPoints()) != want {
			t.Errorf("game %d: turning points %v, want %d", g.Index, g.TurningPoints(), want)
		}
	}
}

// A capture and its recapture are not two lead changes: the judge searches
// through the forcing moves, so the position after the capture is judged
// with the recapture played.
func TestCaptureAndRecaptureAreNoLeadChange(t *testing.T) {
	// Ply 2 captures (seat 0 leads by 3), ply 3 recaptures (even again);
	// both are forcing moves.
	g := &line{plies: 6, coin: true, leads: []float64{0, 0, 0, 3, 0}, forcing: map[int]bool{2: true, 3: true}}
	m := Mapping{Source: MappingModel, B: 1}
	for _, gm := range playLine(t, g, 20, &m) {
		if gm.LeadChanges() > 1 || len(gm.TurningPoints()) != 1 {
			t.Fatalf("game %d: %d lead changes, turning points %v, trace %v: the capture was judged before its recapture", gm.Index, gm.LeadChanges(), gm.TurningPoints(), gm.P)
		}
	}
	// Without the forcing moves the judge sees the capture alone.
	g.forcing = nil
	seen := false
	for _, gm := range playLine(t, g, 20, &m) {
		seen = seen || len(gm.TurningPoints()) > 1
	}
	if !seen {
		t.Fatal("the static evaluation should show the capture as a turning point: the test cannot fail")
	}
}

// The fit is the outcomes' logistic: leads that predict the result give a
// positive slope; the mapping of a decided entry is the winner's.
func TestFit(t *testing.T) {
	traces := [][]int32{{100, 200}, {-100, -300}, {50, 10}, {-20, 0}}
	scores := []float64{1, 0, 1, 0.5}
	m := Fit(traces, scores)
	if m.B <= 0 || m.Source != MappingFitted {
		t.Fatalf("fit %+v: want a positive slope", m)
	}
	if m.P(sim.TraceDecided, 0) != 1 || m.P(-sim.TraceDecided, 3) != 0 {
		t.Error("a decided entry should map to the winner's 1 or 0")
	}
	// Only a proof reads 100% or 0%: the largest lead short of a decided
	// entry reads at most MaxUnproven, as shown to one decimal.
	for _, e := range []int32{sim.TraceDecided - 1, 1 << 20, 50_000} {
		for _, sign := range []int32{1, -1} {
			p := m.P(sign*e, 0)
			if p > MaxUnproven || p < 1-MaxUnproven || strings.HasPrefix(fmt.Sprintf("%.1f", 100*p), "100") || fmt.Sprintf("%.1f", 100*p) == "0.0" {
				t.Errorf("an unproven lead of %d reads %.6f: only a proof reads 100%% or 0%%", sign*e, p)
			}
		}
	}
	if again := Fit(traces, scores); again != m {
		t.Errorf("fit not deterministic: %+v then %+v", m, again)
	}
	if empty := Fit(nil, nil); empty.B != 0 || empty.A != 0 {
		t.Errorf("no data: %+v", empty)
	}
}

// TestFitSeesTheOpening (issue 58): where the first decisions' leads do
// not show a seat advantage (even leads, yet seat 0 wins only 30% from
// the start) that fades as the game goes on, and later leads are
// calibrated, the opening term carries it: the fit reads about 30% at an
// even lead at the first decision and about 50% late in the game; where
// there is no such advantage the score test leaves the term out (0). Each game gives one
// entry, at decision t, after t entries of a proof the fit leaves out.
func TestFitSeesTheOpening(t *testing.T) {
	rng := pcg.New(7, 7)
	for _, p := range []float64{0.3, 0.5} {
		d := math.Log(p / (1 - p))
		m := Fit(tracesOf(oneEntryGames(rng, 20000, 40, 0, 1.5, func(lead float64, at int) float64 {
			return lead + d*math.Exp(-float64(at)/OpeningDecay)
		})))
		first, late := m.P(0, 0), m.P(0, 40)
		wantLate := model.Sigmoid(d * math.Exp(-40.0/OpeningDecay))
		t.Logf("seat 0 at %.0f%% from the start: %+v: %.3f at an even lead at the first decision, %.3f at the 41st", 100*p, m, first, late)
		if math.Abs(first-p) > 0.03 || math.Abs(late-wantLate) > 0.03 {
			t.Errorf("seat 0 wins %.0f%% from the start: the fit reads %.3f at an even lead at the first decision and %.3f at the 41st (want %.3f)", 100*p, first, late, wantLate)
		}
		if (p == 0.5) != (m.D == 0) {
			t.Errorf("seat 0 wins %.0f%% from the start: an opening term of %.3f (want one only where there is an advantage to carry)", 100*p, m.D)
		}
	}
}

// TestFitSeesTheFadingSlope: where a lead is worth more early in the game
// than late (leads that grow as the game goes on), the fading slope
// carries it: the fit reads the true chance early and late; where the
// lead is worth the same throughout, the term stays out.
func TestFitSeesTheFadingSlope(t *testing.T) {
	rng := pcg.New(5, 9)
	const length = 40 // every trace's length: the span
	for _, fade := range []float64{0, 0.8} {
		logit := func(lead float64, at int) float64 {
			return lead * (1 - fade + fade*math.Exp(-float64(at)/length))
		}
		m := Fit(tracesOf(oneEntryGames(rng, 20000, length, length, 1.5, logit)))
		t.Logf("a slope fading by %.1f: %+v", fade, m)
		if m.Span != length {
			t.Errorf("the fading term's span is %g, want the traces' length %d", m.Span, length)
		}
		for _, at := range []int{0, length - 1} {
			if got, want := m.P(150, at), model.Sigmoid(logit(1.5, at)); math.Abs(got-want) > 0.03 {
				t.Errorf("a slope fading by %.1f: the fit reads %.3f at a lead of 1.5 before decision %d, want %.3f", fade, got, at, want)
			}
		}
		if (fade == 0) != (m.E == 0) {
			t.Errorf("a slope fading by %.1f: a fading term of %.3f (want one only where the slope fades)", fade, m.E)
		}
	}
}

// oneEntryGames draws n games, each of whose traces has one entry the fit
// reads, at a decision below maxAt, the others a proof's: length entries
// (at + 1 when length is 0). Its lead is scale times a standard normal,
// and seat 0 wins with chance σ(logit(lead, at)).
func oneEntryGames(rng *pcg.Rand, n, maxAt, length int, scale float64, logit func(lead float64, at int) float64) []Game {
	normal := func() float64 { // Box–Muller
		return math.Sqrt(-2*math.Log(1-rng.Float64())) * math.Cos(2*math.Pi*rng.Float64())
	}
	gs := make([]Game, n)
	for i := range gs {
		at, lead := rng.IntN(maxAt), scale*normal()
		gs[i].Index = i
		if rng.Float64() < model.Sigmoid(logit(lead, at)) {
			gs[i].Seat0 = 1
		}
		gs[i].Trace = make([]int32, max(length, at+1))
		for k := range gs[i].Trace {
			gs[i].Trace[k] = sim.TraceDecided
		}
		gs[i].Trace[at] = int32(100 * lead)
	}
	return gs
}

// tracesOf is the games' traces and seat 0's results, for Fit.
func tracesOf(gs []Game) ([][]int32, []float64) {
	traces, scores := make([][]int32, len(gs)), make([]float64, len(gs))
	for i, g := range gs {
		traces[i], scores[i] = g.Trace, g.Seat0
	}
	return traces, scores
}

// docs/how-it-plays.md defines every figure in the words the reports use,
// under the anchor they link to.
func TestDocsDefineEveryFigure(t *testing.T) {
	doc, err := os.ReadFile("../../docs/how-it-plays.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range Glossary() {
		row := fmt.Sprintf("| <a id=\"fig-%s\"></a>%s | `%s` | %s |", g[0], g[1], g[0], g[2])
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/how-it-plays.md lacks the row\n%s", row)
		}
	}
}

// TestReliabilitySeesMiscalibration: chances that come true hold every
// decile within a few points; chances pushed away from ½ (overconfident)
// show gaps in the outer deciles with intervals that exclude 0; a proof's
// 1 is counted apart.
func TestReliabilitySeesMiscalibration(t *testing.T) {
	build := func(stretch float64) *Reliability {
		rng := pcg.New(7, 7)
		var gs []Game
		for i := range 20000 {
			truth := 0.05 + 0.9*rng.Float64()
			shown := model.Sigmoid(stretch * math.Log(truth/(1-truth)))
			g := Game{Index: i, Seat0: 0, Trace: []int32{int32(i), 0}}
			if rng.Float64() < truth {
				g.Seat0 = 1
			}
			g.P = []float64{shown, shown, g.Seat0}
			if i == 0 {
				g.P = []float64{shown, 1, g.Seat0}
			}
			gs = append(gs, g)
		}
		return measureReliability(gs)
	}
	fair := build(1)
	if fair.Proven != 1 || fair.Entries != 39999 {
		t.Errorf("%d proven, %d judged: want 1 and 39,999", fair.Proven, fair.Entries)
	}
	if fair.LogLoss >= fair.ConstantLogLoss {
		t.Errorf("true chances: log-loss %.3f not below the constant's %.3f", fair.LogLoss, fair.ConstantLogLoss)
	}
	for _, d := range fair.Judged() {
		if !d.Holds() {
			t.Errorf("true chances: decile %.1f–%.1f gap %+.3f [%+.3f, %+.3f]", d.Low, d.High, d.Gap(), d.GapLow, d.GapHigh)
		}
	}
	if len(fair.Judged()) != 10 {
		t.Errorf("true chances: %d deciles judged, want 10", len(fair.Judged()))
	}
	bold := build(2.5)
	top := bold.Deciles[9]
	if top.Games < ReliableGames || top.Holds() || top.GapHigh >= 0 {
		t.Errorf("overconfident chances: top decile %+v: want a gap below −5 points whose interval excludes 0", top)
	}
	if s := bold.Summary(); !strings.Contains(s, "deciles") {
		t.Errorf("summary %q", s)
	}
}

// TestNoGameIsReadWithAFitToItsOwnResult: the figures read each game with
// the logistic fitted to the other folds' games, so a game's chances do
// not move when its own result changes; the fit to all (the report's
// Mapping) does move. A mapping fitted to the games it judges fails this.
func TestNoGameIsReadWithAFitToItsOwnResult(t *testing.T) {
	build := func(flip bool) ([]Game, *calibration) {
		rng := pcg.New(3, 3)
		gs := make([]Game, 200)
		for i := range gs {
			lead := int32(rng.IntN(801)) - 400
			gs[i] = Game{Index: i, Trace: []int32{0, lead / 2, lead}, P: make([]float64, 4)}
			if rng.Float64() < model.Sigmoid(float64(lead)/200) {
				gs[i].Seat0 = 1
			}
		}
		if flip {
			gs[0].Seat0 = 1 - gs[0].Seat0
		}
		return gs, calibrate(gs, unitsOf(gs, false), false, nil)
	}
	before, c0 := build(false)
	after, c1 := build(true)
	if c0.all.Folds != CrossFolds {
		t.Fatalf("200 games not cross-fitted: %+v", c0.all)
	}
	if c0.all == c1.all {
		t.Error("the fit to all did not move with a result: the test cannot tell")
	}
	for k, p := range before[0].P[:3] {
		if after[0].P[k] != p {
			t.Errorf("game 0's chance before decision %d moved from %.6f to %.6f when its own result changed: it was read with a fit to its own result", k, p, after[0].P[k])
		}
	}
	moved := 0
	for i := 1; i < len(before); i++ {
		if before[i].P[1] != after[i].P[1] {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no other game's chances moved: the other folds' fits ignore game 0")
	}
}

// TestReliabilityWordsFitTheNumbers: the sentence's verdict on the
// log-loss never contradicts the figures it prints.
func TestReliabilityWordsFitTheNumbers(t *testing.T) {
	for _, c := range []struct {
		loss, constant float64
		want           string
	}{{0.6931, 0.6934, "no better than"}, {0.687, 0.692, "barely better than"}, {0.577, 0.692, "(better than"}, {0.701, 0.692, "no better than"}} {
		r := &Reliability{Entries: 10, Games: 2, LogLoss: c.loss, ConstantLogLoss: c.constant}
		if s := r.Summary(); !strings.Contains(s, c.want+" knowing nothing") {
			t.Errorf("log-loss %.4f against %.4f: %q, want %q", c.loss, c.constant, s, c.want)
		}
	}
	// A decile's verdict at the tenth of a point its gap is shown to.
	for _, c := range []struct {
		gap   float64
		holds bool
	}{{0.05, true}, {-0.0504, true}, {0.0506, false}, {-0.051, false}} {
		d := Decile{Predicted: 0.5, Observed: 0.5 + c.gap}
		if d.Holds() != c.holds {
			t.Errorf("a gap of %+.4f (shown %+.1f): holds %v, want %v", c.gap, 100*c.gap, d.Holds(), c.holds)
		}
	}
	// Too few games for any decile to be judged: said so, not "0 of 0".
	few := &Reliability{Entries: 10, Games: 2, LogLoss: 0.5, ConstantLogLoss: 0.6, Deciles: []Decile{{Entries: 10, Games: 2}}}
	if s := few.Summary(); strings.Contains(s, "0 of the 0") || !strings.Contains(s, "no decile holds decisions of 200 different games yet") {
		t.Errorf("no decile judged: %q", s)
	}
}

// TestRepeatedGamesAreNotJudged (issue 58): a decile is judged on
// different games. 1,000 games that replay two lines (one won, one lost;
// no fingerprints, so told apart by trace and result) give no decile of
// 200 different games, so none is judged, however far its gap; 1,000
// games with different fingerprints are.
func TestRepeatedGamesAreNotJudged(t *testing.T) {
	build := func(different bool) *Reliability {
		var gs []Game
		for i := range 1000 {
			g := Game{Index: i, Seat0: float64(i % 2), Trace: []int32{40, 40}}
			if different {
				// Told apart by their fingerprints (their decisions),
				// though their traces are alike.
				g.Fingerprint = uint64(i + 1)
			}
			g.P = []float64{0.95, 0.95, g.Seat0}
			gs = append(gs, g)
		}
		return measureReliability(gs)
	}
	few := build(false)
	if d := few.Deciles[9]; d.Games != 1000 || d.Different != 2 || len(few.Judged()) != 0 {
		t.Errorf("two lines replayed: top decile %d games, %d different, %d deciles judged; want 1,000, 2 and none", d.Games, d.Different, len(few.Judged()))
	}
	if s := few.Summary(); !strings.Contains(s, "no decile holds decisions of 200 different games") {
		t.Errorf("two lines replayed: %q", s)
	}
	// At the threshold: 200 different games are judged, 199 are not.
	for _, c := range []struct{ different, judged int }{{199, 0}, {200, 1}} {
		r := Reliability{Entries: 900, Games: 300, LogLoss: 0.5, ConstantLogLoss: 0.6, Deciles: []Decile{{Entries: 900, Games: 300, Different: c.different, Predicted: 0.5, Observed: 0.5}}}
		want := "no decile holds decisions of 200 different games"
		if c.judged == 1 {
			want = "1 of the 1 deciles"
		}
		if len(r.Judged()) != c.judged || !strings.Contains(r.Summary(), want) {
			t.Errorf("%d different games: %d judged, %q; want %d and %q", c.different, len(r.Judged()), r.Summary(), c.judged, want)
		}
	}
	// A summary written before games were told apart is judged on its
	// games.
	old := Reliability{Deciles: []Decile{{Entries: 900, Games: 300}}}
	if len(old.Judged()) != 1 {
		t.Errorf("a decile of 300 games without a count of different ones is not judged")
	}
	many := build(true)
	if j := many.Judged(); len(j) != 1 || j[0].Different != 1000 || j[0].Holds() {
		t.Errorf("1,000 different games: judged %+v, want the top decile, 1,000 different, missing by 45 points", j)
	}
}

// TestResamplesTakeTheOpeningTestAgain: where the games show an opening
// advantage near the score test's threshold, the bootstrap's resamples
// decide the term again, some keeping it and some not, so that the
// intervals include the choice; a resample without it refits from the
// fit without the term.
func TestResamplesTakeTheOpeningTestAgain(t *testing.T) {
	rng := pcg.New(11, 3)
	const d = -0.3
	gs := oneEntryGames(rng, 3000, 24, 0, 1, func(lead float64, at int) float64 {
		return lead + d*math.Exp(-float64(at)/OpeningDecay)
	})
	c := calibrate(gs, unitsOf(gs, false), false, nil)
	if !c.free[openingTerm] || c.all.D == 0 || c.bare.D != 0 {
		t.Fatalf("the games' opening advantage is not seen: terms %v, the fit %+v, without the term %+v", c.free, c.all, c.bare)
	}
	maps := make([]Mapping, CrossFolds)
	kept := 0
	const resamples = 200
	for range resamples {
		sample := make([]int, len(gs))
		for i := range sample {
			sample[i] = rng.IntN(len(gs))
		}
		_, all := c.refit(sample, maps)
		if want := termShows(c.scores, sample, openingTerm); (all.D != 0) != want {
			t.Fatalf("a resample's refit has an opening term of %.3f, its own test says %v", all.D, want)
		}
		if all.D != 0 {
			kept++
		}
	}
	t.Logf("%d resamples of %d keep the opening term (the fit: %+v)", kept, resamples, c.all)
	if kept == 0 || kept == resamples {
		t.Errorf("%d resamples of %d keep the opening term: the choice is not taken again", kept, resamples)
	}
}
