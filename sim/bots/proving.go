package bots

import (
	"errors"
	"math/bits"
	"slices"

	"playtest/games"
	"playtest/games/prove"
)

// The prove: knob of alphabeta. Before it plays, the bot tries to prove
// the position's value with the prover (games/prove) within a bound of
// positions, and where it is proven plays a move proven to keep it: the
// heuristic search decides among the moves that keep a won, drawn or lost
// game, and never gives a proven value away where the proof was within
// reach. Where the bound passes first, the search's move is played as
// without the knob.

// ProveRulesChecker is implemented by the parameters of bots with a knob
// that needs rules a proof sees (alphabeta's prove:): CheckProveRules
// refuses, before any game, a variant whose positions the prover cannot
// search. The variant loader calls it for every player and every bot given
// on the command line.
type ProveRulesChecker interface {
	CheckProveRules(r games.Rules) error
}

// CheckProveRules refuses prove: where a proof would not be the game's
// (proofStart).
func (p *AlphaBetaParams) CheckProveRules(r games.Rules) error {
	if p.Prove == 0 {
		return nil
	}
	_, why, err := proofStart(r)
	if err != nil || why == "" {
		return err
	}
	return &RefusedError{"the prover's values would not be the game's: " + why + "; set prove: 0"}
}

// Prover table sizes: about eight decisions' bounds of entries, from 1 MiB
// to 64 MiB.
const (
	minProveEntries = 1 << 16
	maxProveEntries = 1 << 22
)

// proveEntries is the prover's table in entries for a decision's bound.
func (p *AlphaBetaParams) proveEntries() int {
	if p.Prove == 0 {
		return 0
	}
	n := 1 << bits.Len64(uint64(8*p.Prove-1))
	return min(max(n, minProveEntries), maxProveEntries)
}

// proveBytes is the prover's table in bytes (0 without prove:).
func (p *AlphaBetaParams) proveBytes() int64 {
	return int64(p.proveEntries()) * prove.EntryBytes
}

// provenValue is what the last decision's proof found.
type provenValue struct {
	known   bool // the root's value was proven
	outcome int  // +1 a win, 0 a draw, −1 a loss, for the bot's seat
}

// proveRoot tries to prove s's value for its mover within params.Prove
// positions (its table kept from the game's earlier decisions), leaving it
// in b.proven; false where the bound passed first, or where no proof is
// the position's (a restricted player, a chance node).
func (b *AlphaBeta) proveRoot(s games.State) bool {
	b.proven = provenValue{}
	// A restricted player's proven value is not the position's (the proof
	// does not see the restriction): it plays as without prove:.
	if b.proveOff || b.filter != nil || !games.Provable(s) {
		return false
	}
	if b.prover == nil {
		se, err := prove.New(s, prove.Options{Entries: b.params.proveEntries(), Fixed: true, Stop: b.stop})
		if err != nil {
			b.proveOff = true
			return false
		}
		b.prover = se
	}
	b.prover.Budget(int64(b.params.Prove))
	v, err := b.prover.Decide(s)
	if err != nil {
		b.stopProving(err)
		return false
	}
	b.proven = provenValue{known: true, outcome: v.Outcome}
	return true
}

// stopProving turns the prover off for the rest of the game after an
// error other than its bound (a chance node, a repeated position, a stop):
// Reset turns it on again.
func (b *AlphaBeta) stopProving(err error) {
	if !errors.Is(err, prove.ErrBudget) {
		b.proveOff = true
	}
}

// keeps proves, within what is left of the decision's bound, whether m
// keeps the proven value: stop is true once the bound has passed.
func (b *AlphaBeta) keeps(s games.State, m games.Move) (ok, stop bool) {
	ok, err := b.prover.Keeps(s, m, b.proven.outcome)
	if err != nil {
		b.stopProving(err)
		return false, true
	}
	return ok, false
}

// provenWin returns, in a position proven won (proveRoot), a move proven
// to keep the win, without a search: the first that does in the proof's
// own order, whose first move is the one that proved the win. ok is false
// where the bound passes first.
func (b *AlphaBeta) provenWin(s games.State, legal []games.Move) (games.Move, bool) {
	b.order = append(b.order[:0], legal...)
	b.prover.Order(s, b.order)
	b.tried = b.tried[:0]
	return b.firstKeeping(s, b.order)
}

// keepProven returns, after the search, in a position whose value is
// proven (proveRoot), a move proven to keep it: on a noisy decision the
// noise's draws among the moves within noise of the best, each proven
// before it is played and drawn again among the rest when it gives the
// value away; then the search's best move (best), then the others by
// their root value. A lost position keeps its value whatever is played:
// the search's choice (or the noise's). ok is false where the bound
// passes first: the caller plays as without prove:.
func (b *AlphaBeta) keepProven(s games.State, legal []games.Move, best games.Move, varied bool) (games.Move, bool) {
	if b.proven.outcome < 0 {
		if varied {
			return b.noisy(best), true
		}
		return best, true
	}
	b.tried = b.tried[:0]
	for varied {
		m, ok := b.noisyExcept(b.tried)
		if !ok {
			break
		}
		switch keep, stop := b.keeps(s, m); {
		case stop:
			return 0, false
		case keep:
			return m, true
		}
		b.tried = append(b.tried, m)
	}
	return b.firstKeeping(s, b.byValue(legal, best))
}

// firstKeeping returns the first of moves, those in b.tried aside, proven
// to keep the proven value; ok is false where the bound passes first (or,
// which a proof rules out, where none keeps it).
func (b *AlphaBeta) firstKeeping(s games.State, moves []games.Move) (games.Move, bool) {
	for _, m := range moves {
		if slices.Contains(b.tried, m) {
			continue
		}
		switch keep, stop := b.keeps(s, m); {
		case stop:
			return 0, false
		case keep:
			return m, true
		}
	}
	return 0, false
}

// byValue returns the legal moves in the bot's own buffer: best first,
// then those of the deepest finished depth by their root value (ties in
// search order), then any the search did not finish.
func (b *AlphaBeta) byValue(legal []games.Move, best games.Move) []games.Move {
	b.order, b.orderValues = append(b.order[:0], best), b.orderValues[:0]
	if b.searched > 0 { // else the values are an earlier decision's
		for i, m := range b.lastOrder {
			if m != best {
				b.order = append(b.order, m)
				b.orderValues = append(b.orderValues, b.lastValues[i])
			}
		}
	}
	rest := b.order[1:]
	for i := 1; i < len(rest); i++ { // insertion sort, stable
		for j := i; j > 0 && b.orderValues[j] > b.orderValues[j-1]; j-- {
			b.orderValues[j], b.orderValues[j-1] = b.orderValues[j-1], b.orderValues[j]
			rest[j], rest[j-1] = rest[j-1], rest[j]
		}
	}
	for _, m := range legal {
		if !slices.Contains(b.order, m) {
			b.order = append(b.order, m)
		}
	}
	return b.order
}

// resetProver starts a new game's proofs from an empty table, so that a
// game's moves do not depend on the games its bot played before (nor so
// on the number of workers).
func (b *AlphaBeta) resetProver() {
	b.proveOff, b.proven = false, provenValue{}
	if b.prover != nil {
		b.prover.Reset()
	}
}

// provenRootValue is a proven win's or loss's value for the trace: beyond
// ±JudgeWin, as a forced result the search found reads (without its
// distance, which the proof does not give: the farthest a proof reaches).
func provenRootValue(outcome int) float64 {
	return float64(outcome) * (winValue - maxProofPlies)
}

// maxProofPlies is the farthest a proven result is read to lie.
const maxProofPlies = 1000
