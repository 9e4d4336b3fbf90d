package stacks

import (
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/internal/testenv"
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
		"base":      func(*Rules) {},
		"fourcards": fourCards,
		"fourcards-zigzag-blocking": func(r *Rules) {
			fourCards(r)
			r.Diagonal, r.Blocking = DiagonalZigzag, true
		},
		"hand-scope-open": func(r *Rules) { r.MustStackScope, r.OpenHands = ScopeHand, true },
		"blocking-low":    func(r *Rules) { r.Blocking, r.MaxHeight = true, 3 },
		"hand3-fourcards-hand-scope": func(r *Rules) {
			fourCards(r)
			r.HandSize, r.MustStackScope = 3, ScopeHand
		},
		"match": func(r *Rules) { r.Match = &Match{Target: new(60)} },
		"match-end-immediately": func(r *Rules) {
			r.Match = &Match{Target: new(30), End: MatchEndImmediately}
		},
		"match-alternate-fourcards": func(r *Rules) {
			fourCards(r)
			r.Match = &Match{Target: new(80), LoserStarts: new(false), MaxGames: new(3)}
		},
	}
}

func fourCards(r *Rules) {
	r.Cards = &Cards{Ones: 4, Twos: 4, Threes: 3, Fours: 2}
	r.FourCardMoves = true
}

func TestConformance(t *testing.T) {
	for name, set := range variants() {
		t.Run(name, func(t *testing.T) {
			r := DefaultRules()
			set(r)
			gamestest.Run(t, newGame(t, r), gamestest.Options{Seed: 3, NothingHidden: r.OpenHands})
		})
	}
}

var _ games.Determinizer = (*State)(nil)

// TestUnblockedMovesInOrder checks the lists of the rules without blocking,
// made from shifts and fixed destination tables, against the general
// generator's path by path, in order: the order is what a seed's random
// picks and search trees depend on.
func TestUnblockedMovesInOrder(t *testing.T) {
	checked := 0
	for name, set := range naiveVariants() {
		r := DefaultRules()
		if set(r); r.Blocking {
			continue
		}
		t.Run(name, func(t *testing.T) {
			g := newGame(t, r)
			rng := pcg.New(11, 0)
			for game := range testenv.Scale(200) {
				s := g.NewState().(*State)
				for ply := 0; !s.IsTerminal(); ply++ {
					if s.CurrentPlayer() == games.Chance {
						m, _ := games.DrawChance(s, rng, nil)
						s.Apply(m)
						continue
					}
					got, want := s.appendUnblocked(nil), s.appendOffered(nil)
					if !slices.Equal(got, want) {
						t.Fatalf("game %d ply %d:\n%s\nunblocked %v\ngeneral   %v", game, ply, s, got, want)
					}
					s.Apply(got[rng.IntN(len(got))])
				}
			}
		})
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d variants without blocking", checked)
	}
}
