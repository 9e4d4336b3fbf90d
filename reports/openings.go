package reports

import (
	"cmp"
	"fmt"
	"slices"

	"playtest/games"
	"playtest/sim"
)

// Openings are the statistics of the game's first decision: how often each
// opening was played and how seat 0 fared after it. A designer asking "is
// there one dominant opening?" reads them.
type Openings struct {
	// Games is the number of games with an opening (every game in which a
	// seat decided anything); Distinct the number of different openings.
	Games    int `json:"games"`
	Distinct int `json:"distinct"`
	// Rows are the TopOpenings most played, then one row for the rest.
	Rows []Opening `json:"rows"`
}

// Opening is one first decision's record.
type Opening struct {
	// Move is the opening in the game's notation; Others says the row
	// gathers every opening not listed above it (Move then counts them).
	Move   string `json:"move"`
	Others bool   `json:"others,omitempty"`
	// Share is the opening's games over all games with an opening.
	Share Rate `json:"share"`
	// Seat0Wins is seat 0's win rate in those games; Draws their draws.
	Seat0Wins Rate `json:"seat0_wins"`
	Draws     Rate `json:"draws"`
	// Swap is, under the pie rule, how often seat 1 swapped after it.
	Swap *Rate `json:"swap,omitempty"`
}

// HasSwap reports whether the rows give pie-rule swap rates.
func (o *Openings) HasSwap() bool {
	for _, r := range o.Rows {
		if r.Swap != nil {
			return true
		}
	}
	return false
}

// TopOpenings is how many openings the table lists before the rest.
const TopOpenings = 10

type openingAcc struct {
	games, seat0, draws int
	swapN, swaps        int
}

// addOpening folds a record's opening in.
func (a *Aggregator) addOpening(r *sim.Record) {
	if r.Opening == "" {
		return
	}
	acc := a.openings[r.Opening]
	if acc == nil {
		acc = &openingAcc{}
		a.openings[r.Opening] = acc
	}
	acc.games++
	switch r.Result.Winner {
	case games.Seat0:
		acc.seat0++
	case games.NoPlayer:
		acc.draws++
	}
	for _, m := range r.Metrics {
		if m.Name == games.MetricPieSwap {
			acc.swapN++
			if m.Value != 0 {
				acc.swaps++
			}
		}
	}
}

// openingStats builds the Openings, or nil when no game had one.
func (a *Aggregator) openingStats() *Openings {
	if len(a.openings) == 0 {
		return nil
	}
	moves := make([]string, 0, len(a.openings))
	total := 0
	for m, acc := range a.openings {
		moves = append(moves, m)
		total += acc.games
	}
	slices.SortFunc(moves, func(x, y string) int {
		return cmp.Or(cmp.Compare(a.openings[y].games, a.openings[x].games), cmp.Compare(x, y))
	})
	o := &Openings{Games: total, Distinct: len(moves)}
	row := func(move string, others bool, acc *openingAcc) Opening {
		r := Opening{Move: move, Others: others, Share: NewRate(acc.games, total),
			Seat0Wins: NewRate(acc.seat0, acc.games), Draws: NewRate(acc.draws, acc.games)}
		if acc.swapN > 0 {
			swap := NewRate(acc.swaps, acc.swapN)
			r.Swap = &swap
		}
		return r
	}
	var rest openingAcc
	for i, m := range moves {
		acc := a.openings[m]
		if i < TopOpenings {
			o.Rows = append(o.Rows, row(m, false, acc))
			continue
		}
		rest.games += acc.games
		rest.seat0 += acc.seat0
		rest.draws += acc.draws
		rest.swapN += acc.swapN
		rest.swaps += acc.swaps
	}
	if extra := len(moves) - TopOpenings; extra > 0 {
		o.Rows = append(o.Rows, row(fmt.Sprintf("%d others", extra), true, &rest))
	}
	return o
}
