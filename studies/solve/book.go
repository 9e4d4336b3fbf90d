package solve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// BookStates bounds the positions the solve behind an opening book
// enumerates: about a second of solving, a few hundred megabytes at most.
const BookStates = 2_000_000

// ScriptStates bounds the positions a solve behind a ladder's proof or an
// opening book enumerates for a scripted game (tic-tac-toe's 5,478 fit):
// its positions are script values, held within the scripts' memory bound
// (script.MaxHeap), which a larger graph would pass and stop the run.
const ScriptStates = 20_000

func init() { variants.OpeningBooks = OpeningBook }

// books caches the opening books built in this process, by game, rules
// and length: every job of a run (and every rung of a ladder) shares one.
var books struct {
	sync.Mutex
	built map[string]sim.Book
	err   map[string]error
}

// OpeningBook returns the opening book of c.Book decisions for the
// variant's rules (after its opening:), solving them (within BookStates
// positions; beyond, a SearchBook proving each book move by search) the
// first time they are asked for (the variants.OpeningBooks of every program
// that links this package).
func OpeningBook(c *variants.Config) (sim.Book, error) {
	rules, err := json.Marshal(c.Rules)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s %s %d %q", c.Definition.Name, rules, c.Book, c.Opening)
	books.Lock()
	defer books.Unlock()
	if b, ok := books.built[key]; ok {
		return b, nil
	}
	if err, ok := books.err[key]; ok {
		return nil, err
	}
	limit := BookStates
	if c.ScriptOf() != nil {
		limit = ScriptStates
	}
	var b sim.Book
	_, full, err := NewBook(context.Background(), c, Options{MaxStates: limit}, c.Book)
	var tooLarge *TooLargeError
	switch {
	case err == nil:
		b = full
	case errors.As(err, &tooLarge):
		// Too many positions to enumerate: each book move proven by search.
		var searched *SearchBook
		if searched, err = NewSearchBook(context.Background(), c, c.Book); err == nil {
			b = searched
		} else {
			err = fmt.Errorf("an opening book draws its moves from proofs, and these rules have more than %s positions, the most the full solve enumerates, and by search: %v", bots.Thousands(limit), err)
		}
	default:
		err = fmt.Errorf("an opening book draws its moves from playtest solve: %v", err)
	}
	if err != nil {
		if books.err == nil {
			books.err = map[string]error{}
		}
		books.err[key] = err
		return nil, err
	}
	if books.built == nil {
		books.built = map[string]sim.Book{}
	}
	books.built[key] = b
	return b, nil
}

// Book is an opening book drawn from a solve (implements sim.Book): over
// a game's first Plies decisions it plays, uniformly at random, one of the
// moves that keep the position's value for the player who makes it — a
// winning move where one wins, a drawing move where the best is a draw,
// any move where every move loses. Every opening it plays therefore has
// the variant's proven value: perfect play from it ends as perfect play
// from the start does, so a ladder's bots get varied games without a
// different answer to find.
type Book struct {
	// Plies is how many decisions the book makes in each game.
	Plies int
	// Keep is how many of the start's moves keep its value (of Openings).
	Keep, Openings int
	gr             *graph
	sol            *solution
}

// NewBook solves the variant (as Run does, within opts.MaxStates) and
// returns its result and an opening book of plies decisions.
func NewBook(ctx context.Context, cfg *variants.Config, opts Options, plies int) (*Result, *Book, error) {
	if plies < 1 || plies > 64 {
		return nil, nil, fmt.Errorf("an opening book of %d decisions: want 1 to 64", plies)
	}
	res, gr, sol, err := run(ctx, cfg, opts)
	if err != nil {
		return nil, nil, err
	}
	// What the book looks up: keys, movers, winners and values.
	gr.succ, gr.off, gr.depth, sol.dist = nil, nil, nil, nil
	b := &Book{Plies: plies, gr: gr, sol: sol}
	g, _, err := solverGame(cfg)
	if err != nil {
		return nil, nil, err
	}
	start := cfg.OpeningState(g)
	_, b.Keep = b.keeping(start, nil)
	b.Openings = len(start.LegalMoves(nil))
	return res, b, nil
}

// BookMove plays one of the value-keeping moves in s while the game is
// within the book's decisions and s is a position of the solve.
func (b *Book) BookMove(s games.State, decision int, rng *pcg.Rand) (games.Move, bool) {
	if decision >= b.Plies {
		return 0, false
	}
	keep, n := b.keeping(s, nil)
	if n == 0 {
		return 0, false
	}
	return keep[rng.IntN(n)], true
}

// keeping appends to buf the legal moves of s that keep its value for the
// player to move, and returns them with their count (none when s is not a
// position of the solve, or not a seat's decision).
func (b *Book) keeping(s games.State, buf []games.Move) ([]games.Move, int) {
	mover := s.CurrentPlayer()
	if _, ok := s.(games.Keyer); !ok || s.IsTerminal() || mover != games.Seat0 && mover != games.Seat1 {
		return buf, 0
	}
	if _, found := b.gr.index(s); !found {
		return buf, 0
	}
	best := int8(-1)
	child := s.Clone()
	for _, m := range s.LegalMoves(nil) {
		child.CopyFrom(s)
		child.Apply(m)
		c, found := b.gr.index(child)
		if !found {
			return buf[:0], 0
		}
		v := rank(b.sol.forMover(b.gr, mover, c))
		switch {
		case v > best:
			best, buf = v, append(buf[:0], m)
		case v == best:
			buf = append(buf, m)
		}
	}
	return buf, len(buf)
}

// rank orders a value for the mover: a loss below a draw below a win.
func rank(v int8) int8 {
	switch v {
	case valWin:
		return 2
	case valDraw:
		return 1
	}
	return 0
}
