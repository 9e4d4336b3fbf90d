package solve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"playtest/games"
	"playtest/sim"
	"playtest/variants"
)

// Schema is the schema tag of playtest solve's JSON.
const Schema = "playtest/solve/v1"

// DefaultMaxStates bounds the positions a solve enumerates by default.
const DefaultMaxStates = 50_000_000

// Outcomes of a position for the player who decides there.
const (
	Win  = "win"
	Loss = "loss"
	Draw = "draw"
)

// Options tune a solve.
type Options struct {
	// MaxStates bounds the positions enumerated: 0 means DefaultMaxStates,
	// or as many as fit in the memory playtest may use if fewer; a bound
	// that may not fit is refused (*MemoryError) before anything is
	// allocated.
	MaxStates int
	// NoSymmetry counts every position apart from its images under the
	// board's symmetries; by default a game that has them (games.Symmetric)
	// is solved one position of each class, with the same values.
	NoSymmetry bool
	// Progress, if set, is told what the solver is doing.
	Progress func(phase string, positions int)
	// From is a line of play: the solve starts after it (solverStart).
	From []string
}

// Result is a solved variant.
type Result struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	// From is the line of play the proof starts after (playtest solve
	// --from): values are then the position's, openings its moves.
	From []string `json:"from,omitempty"`
	// Mover is the player to move there, with From.
	Mover string `json:"mover,omitempty"`
	// Label names the variant with what --set changed in its rules.
	Label  string `json:"label,omitempty"`
	Source string `json:"source"`
	// Positions, Moves and Finished count the position graph: reachable
	// positions, moves between them, and positions where the game is over.
	Positions int `json:"positions,omitempty"`
	Moves     int `json:"moves,omitempty"`
	Finished  int `json:"finished,omitempty"`
	// UpToSymmetry says positions were counted one per class of the
	// board's symmetries (games.Symmetric): tic-tac-toe's 765, not 5,478.
	UpToSymmetry bool `json:"up_to_symmetry,omitempty"`
	// Horizon is a bounded proof's depth in decisions (0 for a full
	// solve), Nodes the positions it searched.
	Horizon int `json:"horizon,omitempty"`
	// Searched says the value was proven by alpha-beta search (Search):
	// exact, but without distances or lines, Positions then counting the
	// bounds the search kept.
	Searched bool  `json:"searched,omitempty"`
	Nodes    int64 `json:"nodes,omitempty"`
	// Value is the game-theoretic result with perfect play: "seat 0 wins",
	// "seat 1 wins", "draw", or for a bounded proof "unknown"; Plies the decisions to the end with perfect
	// play (the winner ending as fast as it can, the loser holding out as
	// long as it can); absent for a draw.
	Value string `json:"value"`
	Plies *int   `json:"plies,omitempty"`
	// Line is a line of perfect play that proves Value (each decision as
	// "seat0 b1S-c2"), the winner ending as fast as it can and the loser
	// holding out as long as it can; absent for a draw or unknown.
	Line []string `json:"line,omitempty"`
	// PieRule says the first opening is answered by a pie choice (keep or
	// swap): perfect play then lets seat 1 take whichever side wins.
	PieRule bool `json:"pie_rule,omitempty"`
	// Openings are seat 0's first decisions with their values for seat 0.
	Openings []Opening `json:"openings"`
	// MoveCap is the variant's move cap; the solve ignores it (and the
	// repetition rule: endless play is a draw), so Note says whether the
	// perfect-play distances fit under it.
	MoveCap int `json:"move_cap,omitempty"`
	// SetAside says the solver's rules differ from the variant's (a
	// repetition rule or move cap turned off, games.SolverRules): false for
	// games whose every line of play ends by itself (the m,n,k-games,
	// Connect Four).
	SetAside bool    `json:"set_aside,omitempty"`
	Note     string  `json:"note"`
	Seconds  float64 `json:"seconds"`
}

// Opening is one first decision.
type Opening struct {
	Move string `json:"move"`
	// Value is the result for seat 0 after it; Plies the decisions to the
	// end after it with perfect play (absent for a draw).
	Value string `json:"value"`
	Plies *int   `json:"plies,omitempty"`
	// Line is a line of perfect play after the opening that proves Value
	// (as Result.Line); absent for a draw or unknown.
	Line []string `json:"line,omitempty"`
	// Replier is the player who answers the opening ("seat1"); Replies
	// are its options when there are at most MaxListedReplies (a pie
	// rule's keep and swap), each with its value for the replier.
	Replier string  `json:"replier,omitempty"`
	Replies []Reply `json:"replies,omitempty"`
	// WinningReplies counts the replies that win for the answering player
	// (of AllReplies).
	WinningReplies int `json:"winning_replies"`
	AllReplies     int `json:"replies_count"`
}

// Reply is one answer to an opening.
type Reply struct {
	Move  string `json:"move"`
	Value string `json:"value"`
	Plies *int   `json:"plies,omitempty"`
}

// MaxListedReplies is how many replies an opening lists one by one.
const MaxListedReplies = 4

// solverGame builds the variant's game as the solver plays it: with the
// endings that depend on the history (repetition, move caps) off.
func solverGame(cfg *variants.Config) (games.Game, games.SolverRules, error) {
	sr, ok := cfg.Rules.(games.SolverRules)
	if !ok {
		return nil, nil, &UnsolvableError{fmt.Sprintf("%s cannot be solved exactly: only games of perfect information without chance can (Stacktics)", cfg.Definition.Title)}
	}
	rules := sr.ForSolver()
	if err := rules.Validate(); err != nil {
		return nil, nil, err
	}
	g, err := rules.NewGame()
	return g, sr, err
}

// checkSolvable checks that a game's states have exact keys and hide
// nothing. (Chance shows only once a chance node is reached.)
// solverStart is the game as the solver plays it (solverGame) and the
// position its proof starts from: the variant's start, or the position
// after the line of play from (games.PlayLine: a *games.LineError names an
// entry that cannot be played), checked solvable and unfinished.
func solverStart(cfg *variants.Config, from []string) (games.Game, games.SolverRules, games.State, error) {
	g, sr, err := solverGame(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	start := g.NewState()
	if err := checkSolvable(start); err != nil {
		return nil, nil, nil, err
	}
	if err := games.PlayLine(start, from); err != nil {
		return nil, nil, nil, err
	}
	if start.IsTerminal() {
		return nil, nil, nil, &UnsolvableError{"the game is over after those moves: nothing to solve"}
	}
	if p := start.CurrentPlayer(); p != games.Seat0 && p != games.Seat1 {
		return nil, nil, nil, &UnsolvableError{"the position is a chance event's: only a seat's decision can be solved"}
	}
	return g, sr, start, nil
}

// moverAfter names the player to move at start when a line of play led
// there ("" from the variant's start).
func moverAfter(from []string, start games.State) string {
	if len(from) == 0 {
		return ""
	}
	return start.CurrentPlayer().String()
}

func checkSolvable(s games.State) error {
	if _, ok := s.(games.Keyer); !ok {
		return &UnsolvableError{"the game's positions have no exact key: it cannot be solved"}
	}
	if _, hidden := s.(games.Determinizer); hidden {
		return &UnsolvableError{"the game hides information from the players: only games of perfect information can be solved"}
	}
	return nil
}

// gameValue states an outcome for seat as the game's value: "seat N wins"
// for a win or a loss, else the outcome itself ("draw", "unknown").
func gameValue(outcome string, d *int, seat games.Player) (string, *int) {
	switch outcome {
	case Win:
		return fmt.Sprintf("seat %d wins", seat), d
	case Loss:
		return fmt.Sprintf("seat %d wins", seat.Opponent()), d
	}
	return outcome, nil
}

// UnsolvableError says the variant's game cannot be solved exactly.
type UnsolvableError struct{ Reason string }

func (e *UnsolvableError) Error() string { return e.Reason }

// Run solves the variant: it enumerates every position reachable from the
// start (with the variant's history-dependent endings off) and runs a
// retrograde analysis over the graph.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Result, error) {
	res, _, _, err := run(ctx, cfg, opts)
	return res, err
}

// run is Run, also returning the graph and its solution.
func run(ctx context.Context, cfg *variants.Config, opts Options) (*Result, *graph, *solution, error) {
	from := cfg.Line(opts.From)
	g, sr, start, err := solverStart(cfg, from)
	if err != nil {
		return nil, nil, nil, err
	}
	keyLen := len(start.(games.Keyer).AppendKey(nil))
	fit := positionsThatFit(keyLen)
	maxStates := opts.MaxStates
	switch {
	case maxStates <= 0 && fit > 0:
		maxStates = min(DefaultMaxStates, fit)
	case maxStates <= 0:
		maxStates = DefaultMaxStates
	case fit > 0 && maxStates > fit:
		return nil, nil, nil, &MemoryError{MaxStates: maxStates, BytesPerPos: keyLen + bytesPerPosition, Usable: sim.Usable()}
	}
	begin := time.Now()
	progress := func(n, bytesEach int) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf("enumerating (about %d bytes a position)", bytesEach), n)
		}
	}
	gr, err := enumerate(ctx, g, start, maxStates, !opts.NoSymmetry, progress)
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) && opts.MaxStates <= 0 && maxStates == fit {
		tooLarge.ByMemory = true
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if opts.Progress != nil {
		opts.Progress("solving", len(gr.mover))
	}
	sol, err := retrograde(ctx, gr)
	if err != nil {
		return nil, nil, nil, err
	}
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Source: cfg.Source,
		From: from, Mover: moverAfter(from, start), Positions: len(gr.mover), Moves: len(gr.succ), MoveCap: sr.MoveCap()}
	res.UpToSymmetry = gr.symmetric
	for i := range gr.mover {
		if gr.mover[i] == terminalMover {
			res.Finished++
		}
	}
	res.Value, res.Plies = sol.valueForSeat(gr, 0, games.Seat0)
	res.Line = sol.line(gr, 0, start.Clone())
	res.Openings = openings(start, gr, sol)
	res.PieRule = pieRule(g, start)
	res.SetAside = games.SetsAside(cfg.Rules, sr)
	res.Note = res.note()
	res.Seconds = time.Since(begin).Seconds()
	return res, gr, sol, nil
}

// openings lists the decisions at s (the start) with their values for
// seat 0 (each position found by its key: the graph may keep another
// image of it).
func openings(s games.State, gr *graph, sol *solution) []Opening {
	moves := s.LegalMoves(nil)
	out := make([]Opening, 0, len(moves))
	for _, m := range moves {
		child := s.Clone()
		child.Apply(m)
		c, _ := gr.index(child)
		o := Opening{Move: s.MoveString(m)}
		o.Value, o.Plies = sol.outcome(gr, games.Seat0, c)
		o.Line = sol.line(gr, c, child.Clone())
		if gr.mover[c] != terminalMover {
			replier := games.Player(gr.mover[c])
			o.Replier = replier.String()
			replies := child.LegalMoves(nil)
			o.AllReplies = len(replies)
			for _, rm := range replies {
				grand := child.Clone()
				grand.Apply(rm)
				r, _ := gr.index(grand)
				v, plies := sol.outcome(gr, replier, r)
				if v == Win {
					o.WinningReplies++
				}
				if len(replies) <= MaxListedReplies {
					o.Replies = append(o.Replies, Reply{Move: child.MoveString(rm), Value: v, Plies: plies})
				}
			}
		}
		out = append(out, o)
	}
	return out
}

// pieRule says some opening of the game is answered by a pie choice (an
// opening that ends the game at once is answered by nothing), where the
// proof starts from the variant's start (from is it).
func pieRule(g games.Game, from games.State) bool {
	start := g.NewState()
	if from.Plies() != start.Plies() || from.CurrentPlayer() != start.CurrentPlayer() {
		return false
	}
	for _, m := range start.LegalMoves(nil) {
		s := start.Clone()
		s.Apply(m)
		if p, ok := s.(games.PieDecider); ok && p.PieDecision() {
			return true
		}
	}
	return false
}

// pieNote says what perfect play means under the pie rule, and what this
// solve found: seat 1 takes whichever side wins after the first move, so
// seat 0 can at best draw, and the variant is balanced exactly when some
// opening draws.
func (r *Result) pieNote() string {
	text := " With the pie rule, perfect play lets seat 1 take whichever side wins after an opening it answers, so such an opening can at best draw for seat 0; an opening that ends the game at once is answered by no choice."
	draws, unknown, wins := 0, 0, 0
	for _, o := range r.Openings {
		switch o.Value {
		case Draw:
			draws++
		case Unknown:
			unknown++
		case Win:
			wins++
		}
	}
	switch {
	case wins > 0:
		text += fmt.Sprintf(" Here %d of %d openings win for seat 0 before seat 1 can choose sides: the pie rule cannot answer them, and seat 0 wins by force.", wins, len(r.Openings))
	case draws > 0:
		text += fmt.Sprintf(" Here %d of %d openings draw: with the pie rule the variant is balanced under perfect play.", draws, len(r.Openings))
	case unknown > 0:
		text += fmt.Sprintf(" Here %d of %d openings are not proven within the horizon: the proof cannot say.", unknown, len(r.Openings))
	default:
		text += " Here every opening loses for seat 0: the pie rule hands seat 1 the win."
	}
	return text
}

// note says how the move cap and repetition were treated.
func (r *Result) note() string {
	text := "Solved over every position reachable from " + r.origin() + "; these rules end every game by themselves, so nothing was set aside."
	if r.SetAside {
		text = "Solved with the rules' endings that depend on the history (a repetition rule, a move cap) set aside: play that never ends counts as a draw, as a repetition rule makes it."
	}
	if r.PieRule {
		text += r.pieNote()
	}
	if r.MoveCap > 0 && r.Plies != nil {
		if *r.Plies <= r.MoveCap {
			text += fmt.Sprintf(" Perfect play ends in %d decisions, within the variant's max_plies of %d, so the cap does not change the value.", *r.Plies, r.MoveCap)
		} else {
			text += fmt.Sprintf(" Perfect play takes %d decisions, more than the variant's max_plies of %d: under the cap the game would stall first.", *r.Plies, r.MoveCap)
		}
	}
	return text
}
