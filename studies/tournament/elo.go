package tournament

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"playtest/reports/stats"
)

// eloPerNat converts a Bradley-Terry log-strength to Elo points.
const eloPerNat = 400 / math.Ln10

// Rating is an entrant's Elo with its 95% interval.
type Rating struct {
	Elo  float64 `json:"elo"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// fitElo fits Bradley-Terry strengths to the pairwise results: score[i][j]
// is i's total score against j (a win 1, a draw ½) over games[i][j] games.
// Every pairing gets one virtual draw, a mild prior that keeps the fit
// finite when one entrant wins every game. Entrant 0 is the anchor (Elo 0);
// the intervals come from the inverse Fisher information of the others'
// strengths.
func fitElo(score, games [][]float64) []Rating {
	n := len(score)
	w := make([][]float64, n) // wins with the prior
	g := make([][]float64, n)
	for i := range n {
		w[i], g[i] = make([]float64, n), make([]float64, n)
		for j := range n {
			if i != j {
				w[i][j], g[i][j] = score[i][j]+0.5, games[i][j]+1
			}
		}
	}
	theta := make([]float64, n)
	// Minorisation-maximisation (Hunter 2004), then re-anchored.
	for range 10000 {
		change := 0.0
		for i := range n {
			num, den := 0.0, 0.0
			for j := range n {
				if i != j {
					num += w[i][j]
					den += g[i][j] / (math.Exp(theta[i]) + math.Exp(theta[j]))
				}
			}
			next := math.Log(num / den)
			change = math.Max(change, math.Abs(next-theta[i]))
			theta[i] = next
		}
		for i := n - 1; i >= 0; i-- {
			theta[i] -= theta[0]
		}
		if change < 1e-12 {
			break
		}
	}
	out := make([]Rating, n)
	if n == 1 {
		return out
	}
	info := mat.NewDense(n-1, n-1, nil)
	for i := 1; i < n; i++ {
		for j := range n {
			if i == j {
				continue
			}
			p := 1 / (1 + math.Exp(theta[j]-theta[i]))
			v := g[i][j] * p * (1 - p)
			info.Set(i-1, i-1, info.At(i-1, i-1)+v)
			if j > 0 {
				info.Set(i-1, j-1, info.At(i-1, j-1)-v)
			}
		}
	}
	var cov mat.Dense
	inverted := cov.Inverse(info) == nil
	for i := range n {
		e := theta[i] * eloPerNat
		out[i] = Rating{Elo: e, Low: e, High: e}
		if i > 0 && inverted {
			se := math.Sqrt(math.Max(0, cov.At(i-1, i-1))) * eloPerNat
			out[i].Low, out[i].High = e-stats.Z95*se, e+stats.Z95*se
		}
	}
	return out
}
