package prove

import "playtest/games"

// afterMove returns a state of the search's own after move m of s (s's
// mover was to play it): the root's child, kept from call to call.
func (se *Searcher) afterMove(s games.State, m games.Move) games.State {
	if se.after == nil {
		se.after = s.Clone()
	}
	se.after.CopyFrom(s)
	se.after.Apply(m)
	return se.after
}

// Keeps proves whether move m keeps value, the outcome of s for its mover
// (+1 a win, 0 a draw, −1 a loss; Decide's), for that mover: one
// null-window search of the position after it, from the mover's side or
// the other's as the next decision falls.
func (se *Searcher) Keeps(s games.State, m games.Move, value int) (bool, error) {
	mover := s.CurrentPlayer()
	c := se.afterMove(s, m)
	if c.IsTerminal() {
		return int(c.Result().ValueFor(mover)) >= value, nil
	}
	if c.CurrentPlayer() == mover {
		return se.AtLeast(c, value)
	}
	// The mover keeps value when the other's is not above −value.
	above, err := se.AtLeast(c, -value+1)
	return !above && err == nil, err
}

// After proves the outcome of move m for the mover of s (+1 a win, 0 a
// draw, −1 a loss): the position after it decided (Decide), from the
// mover's side.
func (se *Searcher) After(s games.State, m games.Move) (int, error) {
	mover := s.CurrentPlayer()
	c := se.afterMove(s, m)
	if c.IsTerminal() {
		return int(c.Result().ValueFor(mover)), nil
	}
	v, err := se.Decide(c)
	if err != nil {
		return 0, err
	}
	if c.CurrentPlayer() != mover {
		return -v.Outcome, nil
	}
	return v.Outcome, nil
}

// Keeping proves s's value for its mover (Decide) and appends to keep the
// moves of legal that keep it (Keeps), each proof within budget positions
// (0: no bound; Budget); on an error it returns the moves proven so far.
func (se *Searcher) Keeping(s games.State, legal, keep []games.Move, budget int64) (Value, []games.Move, error) {
	se.Budget(budget)
	v, err := se.Decide(s)
	if err != nil {
		return v, keep, err
	}
	for _, m := range legal {
		se.Budget(budget)
		ok, err := se.Keeps(s, m, v.Outcome)
		if err != nil {
			return v, keep, err
		}
		if ok {
			keep = append(keep, m)
		}
	}
	return v, keep, nil
}

// Order puts moves of s in the order a proof of s tries them: the move the
// table holds as s's best first (the one that proved its last bound), then
// by the game's threats or, without them, by the heuristic. A proven win's
// winning move then comes first, so proving it keeps the win costs almost
// nothing.
func (se *Searcher) Order(s games.State, moves []games.Move) {
	sc := se.scratchAt(0, s)
	var ttMove uint8
	if d, ok := se.table.probe(se.key(s, sc)); ok {
		_, _, _, ttMove, _ = unpack(d)
	}
	se.order(s, sc, moves, 0, ttMove)
}
