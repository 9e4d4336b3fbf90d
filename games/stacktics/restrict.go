package stacktics

import "playtest/games"

// Restrictions names what a Stacktics player may be held to (implements
// games.Restricter): the pie swap and capturing, each a mechanic whose
// worth restricted play measures.
func (g *Game) Restrictions() []games.Restriction {
	return []games.Restriction{
		{Name: "no-swap", Doc: "never swap armies under the pie rule (always keep)", Allowed: func(_ games.State, m games.Move) bool { return m != moveSwap }},
		{Name: "no-capture", Doc: "never capture: move only onto empty squares or the player's own stacks", Allowed: notCapture},
	}
}

// notCapture reports whether m lands on no enemy stack.
func notCapture(s games.State, m games.Move) bool {
	if m == moveKeep || m == moveSwap {
		return true
	}
	st := s.(*State)
	from, to, _ := decode(m)
	src, dst := st.board[from], st.board[to]
	return dst == 0 || src == 0 || dst.owner() == src.owner()
}
