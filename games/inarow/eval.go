package inarow

import (
	"fmt"
	"math/bits"

	"playtest/games"
)

// Heuristic: a line still open to a seat (none of the other's stones in
// it) holding j of its stones is worth j², for it and against the other:
// Evaluate(seat) = Σ j²·(seat's open lines with j stones − the other's).
// It is zero-sum: Evaluate(seat 1) = −Evaluate(seat 0).

// Evaluate scores the position for seat (implements games.Heuristic):
// the score Place keeps as the stones fall, seat 0's or its negation,
// where KeepScore asked for it, else the lines counted.
func (p *Position) Evaluate(seat games.Player) float64 {
	v := p.score
	if !p.scored {
		v = p.B.scoreOf(p.Stones[0], p.Stones[1])
	}
	if seat == games.Seat1 {
		return float64(-v)
	}
	return float64(v)
}

// scoreOf is Evaluate(seat 0) of a position whose seats hold s0 and s1,
// counted line by line.
func (b *Board) scoreOf(s0, s1 uint64) int32 {
	v := int32(0)
	for _, l := range b.lines {
		mine, theirs := s0&l, s1&l
		switch {
		case theirs == 0 && mine != 0:
			j := int32(bits.OnesCount64(mine))
			v += j * j
		case mine == 0 && theirs != 0:
			j := int32(bits.OnesCount64(theirs))
			v -= j * j
		}
	}
	return v
}

// ZeroSum reports that Evaluate(Seat1) = −Evaluate(Seat0) exactly
// (implements games.ZeroSumHeuristic).
func (p *Position) ZeroSum() bool { return true }

// Features are the open lines with j stones for j from 1 to k − 1, the
// seat's and then the other's (implements games.Featurer): the heuristic's
// inputs, which a learned evaluation weighs anew.
func (b *Board) Features() []games.Feature {
	var out []games.Feature
	for _, whose := range []string{"mine", "theirs"} {
		for j := 1; j < b.K; j++ {
			out = append(out, games.Feature{Name: fmt.Sprintf("open%d.%s", j, whose), Doc: fmt.Sprintf("lines still open to %s holding %d of its stones", map[string]string{"mine": "the seat", "theirs": "the other seat"}[whose], j)})
		}
	}
	return out
}

// HandWeights make the features the heuristic: j² for the seat's, −j² for
// the other's.
func (b *Board) HandWeights() []float64 {
	var out []float64
	for _, sign := range []float64{1, -1} {
		for j := 1; j < b.K; j++ {
			out = append(out, sign*float64(j*j))
		}
	}
	return out
}

// AppendFeatures appends the features from seat's view (implements
// games.FeatureState); nothing is hidden in these games.
func (p *Position) AppendFeatures(buf []float64, seat games.Player) []float64 {
	k := p.B.K
	start := len(buf)
	for range 2 * (k - 1) {
		buf = append(buf, 0)
	}
	f := buf[start:]
	for _, l := range p.B.lines {
		mine, theirs := p.Stones[seat]&l, p.Stones[seat.Opponent()]&l
		switch j := bits.OnesCount64(mine | theirs); {
		case theirs == 0 && mine != 0 && j < k:
			f[j-1]++
		case mine == 0 && theirs != 0 && j < k:
			f[k-1+j-1]++
		}
	}
	return buf
}
