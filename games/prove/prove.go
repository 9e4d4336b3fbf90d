package prove

import (
	"playtest/games"
)

// Value is a proven result for the seat to move: Outcome +1 a win, −1 a
// loss, 0 a draw (or, within a horizon, nothing proven); Plies the
// decisions to the end with perfect play (the winner ending as fast as it
// can, the loser holding out as long as it can), −1 when not known.
type Value struct {
	Outcome int
	Plies   int
}

// rem is the decisions a search from a root may look ahead.
func (se *Searcher) rem() int {
	if se.opts.Horizon > 0 {
		return se.opts.Horizon
	}
	return noHorizon
}

// Decide proves s's value for its mover (s unfinished): whether it can
// force a win, then whether the other seat can, each a null-window search
// (Plies −1: the value without its distance).
func (se *Searcher) Decide(s games.State) (Value, error) {
	return se.decideWithin(s, se.rem())
}

func (se *Searcher) decideWithin(s games.State, rem int) (Value, error) {
	win := se.negamax(s, 0, 1, 0, rem)
	switch {
	case se.err != nil:
		return Value{Plies: -1}, se.err
	case win >= 1:
		return Value{Outcome: 1, Plies: -1}, nil
	}
	loss := se.negamax(s, -1, 0, 0, rem)
	switch {
	case se.err != nil:
		return Value{Plies: -1}, se.err
	case loss <= -1:
		return Value{Outcome: -1, Plies: -1}, nil
	}
	return Value{Plies: -1}, nil
}

// AtLeast proves whether s's value for its mover (s unfinished) is at
// least outcome (+1 a win, 0 a draw, −1 a loss): one null-window search.
func (se *Searcher) AtLeast(s games.State, outcome int) (bool, error) {
	switch {
	case outcome <= -1:
		return true, nil
	case outcome >= 2:
		return false, nil
	}
	x := int32(outcome) - 1 // the score exceeds x: a win exceeds 0, a draw −1
	v := se.negamax(s, x, x+1, 0, se.rem())
	return v > x, se.err
}

// Score proves s's value for its mover (s unfinished) within rem
// decisions, with its distance: a full-window search.
func (se *Searcher) Score(s games.State, rem int) (Value, error) {
	v := se.negamax(s, -inf, inf, 0, rem)
	if se.err != nil {
		return Value{Plies: -1}, se.err
	}
	return scoreValue(v), nil
}

// Distance proves s's value for its mover (s unfinished) within rem
// decisions with its distance, as Score does, by null-window searches
// that halve the range of scores each time (Pons's strong solver): each
// reuses the bounds the earlier ones left in the table, and a null window
// prunes more than a full one.
func (se *Searcher) Distance(s games.State, rem int) (Value, error) {
	// test asks whether the score exceeds x, and narrows [lo, hi].
	lo, hi := -mate, mate
	test := func(x int32) bool {
		v := se.negamax(s, x, x+1, 0, rem)
		if v > x {
			lo = max(lo, v)
		} else {
			hi = min(hi, v)
		}
		return se.err == nil
	}
	// The draw splits wins from losses; a win or a loss lies within
	// maxPlies of mate.
	if !test(0) || hi <= 0 && !test(-1) {
		return Value{Plies: -1}, se.err
	}
	switch {
	case lo > 0:
		lo = max(lo, mate-maxPlies+1)
	case hi < 0:
		hi = min(hi, -(mate - maxPlies + 1))
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if !test(mid) {
			return Value{Plies: -1}, se.err
		}
	}
	return scoreValue(lo), nil
}

// scoreValue states a root score as a Value.
func scoreValue(v int32) Value {
	switch {
	case isWin(v):
		return Value{Outcome: 1, Plies: int(mate - v)}
	case isLoss(v):
		return Value{Outcome: -1, Plies: int(mate + v)}
	}
	return Value{Plies: -1}
}

// Line plays out from s (which it consumes) a proven win or loss within
// rem decisions: the winner's fastest moves, the loser's slowest, each the
// first in LegalMoves' order that keeps the distance; with each decision's
// mover. It stops where nothing is proven.
func (se *Searcher) Line(s games.State, rem int) (moves []games.Move, movers []games.Player, err error) {
	child := s.Clone()
	for !s.IsTerminal() && rem > 0 {
		v, err := se.Score(s, rem)
		if err != nil || v.Outcome == 0 {
			return moves, movers, err
		}
		mover := s.CurrentPlayer()
		next, found := games.Move(0), false
		for _, m := range s.LegalMoves(nil) {
			child.CopyFrom(s)
			child.Apply(m)
			var cv Value
			switch {
			case child.IsTerminal():
				cv = scoreValue(terminal(child, mover, 0))
				cv.Plies = 0
				if cv.Outcome == 0 {
					continue
				}
			default:
				if cv, err = se.Score(child, v.Plies-1); err != nil {
					return moves, movers, err
				}
				if child.CurrentPlayer() != mover {
					cv.Outcome = -cv.Outcome
				}
			}
			if cv.Outcome == v.Outcome && cv.Plies == v.Plies-1 {
				next, found = m, true
				break
			}
		}
		if !found {
			break
		}
		moves, movers = append(moves, next), append(movers, mover)
		s.Apply(next)
		rem = v.Plies - 1
	}
	return moves, movers, nil
}

// Within looks for a forced win from s within depth decisions, deepening
// one decision at a time so that the shortest is found: a game that ends
// so soon whatever the loser does is decided by its rules, not by its
// players (the broken-rules proof of reports and checks). It returns the
// proof, or nil with searched true when no win is forced within depth.
// searched is false when s is not games.Provable or finished, when the
// search would pass games.ProofNodes positions (InterpretedProofNodes for
// a games.Interpreted game), or when a signal asks the process to stop
// (interrupt.Stopping, seen at the next position); a chance node counts
// as no forced win. The rules are played as they are (History: a move cap
// or a repetition rule holds, and no result is kept in a table), a draw is
// never proven, and s is left unchanged.
func Within(s games.State, depth int) (pf *games.Proof, searched bool) {
	if !games.Provable(s) || s.IsTerminal() || depth < 1 {
		return nil, !s.IsTerminal() && games.Provable(s)
	}
	se, err := New(s, Options{Horizon: depth, MaxNodes: QuickLimit(s), History: true, ChanceUnknown: true})
	if err != nil {
		return nil, false
	}
	defer se.Close()
	for d := 1; d <= depth; d++ {
		v, err := se.decideWithin(s, d)
		switch {
		case err != nil:
			return nil, false
		case v.Outcome == 0:
			continue
		}
		winner := s.CurrentPlayer()
		if v.Outcome < 0 {
			winner = winner.Opponent()
		}
		moves, _, err := se.Line(s.Clone(), d)
		if err != nil {
			return nil, false
		}
		line := make([]string, len(moves))
		c := s.Clone()
		for i, m := range moves {
			line[i] = c.MoveString(m)
			c.Apply(m)
		}
		return &games.Proof{Winner: winner, Plies: d, Line: line}, true
	}
	return nil, true
}

// QuickLimit is the positions a quick proof of s (Within, Settle) may
// search: games.ProofNodes, or games.InterpretedProofNodes for a
// games.Interpreted game, whose positions take a thousand times longer.
func QuickLimit(s games.State) int64 {
	if _, slow := s.(games.Interpreted); slow {
		return games.InterpretedProofNodes
	}
	return games.ProofNodes
}

// Settle proves the value of s (unfinished, games.Provable, without
// chance) for its mover within QuickLimit positions: the variant's value
// where it is cheap to prove (the checks' proof of the start, before the
// bots are judged). It returns the value, the positions searched, and
// false when the bound passed or a signal asks the process to stop. The
// rules must be the solver's (games.SetsAside false): no move cap or
// repetition rule is seen.
func Settle(s games.State) (Value, int64, bool) {
	if !games.Provable(s) || s.IsTerminal() || s.CurrentPlayer() == games.Chance {
		return Value{Plies: -1}, 0, false
	}
	se, err := New(s, Options{MaxNodes: QuickLimit(s), Entries: settleEntries})
	if err != nil {
		return Value{Plies: -1}, 0, false
	}
	defer se.Close()
	v, err := se.Decide(s)
	return v, se.Nodes(), err == nil
}

// settleEntries bounds Settle's table: 16 MiB, about a position in eight
// of its bound kept.
const settleEntries = 1 << 20
