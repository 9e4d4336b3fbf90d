package gamestest

import "playtest/games"

// Faulty wraps a game whose engine panics in Apply on ply number ply (from
// 1) whenever the move's number is divisible by every: a bug that strikes
// a few games of a run, always the same ones, for testing that a run
// survives it. The wrapper hides the game's optional interfaces (sides,
// metrics, hidden information).
func Faulty(g games.Game, ply int, every games.Move) games.Game {
	return faultyGame{Game: g, ply: ply, every: every}
}

type faultyGame struct {
	games.Game
	ply   int
	every games.Move
}

func (g faultyGame) NewState() games.State { return &faultyState{State: g.Game.NewState(), g: &g} }

type faultyState struct {
	games.State
	g *faultyGame
}

func (s *faultyState) Apply(m games.Move) {
	if s.State.Plies() == s.g.ply-1 && m%s.g.every == 0 {
		panic("forced engine fault")
	}
	s.State.Apply(m)
}

func (s *faultyState) Clone() games.State { return &faultyState{State: s.State.Clone(), g: s.g} }

func (s *faultyState) CopyFrom(src games.State) { s.State.CopyFrom(src.(*faultyState).State) }

// FaultyRules wraps rules whose game is Faulty.
type FaultyRules struct {
	games.Rules
	Ply   int
	Every games.Move
}

// NewGame builds the faulty game.
func (r FaultyRules) NewGame() (games.Game, error) {
	g, err := r.Rules.NewGame()
	if err != nil {
		return nil, err
	}
	return Faulty(g, r.Ply, r.Every), nil
}
