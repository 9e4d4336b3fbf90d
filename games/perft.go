package games

// Perft counts the decision sequences of exactly depth decisions from s:
// perft(s, 0) = 1 and perft(s, d) is the sum over every legal decision
// (moves, and chance outcomes counted as decisions) of perft(child, d-1).
// A terminal state has no decisions. s is not modified.
func Perft(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	p := newPerfter(s, depth)
	return p.count(s, depth)
}

// PerftDivide returns, for each decision at s, the perft of its child at
// depth-1, in the order the game generates them: the standard way to find
// where two move generators disagree.
func PerftDivide(s State, depth int) (moves []Move, counts []uint64) {
	if depth <= 0 {
		return nil, nil
	}
	p := newPerfter(s, depth)
	moves = p.decisions(s, nil)
	child := s.Clone()
	for _, m := range moves {
		child.CopyFrom(s)
		child.Apply(m)
		counts = append(counts, p.count(child, depth-1))
	}
	return moves, counts
}

// perfter owns one scratch state and one move buffer per depth, so counting
// allocates nothing after setup.
type perfter struct {
	states   []State
	buffers  [][]Move
	outcomes []ChanceOutcome
}

func newPerfter(s State, depth int) *perfter {
	p := &perfter{states: make([]State, depth), buffers: make([][]Move, depth)}
	for i := range p.states {
		p.states[i] = s.Clone()
	}
	return p
}

func (p *perfter) decisions(s State, buf []Move) []Move {
	buf = buf[:0]
	switch s.CurrentPlayer() {
	case Terminal:
		return buf
	case Chance:
		p.outcomes = s.ChanceOutcomes(p.outcomes[:0])
		for _, o := range p.outcomes {
			buf = append(buf, o.Move)
		}
		return buf
	}
	return s.LegalMoves(buf)
}

func (p *perfter) count(s State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.decisions(s, p.buffers[depth-1])
	p.buffers[depth-1] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	child := p.states[depth-1]
	var n uint64
	for _, m := range moves {
		child.CopyFrom(s)
		child.Apply(m)
		n += p.count(child, depth-1)
	}
	return n
}

// PerftTurns counts the sequences of depth whole turns from s: a turn is
// every decision one player makes until another player (or chance) decides
// or the game ends. A finished game has no turns. s is not modified.
func PerftTurns(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if s.IsTerminal() {
		return 0
	}
	return turnsFrom(s, s.CurrentPlayer(), depth)
}

// turnsFrom extends the turn of player in progress at s.
func turnsFrom(s State, player Player, depth int) uint64 {
	var n uint64
	var moves []Move
	if s.CurrentPlayer() == Chance {
		for _, o := range s.ChanceOutcomes(nil) {
			moves = append(moves, o.Move)
		}
	} else {
		moves = s.LegalMoves(nil)
	}
	for _, m := range moves {
		child := s.Clone()
		child.Apply(m)
		if child.IsTerminal() || child.CurrentPlayer() != player {
			n += PerftTurns(child, depth-1)
		} else {
			n += turnsFrom(child, player, depth)
		}
	}
	return n
}

// PerftOf counts with the state's own perft definition when it has one
// (Perfter), and single decisions otherwise.
func PerftOf(s State, depth int) uint64 {
	if p, ok := s.(Perfter); ok {
		return p.Perft(depth)
	}
	return Perft(s, depth)
}
