package capstone

import (
	"math/bits"

	"playtest/games"
)

// Restrictions names what a Capstone or ThreeStone player may be held to
// (implements games.Restricter).
func (g *Game) Restrictions() []games.Restriction {
	return []games.Restriction{
		{Name: "fixed-goal-order", Doc: "never choose the goal's order: stack the drawn Smalls in colour order (red, green, blue, …), whatever the draw — what choosing the goal order is worth", Allowed: fixedOrder},
		{Name: "no-move", Doc: "never take turn step 2 (move a Small onto another stack) and so never step 3 (a capstone): always stop after placing — what moving pieces is worth", Allowed: func(_ games.State, m games.Move) bool {
			kind, _, _ := decode(m)
			return kind != kindMove
		}},
	}
}

// fixedOrder allows, at a goal-order decision, only the lowest colour
// drawn; every other decision is free.
func fixedOrder(s games.State, m games.Move) bool {
	kind, colour, _ := decode(m)
	if kind != kindOrder {
		return true
	}
	return colour == bits.TrailingZeros16(s.(*State).drawnColors())
}
