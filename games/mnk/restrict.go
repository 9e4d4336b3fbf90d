package mnk

import (
	"playtest/games"
	"playtest/games/inarow"
)

// Restrictions names what an m,n,k-game player may be held to for restricted play
// (implements games.Restricter; playtest worth measures what each is
// worth).
func (g *Game) Restrictions() []games.Restriction {
	return []games.Restriction{
		{Name: "no-centre", Doc: "never play a centre cell", Allowed: func(s games.State, m games.Move) bool {
			return m >= inarow.MoveKeep || s.(*State).g.centre&(1<<uint(m)) == 0
		}},
		{Name: "no-corner", Doc: "never play a corner cell", Allowed: func(s games.State, m games.Move) bool {
			return m >= inarow.MoveKeep || s.(*State).g.corners&(1<<uint(m)) == 0
		}},
		{Name: "no-swap", Doc: "never swap under the pie rule (always keep)", Allowed: func(_ games.State, m games.Move) bool { return m != inarow.MoveSwap }},
	}
}
