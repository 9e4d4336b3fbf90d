package stacks

import "playtest/games"

// Restrictions names what a STACKS player may be held to (implements
// games.Restricter).
func (g *Game) Restrictions() []games.Restriction {
	return []games.Restriction{
		{Name: "no-4-card", Doc: "never play a 4-card (what the 4-cards and their backward moves are worth; a hand of 4-cards alone lifts it)", Allowed: func(_ games.State, m games.Move) bool {
			kind, v, _, _ := decode(m)
			return kind != kindPlay || v != 4
		}},
		{Name: "no-pass", Doc: "never play a card that has no move (a pass) while another card in hand has one", Allowed: func(_ games.State, m games.Move) bool {
			kind, _, src, _ := decode(m)
			return kind != kindPlay || src != noSquare
		}},
	}
}
