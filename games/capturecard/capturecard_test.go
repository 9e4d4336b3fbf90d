package capturecard

import (
	"testing"

	"playtest/games/gamestest"
)

func newGame(t testing.TB, r *Rules) *Game {
	t.Helper()
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game)
}

// variants covers every knob away from its default at least once.
func variants() map[string]func(*Rules) {
	return map[string]func(*Rules){
		"default": func(*Rules) {},
		"replace": func(r *Rules) { r.Through = ThroughReplace },
		"many-jokers-long-protection": func(r *Rules) {
			r.Jokers, r.JokerTurns = 8, 4
		},
		"no-jokers-corners-allowed": func(r *Rules) {
			r.Jokers, r.AllCornersLoses = 0, false
		},
		"few-pieces-short": func(r *Rules) {
			r.Pieces, r.MaxOnBoard, r.MaxTurns = Pieces{Small: 2, Medium: 1, Large: 2}, 5, 60
		},
		"pass-through": func(r *Rules) { r.Elimination = EliminationPassThrough },
		"pass-through-replace": func(r *Rules) {
			r.Elimination, r.Through = EliminationPassThrough, ThroughReplace
		},
	}
}

func TestConformance(t *testing.T) {
	for name, set := range variants() {
		t.Run(name, func(t *testing.T) {
			r := DefaultRules()
			set(r)
			gamestest.Run(t, newGame(t, r), gamestest.Options{Seed: 5})
		})
	}
}
