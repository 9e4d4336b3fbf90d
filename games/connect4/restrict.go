package connect4

import (
	"playtest/games"
	"playtest/games/inarow"
)

// Restrictions names what a Connect Four player may be held to for
// restricted play (implements games.Restricter; playtest worth measures
// what each is worth).
func (g *Game) Restrictions() []games.Restriction {
	cols := g.rules.Cols
	return []games.Restriction{
		{Name: "no-centre", Doc: "never drop into a centre column", Allowed: func(_ games.State, m games.Move) bool {
			return m >= inarow.MoveKeep || int(m) != (cols-1)/2 && int(m) != cols/2
		}},
		{Name: "no-edge", Doc: "never drop into an edge column", Allowed: func(_ games.State, m games.Move) bool {
			return m >= inarow.MoveKeep || int(m) != 0 && int(m) != cols-1
		}},
		{Name: "no-swap", Doc: "never swap under the pie rule (always keep)", Allowed: func(_ games.State, m games.Move) bool { return m != inarow.MoveSwap }},
	}
}
