package capstone

import (
	"playtest/games"
	"playtest/games/pcg"
)

// Hidden information
//
// A seat sees everything but the other seat's goal stack (and so what is
// left in the bag). Determinize re-samples the other goal from what the
// observer knows: the bag's initial contents and its own goal.
//
// The draw is replayed, redraws included, on the bag minus the observer's
// goal, as the spec says. That is the exact posterior when the observer drew
// first (seat 1). When the observer drew second (seat 0) it is not quite:
// the first drawer's chance of a valid draw did not depend on the second
// goal, but the second drawer's did depend on the first, so the posterior
// of the first goal s1 given the second s0 is proportional to
// q(s1 | bag − s0) / V(bag − s1), where q is the plain sequential draw
// probability and V(b) the probability that a draw from b needs no redraw.
// Determinize corrects for it by accepting a replayed s1 with probability
// min V / V(bag − s1), which makes it exact in both cases (tested against
// the enumerated posterior with a chi-square test).
//
// With goal_order bot the other seat chose its goal's order; Determinize
// samples it uniformly (the bot's policy is unknown). During the setup, a
// draw in progress is re-sampled as a plain partial draw.

// Determinize re-samples the other seat's goal stack (and the bag) in place.
func (s *State) Determinize(observer games.Player, rng *pcg.Rand) {
	r := &s.g.rules
	opp := observer.Opponent()
	pool := s.otherPool(observer)
	switch {
	case int(s.goalLen[opp]) == r.GoalSize:
		s.setOtherGoal(observer, pool, s.sampleGoal(pool, observer, rng))
		return
	case s.drawer == opp && s.phase == phaseDraw && s.drawnN > 0:
		s.drawn = [MaxColors]uint8{}
		for i := range int(s.drawnN) {
			c := drawOne(&pool, r.Colors, rng)
			s.drawn[c]++
			s.goal[opp][i] = uint8(c)
		}
	default:
		return // nothing of the other seat is hidden yet
	}
	for c := range r.Colors {
		s.bag[c] = uint8(pool[c])
	}
}

// otherPool returns the Smalls the other seat's goal and the bag hold
// together, as observer knows them: the bag's initial contents less
// observer's own.
func (s *State) otherPool(observer games.Player) [MaxColors]int {
	pool := s.fullBag()
	known := s.ownSmalls(observer)
	for c := range s.g.rules.Colors {
		pool[c] -= known[c]
	}
	return pool
}

// setOtherGoal gives the other seat goal, drawn from pool (otherPool), and
// the bag the rest.
func (s *State) setOtherGoal(observer games.Player, pool [MaxColors]int, goal [MaxGoal]uint8) {
	r := &s.g.rules
	s.goal[observer.Opponent()] = goal
	for i := range r.GoalSize {
		pool[goal[i]]--
	}
	for c := range r.Colors {
		s.bag[c] = uint8(pool[c])
	}
}

// fullBag returns the bag's initial contents.
func (s *State) fullBag() [MaxColors]int {
	var b [MaxColors]int
	for c := range s.g.rules.Colors {
		b[c] = s.g.rules.BagPerColor
	}
	return b
}

// ownSmalls counts the Smalls a seat holds: its goal so far, and its draw
// in progress.
func (s *State) ownSmalls(seat games.Player) [MaxColors]int {
	var n [MaxColors]int
	for i := range s.goalLen[seat] {
		n[s.goal[seat][i]]++
	}
	if s.drawer == seat && (s.phase == phaseDraw || s.phase == phaseOrder) {
		for c := range s.g.rules.Colors {
			n[c] += int(s.drawn[c])
		}
	}
	return n
}

// drawOne draws one Small from pool, uniformly over the pieces.
func drawOne(pool *[MaxColors]int, colors int, rng *pcg.Rand) int {
	total := 0
	for c := range colors {
		total += pool[c]
	}
	x := rng.IntN(total)
	for c := range colors {
		if x < pool[c] {
			pool[c]--
			return c
		}
		x -= pool[c]
	}
	panic("capstone: draw from an empty bag")
}

// sampleGoal replays the other seat's draw on pool (redrawing invalid
// draws) and, when the observer drew second, applies the correction above.
func (s *State) sampleGoal(pool [MaxColors]int, observer games.Player, rng *pcg.Rand) [MaxGoal]uint8 {
	r := &s.g.rules
	for {
		var goal [MaxGoal]uint8
		var counts [MaxColors]int
		p := pool
		valid := true
		for i := range r.GoalSize {
			c := drawOne(&p, r.Colors, rng)
			goal[i] = uint8(c)
			counts[c]++
			valid = valid && counts[c] <= r.GoalMaxPerColor
		}
		if !valid {
			continue
		}
		if observer == games.Seat0 {
			v, vmin := s.g.remainderValidity(counts)
			if rng.Float64()*v >= vmin {
				continue
			}
		}
		if r.GoalOrder == GoalOrderBot {
			rng.Shuffle(r.GoalSize, func(i, j int) { goal[i], goal[j] = goal[j], goal[i] })
		}
		return goal
	}
}

// remainderValidity is V(bag − g) for one valid first goal g, whose colour
// counts are packed a byte each (packCounts).
type remainderValidity struct {
	counts uint64
	v      float64
}

// validities lists V(full bag − g) for every valid goal g, and the least.
type validities struct {
	list []remainderValidity
	min  float64
}

// packCounts packs colour counts (each at most MaxGoal) a byte each.
func packCounts(counts *[MaxColors]int) uint64 {
	var k uint64
	for c, n := range counts {
		k |= uint64(n) << (8 * c)
	}
	return k
}

// remainderValidities lists V(full bag − g) for every valid goal g.
func (g *Game) remainderValidities() validities {
	r := &g.rules
	var full [MaxColors]int
	for c := range r.Colors {
		full[c] = r.BagPerColor
	}
	out := validities{min: 2}
	eachValidGoal(r, full, func(counts [MaxColors]int) {
		var rest [MaxColors]int
		for c := range r.Colors {
			rest[c] = full[c] - counts[c]
		}
		v := validity(r, rest)
		out.list = append(out.list, remainderValidity{counts: packCounts(&counts), v: v})
		out.min = min(out.min, v)
	})
	return out
}

// remainderValidity returns V(full − counts) and the least such value.
func (g *Game) remainderValidity(counts [MaxColors]int) (v, vmin float64) {
	g.validityOnce.Do(func() { g.validity = g.remainderValidities() })
	key := packCounts(&counts)
	for _, rv := range g.validity.list {
		if rv.counts == key {
			return rv.v, g.validity.min
		}
	}
	return 0, g.validity.min
}

// eachValidGoal calls f with the colour counts of every goal that can be
// drawn from bag without a redraw.
func eachValidGoal(r *Rules, bag [MaxColors]int, f func([MaxColors]int)) {
	var counts [MaxColors]int
	var walk func(color, left int)
	walk = func(color, left int) {
		if color == r.Colors {
			if left == 0 {
				f(counts)
			}
			return
		}
		for n := 0; n <= min(left, r.GoalMaxPerColor, bag[color]); n++ {
			counts[color] = n
			walk(color+1, left-n)
		}
		counts[color] = 0
	}
	walk(0, r.GoalSize)
}

// validity is the probability that goal_size Smalls drawn from bag need no
// redraw (a multivariate hypergeometric sum).
func validity(r *Rules, bag [MaxColors]int) float64 {
	total := 0
	for c := range r.Colors {
		total += bag[c]
	}
	denom := binomial(total, r.GoalSize)
	sum := 0.0
	eachValidGoal(r, bag, func(counts [MaxColors]int) {
		ways := 1.0
		for c := range r.Colors {
			ways *= binomial(bag[c], counts[c])
		}
		sum += ways
	})
	return sum / denom
}

func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	v := 1.0
	for i := range k {
		v = v * float64(n-i) / float64(i+1)
	}
	return v
}
