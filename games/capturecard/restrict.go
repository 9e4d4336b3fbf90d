package capturecard

import "playtest/games"

// Restrictions names what a Capture the Card player may be held to
// (implements games.Restricter).
func (g *Game) Restrictions() []games.Restriction {
	return []games.Restriction{
		{Name: "no-joker", Doc: "never play a Joker (always decline it)", Allowed: func(_ games.State, m games.Move) bool {
			kind, _, _ := decode(m)
			return kind != kindJoker
		}},
		{Name: "no-lock", Doc: "never lock a card", Allowed: func(_ games.State, m games.Move) bool {
			kind, _, _ := decode(m)
			return kind != kindLock
		}},
	}
}
