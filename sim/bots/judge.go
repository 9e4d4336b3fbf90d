package bots

import (
	"math"

	"playtest/games"
	"playtest/sim/model"
)

// Judge says who is ahead in a position, for the win-probability traces of
// reports: seat 0's lead in the hand heuristic's units (the game's
// heuristic, or a learned model's value in those units), after a
// quiescence search through the game's forcing moves, so that a position
// in the middle of an exchange (a capture not yet recaptured) is judged
// once the exchange is over. In games with hidden information each seat's
// evaluation sees only what that seat may know (games.Featurer and the
// heuristics promise it), so the lead is seat 0's own estimate less seat
// 1's own: together the two views see both hands. A Judge is one
// goroutine's (its scratch states are its own) and allocates nothing per
// position once warmed up.
type Judge struct {
	ab *AlphaBeta
	// Static judges a position by its static evaluation alone, without
	// playing its exchanges out: for the traces of bots that do not
	// search, whose games cost less than a quiescence search.
	Static bool
}

// judgeNodes bounds a judgement's quiescence search.
const judgeNodes = 20000

// JudgeWin is the lead a Judge gives a position whose quiescence search
// reaches the end of the game: the winner's, beyond any heuristic lead
// (evaluations are held within half of it). Both seats may stand pat in
// the quiescence search, so it reaches the end only through a move that
// wins at once: a proof.
const JudgeWin = winValue / 2

// NewJudge returns a judge evaluating with the model m, or with the game's
// hand heuristic when m is nil.
func NewJudge(m *model.Model) *Judge {
	p := AlphaBetaParams{Nodes: judgeNodes, Quiescence: true}
	p.learned = m
	return &Judge{ab: NewAlphaBeta(p)}
}

// Lead returns seat 0's lead in s (not finished): ±JudgeWin or beyond when
// the forcing moves decide the game, 0 for a game without a heuristic.
func (j *Judge) Lead(s games.State) float64 {
	b := j.ab
	b.seat = games.Seat0
	b.prepare(s)
	s = b.scoring(s)
	b.nodes, b.budget, b.aborted = 0, b.params.Nodes, false
	var v float64
	if j.Static {
		v = b.evaluate(s)
	} else {
		v = b.quiesce(s, 0, 0, math.Inf(-1), math.Inf(1))
	}
	if math.Abs(v) > JudgeWin {
		return math.Copysign(JudgeWin, v)
	}
	return v
}

// Deliberator is implemented by search bots that can say how clear their
// last decision was: of the legal moves (moves), how many they rated near
// their best (near; the best included). alphabeta counts the root moves
// within ClarityMargin of the best value; mcts and ismcts the moves
// visited at least half as often as the most visited. It reports 0, 0
// when the bot did not search (a single legal move, a random move).
type Deliberator interface {
	NearBest() (near, moves int)
}

// Valuer is implemented by search bots whose last decision's search gives
// the position's value in the hand heuristic's units from their seat's
// view (alphabeta: its best root value, searched deeper than a Judge
// looks, so the win-probability trace takes it where it can), beyond
// ±JudgeWin only where the search proves a forced result; ok is false
// when the bot did not search (a single legal move).
type Valuer interface {
	RootValue() (v float64, ok bool)
}

// ClarityMargin is how far below its best root value, in the hand
// heuristic's units, alphabeta counts a move near-best. Values outside the
// bot's noise window are bounds, not exact: with noise below the margin a
// move's bound may count it near-best when its value is not (the count is
// then an upper bound).
const ClarityMargin = 0.5
