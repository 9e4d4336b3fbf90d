package stats

import "math"

// Pentanomial counts seat-swapped pairs of games by one player's total
// score over the pair (a win 1, a draw ½): 0, ½, 1, 1½ or 2. Pairs cancel
// most of the seat and deal advantage, so their variance is smaller than
// that of single games; chess engine testers (fishtest, fastchess) use the
// same model.
type Pentanomial [5]int

// Add records one pair given the player's score in each of its games.
func (p *Pentanomial) Add(first, second float64) {
	p[int(math.Round(2*(first+second)))]++
}

// PairSeries builds a Pentanomial from games in index order, games 2k and
// 2k+1 forming a pair.
type PairSeries struct {
	Pentanomial
	first float64
	open  bool
}

// Add records the score of game index; a pair is added when its second
// game comes.
func (p *PairSeries) Add(index int, score float64) {
	if index%2 == 0 {
		p.first, p.open = score, true
		return
	}
	if p.open {
		p.Pentanomial.Add(p.first, score)
		p.open = false
	}
}

// Pairs returns the number of pairs recorded.
func (p *Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// PairScore is the mean score per game, its standard error and its 95%
// interval, from pentanomial pair counts.
type PairScore struct {
	Pairs  int      `json:"pairs"`
	Counts [5]int   `json:"counts"`
	Score  float64  `json:"score"`
	SE     float64  `json:"se"`
	CI     Interval `json:"ci"`
	// P is the two-sided p-value of a score of ½ by the test CI inverts
	// (PairTest): below 0.05 exactly when CI leaves ½ out.
	P float64 `json:"p"`
	// Elo is the logistic Elo difference of the score, and EloLow and
	// EloHigh of its interval's ends; each is absent (nil) where it is
	// infinite (a score of 0 or 1).
	Elo     *float64 `json:"elo,omitempty"`
	EloLow  *float64 `json:"elo_low,omitempty"`
	EloHigh *float64 `json:"elo_high,omitempty"`
}

// finite returns &x, or nil when x is infinite.
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// Score returns the mean score per game (a pair's score over 2) with the
// standard error of its mean over pairs and its PairedWilson interval at
// quantile z (which keeps its coverage with few pairs). With no pairs the score is ½ with the interval [0, 1].
func (p *Pentanomial) Score(z float64) PairScore {
	n := p.Pairs()
	out := PairScore{Pairs: n, Counts: *p, Score: 0.5, CI: Interval{0, 1}, P: 1, Elo: finite(0)}
	if n == 0 {
		return out
	}
	mean, m2 := 0.0, 0.0
	for i, c := range p {
		mean += float64(c) * float64(i) / 4
	}
	mean /= float64(n)
	for i, c := range p {
		d := float64(i)/4 - mean
		m2 += float64(c) * d * d
	}
	variance := m2 / float64(n) // per pair, as the pentanomial model uses
	out.Score = mean
	out.SE = math.Sqrt(variance / float64(n))
	out.CI, out.P = p.PairedWilson(z), p.PairTest()
	out.Elo = finite(Elo(mean))
	out.EloLow, out.EloHigh = finite(Elo(out.CI.Low)), finite(Elo(out.CI.High))
	return out
}

// Elo returns the logistic Elo difference that gives an expected score s:
// −400 log10(1/s − 1); ±Inf at 0 and 1.
func Elo(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}
