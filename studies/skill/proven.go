package skill

import (
	"context"
	"fmt"

	"playtest/reports"
	"playtest/sim/bots"
	"playtest/studies/solve"
	"playtest/variants"
)

// ProofStates bounds the positions a ladder's proof enumerates: a small
// game is solved beside its ladder in about a second, a larger one is not
// tried further.
const ProofStates = 2_000_000

// Proven is the variant's value with perfect play, where playtest solve
// finishes within ProofStates: the answer the ladder should approach.
type Proven struct {
	Value     string `json:"value"`
	Positions int    `json:"positions"`
	// Seat0Score is seat 0's score with perfect play: 1, ½ or 0.
	Seat0Score float64 `json:"seat0_score"`
}

// prove solves the variant when it is small enough; nil otherwise (too
// large, chance or hidden information, or no exact keys).
func prove(ctx context.Context, cfg *variants.Config) *Proven {
	res, err := solve.Run(ctx, cfg, solve.Options{MaxStates: ProofStates})
	if err != nil {
		return nil
	}
	p := &Proven{Value: res.Value, Positions: res.Positions, Seat0Score: 0.5}
	switch res.Value {
	case "seat 0 wins":
		p.Seat0Score = 1
	case "seat 1 wins":
		p.Seat0Score = 0
	case "draw":
	default:
		return nil
	}
	return p
}

// provenLine says the proven value beside the ladder, and where the top
// rung stands against it.
func (r *Result) provenLine() string {
	p := r.Proven
	if p == nil || len(r.Rungs) == 0 {
		return ""
	}
	top := r.Rungs[len(r.Rungs)-1]
	h := top.Headline
	return fmt.Sprintf("Proven value (playtest solve, %s positions): %s — seat 0 scores %s with perfect play; at %s %s the bots' %s is %s [%s], with %s draws.",
		bots.Thousands(p.Positions), p.Value, reports.FormatPercent(p.Seat0Score), bots.Thousands(top.Budget), r.Param,
		h.Measure, reports.FormatPercent(h.Value), reports.FormatInterval(h.Low, h.High), reports.FormatPercent(top.Draws.Rate))
}
