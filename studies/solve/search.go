package solve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"playtest/games"
	"playtest/games/prove"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// Proofs by search: where the position graph is too large to enumerate,
// the prover (games/prove: alpha-beta over exact or canonical keys with a
// table of bounds, null windows and the game's threat hooks) still proves
// a game's value when good moves are tried first: two null-window
// searches ask "can the mover force a win?" and "can the other seat?", and
// neither answer needs the whole graph (5,5,4's draw takes a few million
// positions where the graph has billions). It gives the value alone, and
// each opening's, without distances or lines. Positions that repeat would
// make a value depend on the path to it, so a search that meets one on
// its path stops and says so: the full solve (Run) handles repetition.

// DefaultSearchEntries bounds a search's table of bounds (16 bytes an
// entry): it grows to it, then replaces.
const DefaultSearchEntries = prove.DefaultEntries

// SearchOptions tune a proof by search.
type SearchOptions struct {
	// MaxEntries bounds the table of bounds (DefaultSearchEntries, or what
	// fits in the memory playtest may use if fewer, if 0).
	MaxEntries int
	// MaxNodes stops the search with a *TooLargeError past this many
	// positions (0: no bound; a signal stops it).
	MaxNodes int64
	// Progress, if set, is told the positions searched once a second.
	Progress func(nodes int64)
	// Proven, if set, is told each opening's value (for seat 0) as soon
	// as it is proven, with the positions searched so far.
	Proven func(opening, value string, nodes int64)
	// NoOpenings proves the start's value alone, not each opening's.
	NoOpenings bool
	// NoSymmetry keys every position apart from its symmetric images.
	NoSymmetry bool
	// From is a line of play: the proof starts after it (solverStart).
	From []string
}

// errRepeats stops a search that meets a position again on its path.
var errRepeats = &UnsolvableError{"a position repeats on a line of play: a proof by search would depend on the path; solve exactly without --search (it counts endless play a draw)"}

// searchEntries is the table a search may grow to: max, or the default
// bounded by the memory playtest may use.
func searchEntries(max int) int {
	if max > 0 {
		return max
	}
	return int(min(int64(DefaultSearchEntries), sim.Usable()/prove.EntryBytes))
}

// searchError states a prover's error as the solver's.
func searchError(err error, maxNodes int64) error {
	switch {
	case errors.Is(err, prove.ErrRepeats):
		return errRepeats
	case errors.Is(err, prove.ErrChance):
		return &UnsolvableError{"the game has chance events: only games without chance can be solved exactly"}
	case errors.Is(err, prove.ErrBudget):
		return &TooLargeError{Max: int(maxNodes), Searched: true}
	}
	return err
}

// Search proves the variant's value by alpha-beta search, and each
// opening's, and returns them in the shape of a solve (Nodes the
// positions searched, Positions the bounds kept; no distances or lines).
func Search(ctx context.Context, cfg *variants.Config, opts SearchOptions) (*Result, error) {
	from := cfg.Line(opts.From)
	g, sr, start, err := solverStart(cfg, from)
	if err != nil {
		return nil, err
	}
	se, err := prove.New(start, prove.Options{Entries: searchEntries(opts.MaxEntries), MaxNodes: opts.MaxNodes,
		NoSymmetry: opts.NoSymmetry, Context: ctx, Progress: opts.Progress})
	if err != nil {
		return nil, &UnsolvableError{err.Error()}
	}
	defer se.Close()
	begin := time.Now()
	// value is s's value for seat 0: 1, 0 or −1.
	value := func(s games.State) (int, error) {
		if s.IsTerminal() {
			return seat0Score(s.Result()), nil
		}
		v, err := se.Decide(s)
		if err != nil {
			return 0, searchError(err, opts.MaxNodes)
		}
		if s.CurrentPlayer() == games.Seat1 {
			return -v.Outcome, nil
		}
		return v.Outcome, nil
	}
	// Each opening is proven first, and the start's value is the best of
	// theirs for its mover: no search of its own, and a long proof (Connect
	// Four 7 × 6) reports its openings as it goes.
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Source: cfg.Source, From: from, Mover: moverAfter(from, start), MoveCap: sr.MoveCap(),
		UpToSymmetry: se.Symmetric(), PieRule: pieRule(g, start), Searched: true}
	if opts.NoOpenings {
		v, err := value(start)
		if err != nil {
			return nil, err
		}
		res.Value = seatValue(v)
	} else {
		best := -2
		for _, m := range start.LegalMoves(nil) {
			child := start.Clone()
			child.Apply(m)
			v, err := value(child)
			if err != nil {
				return nil, err
			}
			forMover := v
			if start.CurrentPlayer() == games.Seat1 {
				forMover = -v
			}
			best = max(best, forMover)
			o := Opening{Move: start.MoveString(m), Value: outcomeFor(v, games.Seat0)}
			if opts.Proven != nil {
				opts.Proven(o.Move, o.Value, se.Nodes())
			}
			// The replies are proven one by one only when they are few (a
			// pie rule's keep and swap): each is a proof of its own.
			if replies := child.LegalMoves(nil); !child.IsTerminal() && len(replies) <= MaxListedReplies {
				o.Replier = child.CurrentPlayer().String()
				o.AllReplies = len(replies)
				for _, rm := range replies {
					grand := child.Clone()
					grand.Apply(rm)
					rv, err := value(grand)
					if err != nil {
						return nil, err
					}
					out := outcomeFor(rv, child.CurrentPlayer())
					if out == Win {
						o.WinningReplies++
					}
					o.Replies = append(o.Replies, Reply{Move: child.MoveString(rm), Value: out})
				}
			}
			res.Openings = append(res.Openings, o)
		}
		if start.CurrentPlayer() == games.Seat1 {
			best = -best
		}
		res.Value = seatValue(best)
	}
	res.Nodes, res.Positions = se.Nodes(), se.Kept()
	res.Note = fmt.Sprintf("Proven by alpha-beta search (%s positions searched, %s bounds kept): the value with perfect play, not how long it takes.", bots.Thousands(int(se.Nodes())), bots.Thousands(se.Kept()))
	if res.PieRule {
		res.Note += res.pieNote()
	}
	res.Seconds = time.Since(begin).Seconds()
	return res, nil
}

// seat0Score is a finished game's result for seat 0: 1, 0 or −1.
func seat0Score(r games.Result) int { return int(r.ValueFor(games.Seat0)) }

// seatValue names a value for seat 0 as the game's ("seat 0 wins").
func seatValue(v int) string {
	value, _ := gameValue(outcomeFor(v, games.Seat0), nil, games.Seat0)
	return value
}

// outcomeFor is value v (for seat 0) as an outcome for who.
func outcomeFor(v int, who games.Player) string {
	if who == games.Seat1 {
		v = -v
	}
	switch v {
	case 1:
		return Win
	case -1:
		return Loss
	}
	return Draw
}
