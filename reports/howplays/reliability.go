package howplays

import (
	"fmt"
	"math"

	"playtest/reports/stats"
)

// Reliability says how far a report's traced chances come true: each
// decision's chance (seat 0's, before the decision) against the game's
// result (a win 1, a draw ½, a loss 0), by log-loss and Brier score
// against a constant chance (the results' mean), and by decile of the
// chance. Decisions whose chance is a proof's 1 or 0 (a forced result)
// are counted apart: they claim perfect play, not what these bots do.
type Reliability struct {
	// Entries is the number of decisions judged, over Games games;
	// Proven the decisions left out as proofs, Overturned those of them
	// whose game the proof's loser did not lose.
	Entries    int `json:"entries"`
	Games      int `json:"games"`
	Proven     int `json:"proven"`
	Overturned int `json:"overturned"`
	// LogLoss and Brier are the traced chances' mean scores, Constant
	// those of the results' mean chance at every decision: less is better,
	// and a trace no better than the constant tells nothing.
	LogLoss         float64  `json:"log_loss"`
	ConstantLogLoss float64  `json:"constant_log_loss"`
	Brier           float64  `json:"brier"`
	ConstantBrier   float64  `json:"constant_brier"`
	Deciles         []Decile `json:"deciles"`
}

// Decile is the decisions whose chance fell in [Low, High): their mean
// chance (Predicted) and mean result (Observed), with the 95% interval of
// Observed − Predicted clustered by game (a game's decisions share its
// result, so they are not independent). Games counts the games with a
// decision in the decile, Different those played differently (by their
// fingerprints, or by traces and results in a log without them): bots
// that replay a few lines give many games but few different ones, and a
// decile is judged on different games.
type Decile struct {
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	Entries   int     `json:"entries"`
	Games     int     `json:"games"`
	Different int     `json:"different"`
	Predicted float64 `json:"predicted"`
	Observed  float64 `json:"observed"`
	GapLow    float64 `json:"gap_low"`
	GapHigh   float64 `json:"gap_high"`
}

// DifferentGames is the number of different games with a decision in
// the decile: Different, or Games for a summary written before games were
// told apart (Different absent, so 0 with games).
func (d Decile) DifferentGames() int {
	if d.Different == 0 {
		return d.Games
	}
	return d.Different
}

// Gap is the decile's Observed − Predicted.
func (d Decile) Gap() float64 { return d.Observed - d.Predicted }

// Reliable bounds on a decile: it holds when its gap is within
// ReliableGap, and it is judged when it holds decisions of at least
// ReliableGames different games.
const (
	ReliableGap   = 0.05
	ReliableGames = 200
)

// Holds reports whether the decile's gap is within ReliableGap, judged at
// the tenth of a point the reports show it to (a gap shown as +5.0 holds).
func (d Decile) Holds() bool {
	return math.Abs(math.Round(1000*d.Gap())) <= math.Round(1000*ReliableGap)
}

// measureReliability scores the games' traced chances against their
// results; nil when no decision has an unproven chance.
func measureReliability(gs []Game) *Reliability {
	r := &Reliability{Deciles: make([]Decile, 10)}
	type cell struct {
		n   int
		sum float64 // Σ (y − p) of the game's decisions in the decile
	}
	var sumP, sumY [10]float64
	cells := make([][10]cell, len(gs))
	// first[gi] is the first game played as game gi was (the same
	// fingerprint, or without one the same trace and result): the games a
	// decile tells apart.
	first := make([]int, len(gs))
	seen := map[string]int{}
	for gi := range gs {
		key := fmt.Sprint(gs[gi].Fingerprint)
		if gs[gi].Fingerprint == 0 {
			key = fmt.Sprint(gs[gi].Seat0, gs[gi].Trace)
		}
		if f, ok := seen[key]; ok {
			first[gi] = f
		} else {
			seen[key], first[gi] = gi, gi
		}
	}
	var ys []float64
	var ps []float64
	for gi := range gs {
		g := &gs[gi]
		y := g.Seat0
		counted := false
		for _, p := range g.P[:len(g.P)-1] {
			if p == 0 || p == 1 {
				r.Proven++
				if p != y {
					r.Overturned++
				}
				continue
			}
			counted = true
			ys, ps = append(ys, y), append(ps, p)
			k := min(int(p*10), 9)
			c := &cells[gi][k]
			c.n++
			c.sum += y - p
			sumP[k] += p
			sumY[k] += y
		}
		if counted {
			r.Games++
		}
	}
	r.Entries = len(ys)
	if r.Entries == 0 {
		return nil
	}
	var mean stats.Moments
	for _, y := range ys {
		mean.Add(y)
	}
	c := min(max(mean.Mean(), 1e-3), 1-1e-3)
	for i, y := range ys {
		p := ps[i]
		r.LogLoss += logLoss(p, y)
		r.ConstantLogLoss += logLoss(c, y)
		r.Brier += (p - y) * (p - y)
		r.ConstantBrier += (c - y) * (c - y)
	}
	n := float64(r.Entries)
	r.LogLoss, r.ConstantLogLoss, r.Brier, r.ConstantBrier = r.LogLoss/n, r.ConstantLogLoss/n, r.Brier/n, r.ConstantBrier/n
	for k := range r.Deciles {
		d := &r.Deciles[k]
		d.Low, d.High = float64(k)/10, float64(k+1)/10
		for gi := range cells {
			if cells[gi][k].n > 0 {
				d.Entries += cells[gi][k].n
				d.Games++
				if first[gi] == gi {
					d.Different++
				}
			}
		}
		if d.Entries == 0 {
			continue
		}
		m := float64(d.Entries)
		d.Predicted, d.Observed = sumP[k]/m, sumY[k]/m
		gap := d.Gap()
		// The cluster-robust variance of the mean gap: each game's sum
		// of residuals about it, squared.
		v := 0.0
		for gi := range cells {
			if x := cells[gi][k]; x.n > 0 {
				e := x.sum - float64(x.n)*gap
				v += e * e
			}
		}
		se := 0.0
		if d.Games > 1 {
			se = math.Sqrt(v*float64(d.Games)/float64(d.Games-1)) / m
		}
		d.GapLow, d.GapHigh = gap-stats.Z95*se, gap+stats.Z95*se
	}
	return r
}

// logLoss is a chance's log-loss against a result y (a draw ½ counts
// half a win and half a loss).
func logLoss(p, y float64) float64 {
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// Judged lists the deciles judged: those with decisions of at least
// ReliableGames different games.
func (r *Reliability) Judged() []Decile {
	var out []Decile
	for _, d := range r.Deciles {
		if d.DifferentGames() >= ReliableGames {
			out = append(out, d)
		}
	}
	return out
}

// Summary says in one sentence how far the chances come true.
func (r *Reliability) Summary() string {
	if r == nil {
		return ""
	}
	judged := r.Judged()
	held := 0
	for _, d := range judged {
		if d.Holds() {
			held++
		}
	}
	// Judged at the three decimals shown, so that the words never
	// contradict the numbers beside them.
	verdict := "better than"
	switch gain := math.Round(1000*r.ConstantLogLoss) - math.Round(1000*r.LogLoss); {
	case gain <= 0:
		verdict = "no better than"
	case gain < 10:
		verdict = "barely better than"
	}
	deciles := fmt.Sprintf("%d of the %d deciles with decisions of at least %d different games see within ±%.0f points of the chance they were given", held, len(judged), ReliableGames, 100*ReliableGap)
	if len(judged) == 0 {
		deciles = fmt.Sprintf("no decile holds decisions of %d different games yet, too few to judge one within ±%.0f points", ReliableGames, 100*ReliableGap)
	}
	s := fmt.Sprintf("Reliability over %d decisions of %d games: log-loss %.3f against a constant chance's %.3f (%s knowing nothing), Brier %.3f against %.3f; %s.",
		r.Entries, r.Games, r.LogLoss, r.ConstantLogLoss, verdict, r.Brier, r.ConstantBrier, deciles)
	if r.Proven > 0 {
		s += fmt.Sprintf(" %d decisions read a proof's 100%% or 0%% (a forced result) and are left out; in %d of them the bots did not play the proof out.", r.Proven, r.Overturned)
	}
	return s
}
