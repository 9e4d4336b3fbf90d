package solve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"playtest/games"
	"playtest/games/prove"
	"playtest/reports"
	"playtest/sim/bots"
	"playtest/variants"
)

// Analysis: the analysis board. From a position (the start, or after a
// line of play), every legal move's value for the player to move, proven
// by the prover where it finishes within its bound: a win or a loss with
// the decisions to the end (the winner ending as fast as it can, the loser
// holding out as long as it can), or a draw. A move it cannot prove within
// the bound is marked so, with the horizon within which nothing is forced.

// AnalysisSchema is the schema tag of playtest analyse's JSON.
const AnalysisSchema = "playtest/analyse/v1"

// DefaultAnalyseNodes bounds the positions searched for each move.
const DefaultAnalyseNodes = 50_000_000

// AnalyseOptions tune an analysis.
type AnalyseOptions struct {
	// From is the line of play to the position analysed (games.PlayLine),
	// empty for the start.
	From []string
	// MaxNodes bounds the positions searched for each move
	// (DefaultAnalyseNodes if 0).
	MaxNodes int64
	// MaxEntries bounds the prover's table (as SearchOptions').
	MaxEntries int
	// Progress, if set, is told the positions searched once a second.
	Progress func(nodes int64)
}

// Analysis is an analysed position.
type Analysis struct {
	Schema  string   `json:"schema"`
	Game    string   `json:"game"`
	Variant string   `json:"variant"`
	Label   string   `json:"label,omitempty"`
	From    []string `json:"from,omitempty"`
	// Mover is the player to move, for whom every value is stated.
	Mover    string         `json:"mover"`
	Position string         `json:"position"`
	Moves    []MoveAnalysis `json:"moves"`
	// Value is the position's value for the mover, when every move is
	// proven or a proven win settles it: "win", "draw", "loss"; else
	// "unknown".
	Value   string  `json:"value"`
	Verdict string  `json:"verdict"`
	Nodes   int64   `json:"nodes"`
	Seconds float64 `json:"seconds"`
}

// MoveAnalysis is one move's value for the mover.
type MoveAnalysis struct {
	Move string `json:"move"`
	// Value is "win", "draw" or "loss" where proven, else "unknown".
	Value string `json:"value"`
	// Plies is the decisions to the end with perfect play, counting this
	// move (for a proven win or loss whose distance was found).
	Plies  *int `json:"plies,omitempty"`
	Proven bool `json:"proven"`
	// Horizon, for a move not proven, is the most decisions after it
	// within which neither seat can force a win.
	Horizon int   `json:"horizon,omitempty"`
	Nodes   int64 `json:"nodes"`
}

// Analyse analyses the position after opts.From in the variant.
func Analyse(ctx context.Context, cfg *variants.Config, opts AnalyseOptions) (*Analysis, error) {
	from := cfg.Line(opts.From)
	_, _, s, err := solverStart(cfg, from)
	if err != nil {
		return nil, err
	}
	mover := s.CurrentPlayer()
	budget := opts.MaxNodes
	if budget <= 0 {
		budget = DefaultAnalyseNodes
	}
	se, err := prove.New(s, prove.Options{Entries: searchEntries(opts.MaxEntries), Context: ctx, Progress: opts.Progress})
	if err != nil {
		return nil, &UnsolvableError{err.Error()}
	}
	defer se.Close()
	begin := time.Now()
	a := &Analysis{Schema: AnalysisSchema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), From: from,
		Mover: mover.String(), Position: s.String()}
	for _, m := range s.LegalMoves(nil) {
		child := s.Clone()
		child.Apply(m)
		before := se.Nodes()
		ma, err := analyseMove(se, child, mover, budget)
		if err != nil {
			return nil, err
		}
		ma.Move, ma.Nodes = s.MoveString(m), se.Nodes()-before
		a.Moves = append(a.Moves, ma)
	}
	a.Nodes, a.Seconds = se.Nodes(), time.Since(begin).Seconds()
	a.Value, a.Verdict = verdict(a.Moves, budget)
	return a, nil
}

// analyseMove proves child (after a move of mover) for mover within
// budget positions: its value, then, for a win or a loss, its distance;
// where the value is not proven, the deepest horizon within which nothing
// is forced.
func analyseMove(se *prove.Searcher, child games.State, mover games.Player, budget int64) (MoveAnalysis, error) {
	if child.IsTerminal() {
		one := 1
		switch child.Result().Winner {
		case mover:
			return MoveAnalysis{Value: Win, Plies: &one, Proven: true}, nil
		case games.NoPlayer:
			return MoveAnalysis{Value: Draw, Proven: true}, nil
		}
		return MoveAnalysis{Value: Loss, Plies: &one, Proven: true}, nil
	}
	// forMover states a value of child's mover for mover.
	forMover := func(v prove.Value) prove.Value {
		if child.CurrentPlayer() != mover {
			v.Outcome = -v.Outcome
		}
		return v
	}
	se.Budget(budget)
	v, err := se.Decide(child)
	switch {
	case errors.Is(err, prove.ErrBudget):
		return unproven(se, child, mover, budget)
	case err != nil:
		return MoveAnalysis{}, searchError(err, budget)
	}
	ma := MoveAnalysis{Value: outcomeFor(forMover(v).Outcome, games.Seat0), Proven: true}
	if v.Outcome != 0 {
		// The distance: null-window searches, within their own bound.
		se.Budget(budget)
		exact, err := se.Distance(child, noHorizon)
		switch {
		case errors.Is(err, prove.ErrBudget):
		case err != nil:
			return MoveAnalysis{}, searchError(err, budget)
		default:
			d := exact.Plies + 1
			ma.Plies = &d
		}
	}
	return ma, nil
}

// noHorizon asks the prover for the value to the end of the game.
const noHorizon = 1 << 15

// unproven deepens a bounded proof of child one decision at a time within
// budget: a forced result found is proven (with its distance); else the
// deepest horizon searched is reported.
func unproven(se *prove.Searcher, child games.State, mover games.Player, budget int64) (MoveAnalysis, error) {
	se.Budget(budget)
	ma := MoveAnalysis{Value: Unknown}
	for d := 1; d < noHorizon; d++ {
		v, err := se.Score(child, d)
		switch {
		case errors.Is(err, prove.ErrBudget):
			return ma, nil
		case err != nil:
			return MoveAnalysis{}, searchError(err, budget)
		}
		if v.Outcome != 0 {
			if child.CurrentPlayer() != mover {
				v.Outcome = -v.Outcome
			}
			p := v.Plies + 1
			return MoveAnalysis{Value: outcomeFor(v.Outcome, games.Seat0), Plies: &p, Proven: true}, nil
		}
		ma.Horizon = d
	}
	return ma, nil
}

// verdict is the position's value and a sentence: which moves keep the
// best value proven.
func verdict(moves []MoveAnalysis, budget int64) (string, string) {
	rank := map[string]int{Loss: 0, Draw: 1, Win: 2}
	best, unknown := "", 0
	for _, m := range moves {
		if !m.Proven {
			unknown++
			continue
		}
		if best == "" || rank[m.Value] > rank[best] {
			best = m.Value
		}
	}
	var keep []string
	for _, m := range moves {
		if m.Proven && m.Value == best {
			keep = append(keep, m.Move)
		}
	}
	value := best
	if unknown > 0 && best != Win {
		value = Unknown // an unproven move may be better
	}
	if best == "" {
		return Unknown, fmt.Sprintf("No move is proven within %s positions each.", bots.Thousands(int(budget)))
	}
	what := map[string]string{Win: "wins", Draw: "keeps the draw", Loss: "loses"}[best]
	plural := map[string]string{Win: "win", Draw: "keep the draw", Loss: "lose"}[best]
	var sentence string
	switch {
	case best == Loss && unknown == 0:
		sentence = "Every move loses" + longestDefence(moves) + "."
	case len(keep) == 1 && unknown == 0:
		sentence = fmt.Sprintf("%s is the only move that %s.", keep[0], what)
	case len(keep) == len(moves):
		sentence = fmt.Sprintf("Every move %s.", what)
	case len(keep) == 1:
		sentence = fmt.Sprintf("%s %s.", keep[0], what)
	default:
		sentence = fmt.Sprintf("%s %s.", joinMoves(keep), plural)
	}
	if unknown > 0 {
		sentence += fmt.Sprintf(" %d move(s) not proven within %s positions each.", unknown, bots.Thousands(int(budget)))
	}
	return value, sentence
}

// longestDefence names the losing moves that hold out longest, where the
// distances are known: "; a and c hold out longest (12 decisions)".
func longestDefence(moves []MoveAnalysis) string {
	most := -1
	for _, m := range moves {
		if m.Plies != nil {
			most = max(most, *m.Plies)
		}
	}
	if most < 0 {
		return ""
	}
	var longest []string
	for _, m := range moves {
		if m.Plies != nil && *m.Plies == most {
			longest = append(longest, m.Move)
		}
	}
	verb := "holds"
	if len(longest) > 1 {
		verb = "hold"
	}
	return fmt.Sprintf("; %s %s out longest (%s)", joinMoves(longest), verb, decisions(most))
}

// joinMoves writes "a, b and c".
func joinMoves(ms []string) string {
	if len(ms) == 1 {
		return ms[0]
	}
	return strings.Join(ms[:len(ms)-1], ", ") + " and " + ms[len(ms)-1]
}

// WriteTable prints the position, each move's value and the verdict.
func (a *Analysis) WriteTable(w io.Writer) error {
	from := "the start"
	if len(a.From) > 0 {
		from = "after " + strings.Join(a.From, " ")
	}
	fmt.Fprintf(w, "%s: %s — %s, %s to move\n\n%s\n\n", a.Game, a.labelOr(), from, a.Mover, strings.TrimRight(a.Position, "\n"))
	t := reports.NewTable(w, "move", "value for "+a.Mover, "decisions to the end (this one included)", "proven", "positions searched")
	for _, m := range a.Moves {
		proven := "yes"
		switch {
		case !m.Proven && m.Horizon > 0:
			proven = fmt.Sprintf("no: nothing forced within %s after it", decisions(m.Horizon))
		case !m.Proven:
			proven = "no"
		}
		_ = t.Append(m.Move, m.Value, plies(m.Plies, "%d"), proven, bots.Thousands(int(m.Nodes)))
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n%s positions searched; %.1f s\n", a.Verdict, bots.Thousands(int(a.Nodes)), a.Seconds)
	return err
}

func (a *Analysis) labelOr() string {
	if a.Label != "" {
		return a.Label
	}
	return a.Variant
}
