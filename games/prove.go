package games

import "playtest/internal/interrupt"

// ProofNodes bounds the positions ProveWithin searches: a shallow proof
// for a report, never a solve. An interpreted game's (a rules script's)
// take a thousand times longer each: InterpretedProofNodes, about a
// second of them.
const (
	ProofNodes            = 2_000_000
	InterpretedProofNodes = 20_000
)

// Interpreted is implemented by states whose rules are interpreted (a
// rules script's): each position costs about a thousand times a built-in
// game's, so searches that are short on the built-in games search fewer.
type Interpreted interface {
	Interpreted()
}

// Proof is a forced result found by ProveWithin: Winner wins however the
// other seat plays, the game ending within Plies decisions (the winner
// ending as fast as it can, the loser holding out as long as it can);
// Line is such a game, each decision in the game's notation.
type Proof struct {
	Winner Player   `json:"winner"`
	Plies  int      `json:"plies"`
	Line   []string `json:"line"`
}

// Provable reports whether ProveWithin can search s's game: perfect
// information with exact position keys, as playtest solve needs (a
// Keyer and not a Determinizer).
func Provable(s State) bool {
	_, keyed := s.(Keyer)
	_, hidden := s.(Determinizer)
	return keyed && !hidden
}

// ProveWithin looks for a forced win from s within depth decisions by an
// exhaustive minimax (deepening one decision at a time, so the shortest
// win is found): a game that ends so soon whatever the loser does is
// decided by its rules, not by its players. It returns the proof, or nil
// with searched true when no win is forced within depth. searched is
// false when s is not Provable or finished, when the search would pass
// ProofNodes positions (InterpretedProofNodes for an Interpreted game), or
// when a signal asks the process to stop (interrupt.Stopping, seen at the
// next node); a chance node counts as no forced win. A draw is
// never proven (only that nobody can force a win within depth), and s is
// left unchanged.
func ProveWithin(s State, depth int) (pf *Proof, searched bool) {
	if !Provable(s) || s.IsTerminal() {
		return nil, false
	}
	pr := &prover{limit: ProofNodes}
	if _, slow := s.(Interpreted); slow {
		pr.limit = InterpretedProofNodes
	}
	for d := 1; d <= depth; d++ {
		pr.nodes = 0
		v, dist := pr.search(s, d)
		if pr.nodes > pr.limit || interrupt.Stopping() {
			return nil, false
		}
		if v != 0 {
			winner := Seat0
			if v < 0 {
				winner = Seat1
			}
			pr.nodes = 0
			return &Proof{Winner: winner, Plies: dist, Line: pr.line(s.Clone(), v, dist)}, true
		}
	}
	return nil, true
}

// prover is one proof's search.
type prover struct {
	nodes, limit int
	moves        [][]Move
}

// search returns the value of s within depth decisions for seat 0: +1 a
// forced win, −1 a forced loss, 0 neither; with the decisions to the end.
func (pr *prover) search(s State, depth int) (int8, int) {
	pr.nodes++
	if s.IsTerminal() {
		switch s.Result().Winner {
		case Seat0:
			return 1, 0
		case Seat1:
			return -1, 0
		}
		return 0, 0
	}
	p := s.CurrentPlayer()
	if depth == 0 || pr.nodes > pr.limit || p != Seat0 && p != Seat1 || interrupt.Stopping() {
		return 0, 0
	}
	for len(pr.moves) <= depth {
		pr.moves = append(pr.moves, nil)
	}
	pr.moves[depth] = s.LegalMoves(pr.moves[depth][:0])
	moves := pr.moves[depth]
	want := int8(1)
	if p == Seat1 {
		want = -1
	}
	// The mover wins at the fastest winning move; it loses only when
	// every move loses, at the slowest.
	win, lose, allLose := -1, -1, true
	child := s.Clone()
	for i := range moves {
		child.CopyFrom(s)
		child.Apply(moves[i])
		v, dist := pr.search(child, depth-1)
		moves = pr.moves[depth] // deeper calls reuse only their own buffers
		switch {
		case v == want:
			if win < 0 || dist+1 < win {
				win = dist + 1
			}
		case v == -want:
			lose = max(lose, dist+1)
		default:
			allLose = false
		}
	}
	switch {
	case win >= 0:
		return want, win
	case allLose && len(moves) > 0:
		return -want, lose
	}
	return 0, 0
}

// line plays out a proven value v in dist decisions from s: the winner's
// fastest winning moves, the loser's slowest losing ones.
func (pr *prover) line(s State, v int8, dist int) []string {
	var out []string
	for !s.IsTerminal() && dist > 0 {
		moves := s.LegalMoves(nil)
		best := Move(-1)
		bestDist := -1
		mover := int8(1)
		if s.CurrentPlayer() == Seat1 {
			mover = -1
		}
		for _, m := range moves {
			c := s.Clone()
			c.Apply(m)
			cv, cd := pr.search(c, dist-1)
			if cv != v {
				continue
			}
			// The winner takes the fastest, the loser the slowest.
			if best < 0 || mover == v && cd < bestDist || mover != v && cd > bestDist {
				best, bestDist = m, cd
			}
		}
		if best < 0 {
			break
		}
		out = append(out, s.MoveString(best))
		s.Apply(best)
		dist = bestDist
	}
	return out
}
