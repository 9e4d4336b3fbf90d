package solve

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/prove"
	"playtest/sim/bots"
	"playtest/variants"
)

// BookNodes bounds each proof an opening book drawn from search makes:
// the start's value, and each candidate move's (5,5,4's start takes about
// 3 million positions, Connect Four 6 × 5's about 3 million).
const BookNodes = 50_000_000

// bookTableEntries sizes the prover's table of a book drawn from search
// (16 bytes an entry: 256 MiB), shared by every game of a run.
const bookTableEntries = 1 << 24

// SearchBook is an opening book drawn from proofs by search (implements
// sim.Book), for variants whose positions are too many for the full solve
// behind Book: over a game's first Plies decisions it plays a move drawn
// uniformly at random among those that keep the position's proven value
// for its mover, as Book does. It draws a move, proves whether it keeps
// the value (one null-window search, its table shared by every game of
// the run), and draws again among the rest until one does: uniform among
// the keeping moves, with about one proof a decision where most moves
// keep the value. Its moves depend only on the book's stream and the
// proven values, never on the order in which workers ask. A proof that
// passes BookNodes positions fails the game (a panic the runner records),
// never a silent change of book.
type SearchBook struct {
	// Plies is how many decisions the book makes in each game.
	Plies int
	// Value is the start's proven outcome for its mover (+1, 0, −1).
	Value int

	mu    sync.Mutex
	se    *prove.Searcher
	value map[string]int  // a position's outcome for its mover, by key
	keeps map[string]bool // whether a move keeps its position's value, by key and move
	legal []games.Move
	key   []byte
}

// NewSearchBook proves the variant's start (after its opening:) by search
// within BookNodes positions and returns a book of plies decisions drawn
// from it.
func NewSearchBook(ctx context.Context, cfg *variants.Config, plies int) (*SearchBook, error) {
	if plies < 1 || plies > variants.MaxBook {
		return nil, fmt.Errorf("an opening book of %d decisions: want 1 to %d", plies, variants.MaxBook)
	}
	if sr, ok := cfg.Rules.(games.SolverRules); !ok || games.SetsAside(cfg.Rules, sr) {
		return nil, &UnsolvableError{"a proof by search does not see this variant's repetition rule or move cap, so its book would not keep the value the rules give"}
	}
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	start := cfg.OpeningState(g)
	if err := checkSolvable(start); err != nil {
		return nil, err
	}
	se, err := prove.New(start, prove.Options{Entries: bookTableEntries, MaxNodes: BookNodes, Context: ctx})
	if err != nil {
		return nil, err
	}
	b := &SearchBook{Plies: plies, se: se, value: map[string]int{}, keeps: map[string]bool{}}
	if start.IsTerminal() || start.CurrentPlayer() == games.Chance {
		return nil, &UnsolvableError{"the book's first position is not a seat's decision"}
	}
	v, err := se.Decide(start)
	se.Close() // the book's later proofs stop by a signal, not by ctx
	switch {
	case errors.Is(err, prove.ErrBudget):
		return nil, fmt.Errorf("the prover does not settle the start within %s positions", bots.Thousands(BookNodes))
	case err != nil:
		return nil, err
	}
	b.Value = v.Outcome
	b.value[string(b.keyOf(start))] = v.Outcome
	return b, nil
}

func (b *SearchBook) keyOf(s games.State) []byte {
	b.key = s.(games.Keyer).AppendKey(b.key[:0])
	return b.key
}

// BookMove plays, while the game is within the book's decisions, a move
// drawn among those that keep s's value for its mover.
func (b *SearchBook) BookMove(s games.State, decision int, rng *pcg.Rand) (games.Move, bool) {
	if decision >= b.Plies || s.IsTerminal() {
		return 0, false
	}
	mover := s.CurrentPlayer()
	if mover != games.Seat0 && mover != games.Seat1 {
		return 0, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	key := string(b.keyOf(s))
	v, known := b.value[key]
	if !known {
		b.se.Budget(BookNodes)
		d, err := b.se.Decide(s)
		if stopped := b.check(err, s, "the position"); stopped {
			return 0, false
		}
		v = d.Outcome
		b.value[key] = v
	}
	b.legal = s.LegalMoves(b.legal[:0])
	for n := len(b.legal); n > 0; n-- {
		k := rng.IntN(n)
		m := b.legal[k]
		b.legal[k] = b.legal[n-1]
		memo := fmt.Sprintf("%s\x00%d", key, m)
		keeps, known := b.keeps[memo]
		if !known {
			b.se.Budget(BookNodes)
			var err error
			keeps, err = b.se.Keeps(s, m, v)
			if stopped := b.check(err, s, s.MoveString(m)); stopped {
				return 0, false
			}
			b.keeps[memo] = keeps
		}
		if keeps {
			child := s.Clone()
			child.Apply(m)
			if !child.IsTerminal() {
				cv := v
				if child.CurrentPlayer() != mover {
					cv = -v
				}
				b.value[string(b.keyOf(child))] = cv
			}
			return m, true
		}
	}
	panic(fmt.Sprintf("opening book: no move keeps the proven value after %d plies (a bug in the prover)", s.Plies()))
}

// check turns a proof's error into the book's: stopped for a signal, a
// panic that fails the game for a bound passed or another error.
func (b *SearchBook) check(err error, s games.State, what string) (stopped bool) {
	switch {
	case err == nil:
		return false
	case errors.Is(err, context.Canceled):
		return true
	case errors.Is(err, prove.ErrBudget):
		panic(fmt.Sprintf("opening book: the value of %s after %d plies was not proven within %s positions", what, s.Plies(), bots.Thousands(BookNodes)))
	}
	panic(fmt.Sprintf("opening book: %v", err))
}
