package solve

import (
	"context"
	"playtest/games"
)

// solution holds each position's value for the player who decides there
// (win, loss, or draw: neither side can force a win) and its distance: the
// decisions to the end with perfect play, the winner ending as fast as it
// can and the loser holding out as long as it can.
type solution struct {
	value []int8 // valWin, valLoss, valDraw; finished positions: valDone
	dist  []int32
}

const (
	valUnknown int8 = iota
	valWin
	valLoss
	valDraw
	valDone
)

// retrograde solves the graph backwards from the finished positions: a
// position is won when some move reaches a position lost for whoever
// decides there (or won for the same player, when one player makes
// several decisions in a row), lost when every move reaches one won for
// the opponent, and drawn when neither can be forced. Positions leave the
// queue in order of distance, so the first winning move found is a
// fastest one and the last losing move a slowest one.
func retrograde(ctx context.Context, gr *graph) (*solution, error) {
	n := len(gr.mover)
	sol := &solution{value: make([]int8, n), dist: make([]int32, n)}
	// Predecessors in compressed rows, and each position's unresolved
	// move count.
	predOff := make([]uint32, n+1)
	for _, c := range gr.succ {
		predOff[c+1]++
	}
	for i := range n {
		predOff[i+1] += predOff[i]
	}
	pred := make([]int32, len(gr.succ))
	fill := make([]uint32, n)
	copy(fill, predOff[:n])
	left := make([]int32, n)
	for p := range n {
		if p%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		succ := gr.successors(p)
		left[p] = int32(len(succ))
		for _, c := range succ {
			pred[fill[c]] = int32(p)
			fill[c]++
		}
	}
	fill = nil
	queue := make([]int32, 0, 1024)
	for i := range n {
		if gr.mover[i] == terminalMover {
			sol.value[i] = valDone
			queue = append(queue, int32(i))
		}
	}
	for head := 0; head < len(queue); head++ {
		if head%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		c := int(queue[head])
		for _, p32 := range pred[predOff[c]:predOff[c+1]] {
			p := int(p32)
			if sol.value[p] != valUnknown {
				continue
			}
			switch sol.forMover(gr, games.Player(gr.mover[p]), c) {
			case valWin:
				sol.value[p], sol.dist[p] = valWin, sol.dist[c]+1
				queue = append(queue, p32)
			case valLoss:
				left[p]--
				if left[p] == 0 {
					sol.value[p], sol.dist[p] = valLoss, sol.dist[c]+1
					queue = append(queue, p32)
				}
			}
		}
	}
	for i := range n {
		if sol.value[i] == valUnknown {
			sol.value[i] = valDraw
		}
	}
	return sol, nil
}

// forMover is what reaching position c means for player who: valWin,
// valLoss, valDraw, or valUnknown while c is unresolved.
func (sol *solution) forMover(gr *graph, who games.Player, c int) int8 {
	v := sol.value[c]
	switch v {
	case valDone:
		switch games.Player(gr.winner[c]) {
		case who:
			return valWin
		case games.NoPlayer:
			return valDraw
		}
		return valLoss
	case valWin, valLoss:
		if games.Player(gr.mover[c]) == who {
			return v
		}
		return valWin + valLoss - v // the other player's win is who's loss
	}
	return v
}

// outcome names what position c is worth to player who, with the
// decisions to the end when it is not a draw.
func (sol *solution) outcome(gr *graph, who games.Player, c int) (string, *int) {
	d := int(sol.dist[c])
	switch sol.forMover(gr, who, c) {
	case valWin:
		return Win, &d
	case valLoss:
		return Loss, &d
	}
	return Draw, nil
}

// maxLine bounds a printed line of perfect play.
const maxLine = 200

// line is a line of perfect play from position i (whose state is s, or
// an image of it under the game's symmetries; line consumes it): at a won
// position a fastest win, at a lost one a slowest loss, to the end. Draws
// have no forced end: nil. Each move's position is found by its key, so
// the line is played on s itself.
func (sol *solution) line(gr *graph, i int, s games.State) []string {
	var out []string
	child := s.Clone()
	for len(out) < maxLine {
		v := sol.value[i]
		if v != valWin && v != valLoss {
			break // finished, or a draw
		}
		mover := games.Player(gr.mover[i])
		next, at := games.Move(0), -1
		for _, m := range s.LegalMoves(nil) {
			// Every move from a lost position loses; a slowest one takes
			// dist − 1 more decisions. A fastest win does the same.
			child.CopyFrom(s)
			child.Apply(m)
			c, found := gr.index(child)
			if found && sol.forMover(gr, mover, c) == v && sol.dist[c] == sol.dist[i]-1 {
				next, at = m, c
				break
			}
		}
		if at < 0 {
			break
		}
		out = append(out, mover.String()+" "+s.MoveString(next))
		s.Apply(next)
		i = at
	}
	return out
}

// valueForSeat states position i's value as "seat 0 wins", "seat 1 wins"
// or "draw".
func (sol *solution) valueForSeat(gr *graph, i int, seat games.Player) (string, *int) {
	v, d := sol.outcome(gr, seat, i)
	return gameValue(v, d, seat)
}
