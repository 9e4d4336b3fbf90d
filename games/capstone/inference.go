package capstone

import (
	"math"
	"math/bits"
	"slices"

	"playtest/games"
	"playtest/games/pcg"
)

// Inference
//
// A seat builds toward its own goal: the pieces it puts on the stacks
// (placed, or moved there) tend to sit where its goal wants them. The
// evidence of a goal for the other seat is how many of the other seat's
// pieces sit at the position (from the top, once their stack is full)
// where that goal wants their colour. An opponent model weighs each goal
// the draw could have given the other seat by exp(strength × evidence),
// strength learned from self-play (playtest learn --kind opponent).
//
// The goals are enumerated: each ordered goal's prior is its chance of
// being drawn in that order, one Small at a time from the bag less the
// observer's goal (valid draws only, with the correction of determinize.go
// when the observer drew second): its colour counts' chance, as
// Determinize draws them, shared equally by their distinct orders (drawn
// one at a time, or ordered by a bot that Determinize takes to order
// uniformly). A Belief draws from prior × weight exactly; Evidence gives
// the prior's chance of each evidence, for the fit. Where the ordered
// goals pass maxEnumerated (only with knobs far from the presets'), each
// world instead keeps one of inferProposals draws from the prior with
// chance proportional to its weight (sampling-importance-resampling), and
// Evidence gives none.

// maxEnumerated is the most ordered goals inference enumerates.
const maxEnumerated = 5000

// inferProposals is the number of goals drawn from the prior for each one
// kept beyond maxEnumerated.
const inferProposals = 32

// topBits[b] has the top bit of byte j set for each bit j of b.
var topBits = func() (t [256]uint64) {
	for b := range t {
		for j := range 8 {
			if b&(1<<j) != 0 {
				t[b] |= 0x80 << (8 * j)
			}
		}
	}
	return t
}()

// evidence counts the pieces seat put on the stacks that sit where goal
// wants their colour.
func (s *State) evidence(seat games.Player, goal *[MaxGoal]uint8) int {
	want := s.wantOf(goal)
	n := 0
	for st := range s.g.stacks {
		stk := &s.stacks[st]
		by := stk.by1
		if seat == games.Seat0 {
			by = ^by
		}
		n += bits.OnesCount64(stk.matches(want) & topBits[by])
	}
	return n
}

// goalEvidence is, for each position of a goal (from the top) and each
// colour, how many of seat's pieces a goal with that colour there would
// match: a goal's evidence is its positions' sum.
func (s *State) goalEvidence(seat games.Player) (m [MaxGoal][MaxColors]int) {
	r := &s.g.rules
	h := r.StackHeight
	for st := range s.g.stacks {
		stk := &s.stacks[st]
		for j := range int(stk.n) {
			if games.Player(stk.by1>>j&1) != seat {
				continue
			}
			if pos := h - 1 - j; pos < r.GoalSize {
				m[pos][stk.colors[j]]++
			}
		}
	}
	return m
}

// goalWalk enumerates the ordered goals the other seat may hold, as the
// observer knows it, with their prior weights (up to one factor) and
// evidence, and at each does what its mode says.
type goalWalk struct {
	s        *State
	observer games.Player
	pool     [MaxColors]int
	m        [MaxGoal][MaxColors]int
	goal     [MaxGoal]uint8
	counts   [MaxColors]int
	leaves   int
	mode     walkMode
	// poolTotal is the Smalls in the pool; tilt[e] weighs a goal of
	// evidence e, exp(strength × (e − the most evidence)); total sums the
	// weights (walkCollect) or the prior's (walkHistogram).
	poolTotal int
	tilt      [maxEvidence + 1]float64
	total     float64
	// hist sums the prior's weight of each evidence (walkHistogram).
	hist []float64
	// belief collects the goals (walkCollect).
	belief *goalBelief
}

// walkMode is what a goalWalk does at each goal.
type walkMode uint8

const (
	walkHistogram walkMode = iota // add the prior weight to hist at the goal's evidence
	walkCollect                   // append the goal and the weights' running total to belief
)

// newGoalWalk prepares the walk of the goals the other seat may hold.
func (s *State) newGoalWalk(observer games.Player, mode walkMode) goalWalk {
	w := goalWalk{s: s, observer: observer, pool: s.otherPool(observer), m: s.goalEvidence(observer.Opponent()), mode: mode}
	for c := range s.g.rules.Colors {
		w.poolTotal += w.pool[c]
	}
	return w
}

// tiltBy sets the weights of each evidence at strength.
func (w *goalWalk) tiltBy(strength float64) {
	most := 0
	for pos := range w.s.g.rules.GoalSize {
		most += slices.Max(w.m[pos][:w.s.g.rules.Colors])
	}
	for e := range most + 1 {
		w.tilt[e] = math.Exp(strength * float64(e-most))
	}
}

// maxEvidence bounds a goal's evidence: a piece at each of its positions
// on every stack.
const maxEvidence = MaxGoal * MaxStacks

// walk assigns position pos and on, the goal so far having the evidence
// given and the chance seq of being drawn in that order (one Small at a
// time from the pool); false stops the walk (more than maxEnumerated
// goals).
func (w *goalWalk) walk(pos, evidence int, seq float64) bool {
	r := &w.s.g.rules
	if pos == r.GoalSize {
		if w.leaves++; w.leaves > maxEnumerated {
			return false
		}
		return w.visit(evidence, w.prior(seq))
	}
	left := w.poolTotal - pos
	for c := range r.Colors {
		if w.counts[c] == min(r.GoalMaxPerColor, w.pool[c]) {
			continue
		}
		w.goal[pos] = uint8(c)
		p := seq * float64(w.pool[c]-w.counts[c]) / float64(left)
		w.counts[c]++
		ok := w.walk(pos+1, evidence+w.m[pos][c], p)
		w.counts[c]--
		if !ok {
			return false
		}
	}
	return true
}

// visit is the walk's step at the goal at hand, of the evidence and prior
// weight given.
func (w *goalWalk) visit(evidence int, prior float64) bool {
	if w.mode == walkHistogram {
		for len(w.hist) <= evidence {
			w.hist = append(w.hist, 0)
		}
		w.hist[evidence] += prior
		w.total += prior
		return true
	}
	if weight := prior * w.tilt[evidence]; weight > 0 {
		w.total += weight
		w.belief.goals = append(w.belief.goals, w.goal)
		w.belief.upTo = append(w.belief.upTo, w.total)
	}
	return true
}

// prior is the weight of the ordered goal at hand, drawn in its order with
// chance seq: with the correction of determinize.go when the observer drew
// second.
func (w *goalWalk) prior(seq float64) float64 {
	if w.observer != games.Seat0 {
		return seq
	}
	v, _ := w.s.g.remainderValidity(w.counts)
	if v == 0 {
		return 0
	}
	return seq / v
}

// goalBelief is the posterior of the other seat's goal at one position
// (Belief): every goal with its weights' running total; or, where the
// goals pass maxEnumerated, resample (sampling-importance-resampling each
// world); or neither, where nothing is weighed (the goal not yet drawn,
// or strength 0: Determinize).
type goalBelief struct {
	observer games.Player
	strength float64
	resample bool
	goals    [][MaxGoal]uint8
	upTo     []float64
}

// Belief implements games.Inferrer: the posterior of the other seat's
// goal as observer knows it in s, weighed at strength, for the worlds of
// one decision; it reuses reuse's memory when reuse is one.
func (s *State) Belief(observer games.Player, strength float64, reuse games.Belief) games.Belief {
	b, ok := reuse.(*goalBelief)
	if !ok {
		b = &goalBelief{}
	}
	b.observer, b.strength, b.resample = observer, strength, false
	b.goals, b.upTo = b.goals[:0], b.upTo[:0]
	if strength == 0 || int(s.goalLen[observer.Opponent()]) != s.g.rules.GoalSize {
		return b
	}
	w := s.newGoalWalk(observer, walkCollect)
	w.belief = b
	w.tiltBy(strength)
	if !w.walk(0, 0, 1) || len(b.goals) == 0 {
		b.goals, b.upTo, b.resample = b.goals[:0], b.upTo[:0], true
	}
	return b
}

// Determinize re-samples the other seat's goal of s, a copy of the
// position the belief was made at, from the belief.
func (b *goalBelief) Determinize(st games.State, rng *pcg.Rand) {
	s := st.(*State)
	switch {
	case b.resample:
		pool := s.otherPool(b.observer)
		s.setOtherGoal(b.observer, pool, s.resampleGoal(pool, b.observer, rng, b.strength))
	case len(b.goals) == 0:
		s.Determinize(b.observer, rng)
	default:
		x := rng.Float64() * b.upTo[len(b.upTo)-1]
		i, _ := slices.BinarySearch(b.upTo, x)
		for i < len(b.upTo)-1 && b.upTo[i] <= x {
			i++
		}
		s.setOtherGoal(b.observer, s.otherPool(b.observer), b.goals[i])
	}
}

// resampleGoal keeps one of inferProposals goals drawn from the prior with
// chance proportional to exp(strength × evidence).
func (s *State) resampleGoal(pool [MaxColors]int, observer games.Player, rng *pcg.Rand, strength float64) [MaxGoal]uint8 {
	opp := observer.Opponent()
	var goals [inferProposals][MaxGoal]uint8
	var ev [inferProposals]int
	most := 0
	for i := range goals {
		goals[i] = s.sampleGoal(pool, observer, rng)
		ev[i] = s.evidence(opp, &goals[i])
		most = max(most, ev[i])
	}
	var w [inferProposals]float64
	total := 0.0
	for i := range w {
		w[i] = math.Exp(strength * float64(ev[i]-most))
		total += w[i]
	}
	x := rng.Float64() * total
	for i := range w {
		if x < w[i] {
			return goals[i]
		}
		x -= w[i]
	}
	return goals[inferProposals-1]
}

// Evidence returns, once the other seat's goal is drawn and ordered, the
// evidence of it from observer's view (the truth), and appends to dst the
// prior chance of each evidence 0, 1, … over the goals Determinize could
// sample; ok is false before, and where the goals pass maxEnumerated.
func (s *State) Evidence(observer games.Player, dst []float64) (truth int, prior []float64, ok bool) {
	opp := observer.Opponent()
	if int(s.goalLen[opp]) != s.g.rules.GoalSize || s.InSetup() {
		return 0, dst, false
	}
	w := s.newGoalWalk(observer, walkHistogram)
	if !w.walk(0, 0, 1) || !(w.total > 0) {
		return 0, dst, false
	}
	for _, p := range w.hist {
		dst = append(dst, p/w.total)
	}
	return s.evidence(opp, &s.goal[opp]), dst, true
}
