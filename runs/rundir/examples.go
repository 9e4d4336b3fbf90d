package rundir

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"

	"playtest/games"
	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/publish"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/variants"
)

// MaxExampleBytes bounds the drawings of a run's example games (each
// position is a few kilobytes of SVG in report.html): games that would
// pass it are left out, except the first.
const MaxExampleBytes = 2 << 20

// pick is a chosen example game and why.
type pick struct {
	index int
	label string
}

// selection picks a few telling games from a stream of finished games
// without keeping them: the shortest and the longest win, a stalled game,
// the shortest win by the seat that won less often, and for each way a
// game ended the first of median length (it keeps the first game of each
// way and length, so that one pass over the log finds it).
type selection struct {
	shortest, longest *sim.Record // copies of the records' headers
	stalled           *sim.Record
	shortestBy        [2]*sim.Record
	seatWins          [2]int
	games             int
	reasons           []string // in order of first appearance
	lengths           map[string]*stats.Histogram
	firstOf           map[string]map[int]int // the first game of each reason and length
	typical           map[string]int         // the first game of each reason's median length
}

func newSelection() *selection {
	return &selection{lengths: map[string]*stats.Histogram{}, firstOf: map[string]map[int]int{}, typical: map[string]int{}}
}

func header(r *sim.Record) *sim.Record {
	return &sim.Record{Index: r.Index, Plies: r.Plies, Result: r.Result}
}

// see takes one finished game into account.
func (x *selection) see(r *sim.Record) {
	x.games++
	reason := r.Result.Reason
	if x.lengths[reason] == nil {
		x.lengths[reason] = &stats.Histogram{}
		x.firstOf[reason] = map[int]int{}
		x.reasons = append(x.reasons, reason)
	}
	x.lengths[reason].Add(r.Plies)
	if _, seen := x.firstOf[reason][r.Plies]; !seen {
		x.firstOf[reason][r.Plies] = r.Index
	}
	switch w := r.Result.Winner; {
	case w == games.Seat0 || w == games.Seat1:
		x.seatWins[w]++
		if x.shortest == nil || r.Plies < x.shortest.Plies {
			x.shortest = header(r)
		}
		if x.longest == nil || r.Plies > x.longest.Plies {
			x.longest = header(r)
		}
		if b := x.shortestBy[w]; b == nil || r.Plies < b.Plies {
			x.shortestBy[w] = header(r)
		}
	case games.IsStalled(reason) && x.stalled == nil:
		x.stalled = header(r)
	}
}

// typicals picks each reason's typical game, the first of its median
// length (a length some game had), once every game has been seen.
func (x *selection) typicals() {
	for reason, h := range x.lengths {
		half, seen := (h.N()+1)/2, 0
		for _, v := range h.Values() {
			if seen += h.Count(v); seen >= half {
				x.typical[reason] = x.firstOf[reason][v]
				break
			}
		}
	}
}

// picks lists the chosen games, each once, in order of interest.
func (x *selection) picks() []pick {
	var out []pick
	add := func(index int, label string) {
		if !slices.ContainsFunc(out, func(p pick) bool { return p.index == index }) {
			out = append(out, pick{index, label})
		}
	}
	if x.shortest != nil {
		add(x.shortest.Index, fmt.Sprintf("the shortest win (%d plies)", x.shortest.Plies))
		add(x.longest.Index, fmt.Sprintf("the longest win (%d plies)", x.longest.Plies))
	}
	if x.stalled != nil {
		add(x.stalled.Index, "a stalled game ("+x.stalled.Result.Reason+")")
	}
	weaker := games.Seat1
	if x.seatWins[1] > x.seatWins[0] {
		weaker = games.Seat0
	}
	if r := x.shortestBy[weaker]; r != nil {
		add(r.Index, fmt.Sprintf("a win by %s, the seat that won less often", weaker))
	}
	reasons := slices.Clone(x.reasons)
	slices.SortStableFunc(reasons, func(a, b string) int { return cmp.Compare(x.lengths[b].N(), x.lengths[a].N()) })
	for _, reason := range reasons {
		if index, ok := x.typical[reason]; ok {
			add(index, fmt.Sprintf("a typical game ended by %s (%d of %d games)", reason, x.lengths[reason].N(), x.games))
		}
	}
	return out
}

// examplesSelection returns an empty selection for the run's example
// games, or nil when the game draws no positions (no games.Drawer): such
// runs get no examples.json.
func examplesSelection(cfg *variants.Config) (*selection, error) {
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	if _, ok := g.NewState().(games.Drawer); !ok {
		return nil, nil
	}
	return newSelection(), nil
}

// writeExamples plays the games x picked (it has seen every game of the
// run) again from their seeds, draws every position, and writes
// examples.json for the board viewer.
func writeExamples(ctx context.Context, dir string, cfg *variants.Config, x *selection, summary *reports.Summary) error {
	x.typicals()
	ex := publish.Examples{Schema: publish.ExamplesSchema, Games: []publish.ExampleGame{}, Openings: drawOpenings(cfg, summary.Openings)}
	var mapping *howplays.Mapping
	if h := summary.HowItPlays; h != nil {
		mapping = &h.Mapping
	}
	budget := MaxExampleBytes
	for _, p := range x.picks() {
		game, err := exampleGame(ctx, cfg, p, mapping)
		if err != nil {
			return err
		}
		size := 0
		for _, f := range game.Frames {
			size += len(f)
		}
		if size > budget && len(ex.Games) > 0 {
			continue // too long for what is left of the budget
		}
		budget -= size
		ex.Games = append(ex.Games, *game)
	}
	return reports.WriteFileAtomic(filepath.Join(dir, publish.ExamplesFile), func(w io.Writer) error { return reports.WriteJSON(w, ex) })
}

// drawOpenings draws the position after each listed opening, when every
// game starts from the same position with a player to decide (nil
// otherwise, or without openings): a chance setup or a hidden one would
// make the position after an opening differ from game to game.
func drawOpenings(cfg *variants.Config, openings *reports.Openings) map[string]string {
	if openings == nil {
		return nil
	}
	g, err := cfg.NewGame()
	if err != nil {
		return nil
	}
	start := cfg.OpeningState(g)
	_, hidden := start.(games.Determinizer)
	if hidden || start.IsTerminal() || start.CurrentPlayer() == games.Chance {
		return nil
	}
	drawn := map[string]string{}
	for _, row := range openings.Rows {
		if row.Others {
			continue
		}
		s := start.Clone()
		m, err := s.ParseMove(row.Move)
		if err != nil {
			continue
		}
		s.Apply(m)
		if d, ok := s.(games.Drawer); ok {
			drawn[row.Move] = d.DrawSVG()
		}
	}
	if len(drawn) == 0 {
		return nil
	}
	return drawn
}

// exampleGame plays an example again from its seed (every game of a run
// comes out the same) and draws each position.
func exampleGame(ctx context.Context, cfg *variants.Config, p pick, mapping *howplays.Mapping) (*publish.ExampleGame, error) {
	job, err := Job(cfg)
	if err != nil {
		return nil, err
	}
	job.Moves = true
	if mapping != nil {
		job.Trace = p.index + 1 // traced, with the run's mapping, wherever it is in the run
	}
	rec, err := sim.Replay(ctx, job, p.index, nil)
	if err != nil {
		return nil, err
	}
	moves := rec.Moves
	_, swapped := job.Seating(p.index)
	seats := fmt.Sprintf("seat 0: player 0 (%s), seat 1: player 1 (%s)", cfg.Players[0].Describe(), cfg.Players[1].Describe())
	if swapped {
		seats = fmt.Sprintf("seat 0: player 1 (%s), seat 1: player 0 (%s)", cfg.Players[1].Describe(), cfg.Players[0].Describe())
	}
	game, err := DrawGame(job.Game, moves)
	if err != nil {
		return nil, fmt.Errorf("example game %d: %w", p.index, err)
	}
	game.Index, game.Label, game.Seats = p.index, p.label, seats
	if mapping != nil && len(rec.Trace)+1 == len(game.Frames) {
		g := howplays.NewGame(rec, *mapping)
		game.Trace, game.Turning = g.P, g.TurningPoints()
		for k, v := range game.Trace {
			game.Trace[k] = math.Round(v*1000) / 1000
		}
	}
	return game, nil
}

// DrawGame plays moves (a game's entries in its notation) from the start
// and draws every position, for the board viewer. The game's states must
// implement games.Drawer.
func DrawGame(g games.Game, moves []string) (*publish.ExampleGame, error) {
	s := g.NewState()
	drawer, ok := s.(games.Drawer)
	if !ok {
		return nil, fmt.Errorf("%s cannot draw its positions", g.Name())
	}
	game := &publish.ExampleGame{Moves: moves, Frames: []string{drawer.DrawSVG()}}
	for k, text := range moves {
		game.Movers = append(game.Movers, s.CurrentPlayer().String())
		m, err := s.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("entry %d %q: %w", k+1, text, err)
		}
		s.Apply(m)
		game.Frames = append(game.Frames, drawer.DrawSVG())
	}
	game.Result = "unfinished"
	if s.IsTerminal() {
		game.Result = fmt.Sprintf("%s after %d plies", games.ResultText(s.Result()), s.Plies())
	}
	return game, nil
}
