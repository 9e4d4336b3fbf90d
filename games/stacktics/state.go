package stacktics

import (
	"fmt"
	"math/bits"
	"slices"

	"playtest/games"
	"playtest/games/pcg"
)

// cell is one square: the counts of Larges, Mediums and Smalls in its stack
// (4 bits each) and the owning army. Any legal stack is Larges, then Mediums,
// then Smalls from the bottom up (a piece only goes on one at least as
// large), so the counts describe it completely. An empty square is 0.
type cell uint16

const (
	sShift    = 0
	mShift    = 4
	lShift    = 8
	countMask = 0x0fff
	ownerB    = cell(1 << 12)
)

func makeCell(army, l, m, s int) cell {
	c := cell(l<<lShift | m<<mShift | s<<sShift)
	if army == ArmyB {
		c |= ownerB
	}
	return c
}

func (c cell) owner() int      { return int(c >> 12 & 1) }
func (c cell) larges() int     { return int(c >> lShift & 0xf) }
func (c cell) mediums() int    { return int(c >> mShift & 0xf) }
func (c cell) smalls() int     { return int(c >> sShift & 0xf) }
func (c cell) height() int     { return c.larges() + c.mediums() + c.smalls() }
func (c cell) pips() int       { return 3*c.larges() + 2*c.mediums() + c.smalls() }
func (c cell) ownerBits() cell { return c & ownerB }

// bottom returns the size of the bottom piece of a non-empty stack.
func (c cell) bottom() int {
	switch {
	case c&0xf00 != 0:
		return Large
	case c&0x0f0 != 0:
		return Medium
	}
	return Small
}

// top returns the size of the top piece of a non-empty stack.
func (c cell) top() int {
	switch {
	case c&0x00f != 0:
		return Small
	case c&0x0f0 != 0:
		return Medium
	}
	return Large
}

// unit returns the counts (no owner) of the unit whose base is the piece at
// height k (0 = bottom), and the base's size.
func (c cell) unit(k int) (cell, int) {
	l, m := c.larges(), c.mediums()
	switch {
	case k < l:
		return c&countMask - cell(k<<lShift), Large
	case k < l+m:
		return c&(0x0ff) - cell((k-l)<<mShift), Medium
	}
	return c&0x00f - cell(k-l-m), Small
}

// Phases of a game.
const (
	phasePlay uint8 = iota
	phasePie        // seat 1 chooses keep or swap
	phaseOver
)

// State is a Stacktics position. Its board is a fixed array, so copying the
// struct copies the position; only the repetition history is a slice, whose
// memory CopyFrom reuses.
type State struct {
	g       *Game
	board   [MaxSquares]cell
	occ     [2]uint64 // squares holding each army's stacks
	tops    [4]uint64 // tops[size]: squares whose top piece has that size
	bottoms [4]uint64 // bottoms[size]: squares whose bottom piece has that size
	// slots[sq] caches the RandomMove slots of the stack on sq (a lookup in
	// g.slotTable, kept here because RandomMove sums it every ply).
	slots [MaxSquares]uint16
	// slotSum[army] is the sum of slots over army's stacks.
	slotSum  [2]int32
	captured [2]int16   // pips captured by each army
	lost     [2][4]int8 // pieces of each size each army has lost
	hash     uint64
	// hist holds the hashes of the positions since the last capture; seen
	// is a Bloom filter of them, so that most moves need no scan of hist.
	hist     []uint64
	seen     [bloomWords]uint64
	plies    int32
	captures int16
	toMove   uint8 // army to move
	swapped  bool  // the pie swap was taken: seat 1 commands army A
	phase    uint8
	pie      int8 // -1 no decision yet, 0 kept, 1 swapped
	// firstCapturer is the army that made the game's first capture (-1:
	// none yet); firstTookLarge says whether that capture took a Large.
	firstCapturer  int8
	firstTookLarge bool
	// firstLoss classifies each army's first three pips lost (lossLarge,
	// lossSmallMedium, lossOther; lossNone until then).
	firstLoss [2]int8
	winner    games.Player
	reason    string
}

// Classes of an army's first three pips lost (the designer's claim that
// "losing a large is worse than losing both a small and a medium").
const (
	lossNone        int8 = iota // fewer than three pips lost yet
	lossLarge                   // exactly one Large
	lossSmallMedium             // exactly one Small and one Medium
	lossOther                   // anything else, or unknown history
)

// classifyLoss classifies the pieces an army has lost when they first
// reach three pips.
func classifyLoss(lost [4]int8) int8 {
	switch lost {
	case [4]int8{Large: 1}:
		return lossLarge
	case [4]int8{Small: 1, Medium: 1}:
		return lossSmallMedium
	}
	return lossOther
}

// classifyPastLosses sets firstLoss for a position set up without its
// history: three pips lost are classified by what they are; more than
// three leave the first three unknown.
func (s *State) classifyPastLosses() {
	for army := range 2 {
		switch pips := s.captured[army^1]; {
		case pips == 3:
			s.firstLoss[army] = classifyLoss(s.lost[army])
		case pips > 3:
			s.firstLoss[army] = lossOther
		}
	}
}

// Occupied returns the squares holding a stack (implements games.Coverer).
func (s *State) Occupied() uint64 { return s.occ[0] | s.occ[1] }

// Cells is the number of squares of the board.
func (s *State) Cells() int { return s.g.rows * s.g.cols }

// Hash returns the position's Zobrist hash, with the phase (pie decision
// or play) and the pie swap folded in. The repetition history is not part
// of it, as usual for transposition tables.
func (s *State) Hash() uint64 {
	h := s.hash ^ uint64(s.phase)*0x9e3779b97f4a7c15
	if s.swapped {
		h ^= 0xd6e8feb86659fd93
	}
	return h
}

// bloomWords is the size of the repetition Bloom filter in 64-bit words.
const bloomWords = 8

func (s *State) remember(h uint64) {
	s.seen[h>>61&(bloomWords-1)] |= 1 << (h >> 55 & 63)
}

func (s *State) mayHaveSeen(h uint64) bool {
	return s.seen[h>>61&(bloomWords-1)]&(1<<(h>>55&63)) != 0
}

// Move encodings: from | to<<6 | base<<12; the pie decisions are above.
const (
	moveKeep games.Move = 1 << 20
	moveSwap games.Move = 1<<20 | 1
)

func encode(from, to, base int) games.Move { return games.Move(from | to<<6 | base<<12) }

func decode(m games.Move) (from, to, base int) {
	return int(m & 63), int(m >> 6 & 63), int(m >> 12 & 31)
}

// setCell replaces the stack on sq (0 for none) and keeps the occupancy,
// top and bottom bitboards, the sampling slots and the hash in step with
// the board. An empty square has no bits, slots or hash key to change.
func (s *State) setCell(sq int, c cell) {
	old := s.board[sq]
	bit := uint64(1) << sq
	if old != 0 {
		s.occ[old.owner()] &^= bit
		s.tops[old.top()] &^= bit
		s.bottoms[old.bottom()] &^= bit
		s.slotSum[old.owner()] -= int32(s.slots[sq])
		s.hash ^= cellKey(sq, old)
	}
	var slots uint16 // an empty square has none
	if c != 0 {
		slots = s.g.slotTable[s.g.slotIndex(c, sq)]
		s.slotSum[c.owner()] += int32(slots)
		s.occ[c.owner()] |= bit
		s.tops[c.top()] |= bit
		s.bottoms[c.bottom()] |= bit
		s.hash ^= cellKey(sq, c)
	}
	s.slots[sq] = slots
	s.board[sq] = c
}

// seatOf returns the seat commanding an army.
func (s *State) seatOf(army int) games.Player {
	if s.swapped {
		return games.Player(army ^ 1)
	}
	return games.Player(army)
}

// armyOf returns the army a seat commands.
func (s *State) armyOf(seat games.Player) int {
	if s.swapped {
		return int(seat) ^ 1
	}
	return int(seat)
}

// SideOf returns the army (0 = A, 1 = B) a seat commands.
func (s *State) SideOf(seat games.Player) int { return s.armyOf(seat) }

// ArmyToMove returns the army whose move it is.
func (s *State) ArmyToMove() int { return int(s.toMove) }

// CurrentPlayer returns the seat to decide, or games.Terminal.
func (s *State) CurrentPlayer() games.Player {
	switch s.phase {
	case phaseOver:
		return games.Terminal
	case phasePie:
		return games.Seat1
	}
	return s.seatOf(int(s.toMove))
}

// IsTerminal reports whether the game has ended.
func (s *State) IsTerminal() bool { return s.phase == phaseOver }

// Result returns how the game ended.
func (s *State) Result() games.Result { return games.Result{Winner: s.winner, Reason: s.reason} }

// PieDecision reports whether seat 1 is to choose keep or swap
// (games.PieDecider).
func (s *State) PieDecision() bool { return s.phase == phasePie }

// Plies returns the number of moves played; the pie decision is not a move.
func (s *State) Plies() int { return int(s.plies) }

// ChanceOutcomes appends nothing: Stacktics has no chance.
func (s *State) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome { return buf }

// Clone returns an independent copy.
func (s *State) Clone() games.State {
	c := *s
	c.hist = slices.Clone(s.hist)
	return &c
}

// CopyFrom makes s a copy of src (a *State), reusing s's history memory.
func (s *State) CopyFrom(src games.State) {
	o := src.(*State)
	hist := s.hist
	*s = *o
	s.hist = append(hist[:0], o.hist...)
}

// LegalMoves appends the legal decisions of the current player.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	switch s.phase {
	case phaseOver:
		return buf
	case phasePie:
		return append(buf, moveKeep, moveSwap)
	}
	army := int(s.toMove)
	blockers, allowed := s.stops(army)
	for occ := s.occ[army]; occ != 0; occ &= occ - 1 {
		sq := bits.TrailingZeros64(occ)
		groups, lower, top := s.stackTargets(sq, blockers, s.occ[army^1], &allowed)
		k := 0 // height of the group's first base
		for base := Large; base >= Small; base-- {
			n := int(groups[base].n)
			for i := range n {
				to := lower[base]
				if i == n-1 {
					to = top[base]
				}
				for ; to != 0; to &= to - 1 {
					buf = append(buf, encode(sq, bits.TrailingZeros64(to), k+i))
				}
			}
			k += n
		}
	}
	return buf
}

// ForcingMoves appends the captures of the army to move (games.Forcing):
// the most pips won first, and among equal ones the cheaper moving unit
// first (it risks less). The pie decision has none.
func (s *State) ForcingMoves(buf []games.Move) []games.Move {
	if s.phase != phasePlay {
		return buf
	}
	start := len(buf)
	buf = s.LegalMoves(buf)
	army := s.toMove
	out := buf[:start]
	for _, m := range buf[start:] {
		if _, to, _ := decode(m); s.board[to] != 0 && s.board[to].owner() != int(army) {
			out = append(out, m)
		}
	}
	captures := out[start:]
	for i := 1; i < len(captures); i++ { // insertion sort: a handful of moves
		for j := i; j > 0 && s.captureBefore(captures[j], captures[j-1]); j-- {
			captures[j], captures[j-1] = captures[j-1], captures[j]
		}
	}
	return out
}

// captureBefore orders captures: more pips won, then a cheaper unit.
func (s *State) captureBefore(a, b games.Move) bool {
	fa, ta, ka := decode(a)
	fb, tb, kb := decode(b)
	wa, wb := s.board[ta].pips(), s.board[tb].pips()
	if wa != wb {
		return wa > wb
	}
	ua, _ := s.board[fa].unit(ka)
	ub, _ := s.board[fb].unit(kb)
	return ua.pips() < ub.pips()
}

// RandomMove returns a uniformly random legal decision: the same
// distribution as a uniform pick from LegalMoves, without listing the moves
// (implements games.RandomMover).
//
// It samples by rejection. Each unit gets as many slots as its base's lines
// have squares on the board within its reach, nearest first (a number that
// depends only on the stack and its square); one slot is drawn uniformly
// among all the army's slots and kept if its square is a legal destination
// (the path is clear and the unit may stop there). Every legal move is
// exactly one slot, so a kept slot is a uniform legal move. After
// rejectionTries rejections it falls back to counting every unit's
// destinations, which is uniform too, so the mixture is.
func (s *State) RandomMove(rng *pcg.Rand) games.Move {
	if s.phase == phasePie {
		return moveKeep + games.Move(rng.IntN(2))
	}
	g := s.g
	army := int(s.toMove)
	own, enemy := s.occ[army], s.occ[army^1]
	all := own | enemy
	_, allowed := s.stops(army)
	total := int(s.slotSum[army])
	g.slotMovesOnce.Do(g.initSlotMoves)
	for range rejectionTries {
		// Slot r of the army's slots, in square order: slot r of the stack
		// on sq.
		r := int32(rng.IntN(total))
		occ := own
		sq := bits.TrailingZeros64(occ)
		for sl := int32(s.slots[sq]); r >= sl; sl = int32(s.slots[sq]) {
			r -= sl
			occ &= occ - 1
			sq = bits.TrailingZeros64(occ)
		}
		c := s.board[sq]
		slot := g.slotMoves[g.slotStart[g.slotIndex(c, sq)]+uint32(r)]
		t := int(slot.to)
		// The slot is a legal move when nothing stands between and the
		// unit may stop on t (see stops) or capture there: one branch,
		// whose outcome no predictor can guess, instead of several.
		stop := (uint64(1) << t) & (allowed[slot.base&3] | enemy&-uint64(slot.capture))
		blocked := g.between[sq][t] & all
		if stop&(((blocked|-blocked)>>63)-1) != 0 {
			return encode(sq, t, int(slot.k))
		}
	}
	return s.countedRandomMove(rng)
}

// A stack is a group of Larges, then of Mediums, then of Smalls. In a group
// of n pieces of size b, the n−1 lower bases carry at least b pips (another
// piece of the group) and are overloaded; the group's top base carries the
// pips w of the smaller groups above it: alone if w = 0, loaded if w < b,
// overloaded otherwise.

// groupShape describes the bases of one size in one shape of stack: how
// far each may go and whether the top one may capture.
type groupShape struct {
	// n is the number of bases of this size in the stack.
	n uint8
	// lowers is the number of the group's bases below its top one, each
	// overloaded: one king step.
	lowers uint8
	// reach is the number of king steps the top base may go (7: any
	// distance on 8×8), 0 when the stack has no base of this size.
	reach uint8
	// alone is 1 when the top base carries nothing (the unit is one piece);
	// capture is 1 when it is alone and leaves a stack of two or more, so
	// that it may move onto an enemy stack.
	alone, capture uint8
}

// initGroups fills groups for every cell's counts.
func (g *Game) initGroups() {
	for c := range cell(countMask + 1) {
		counts := [4]int{0, c.smalls(), c.mediums(), c.larges()}
		w := c.pips() // pips from the current group up
		for base := Large; base >= Small; base-- {
			n := counts[base]
			if n == 0 {
				continue
			}
			w -= n * base // now the pips above the group
			gs := &g.groups[c][base]
			gs.n, gs.lowers = uint8(n), uint8(n-1)
			switch {
			case w == 0:
				gs.reach, gs.alone = 7, 1
				if c.height() >= 2 {
					gs.capture = 1
				}
			case w < base:
				gs.reach = uint8(g.loadedRange)
			default:
				gs.reach = 1
			}
		}
	}
}

// destinations returns where the group's lower bases and its top base may
// go, given the lines of the base's shape from its square (the first
// occupied square of each included), where a base of its size may stop
// (allowed), the enemy stacks and the square's reach table.
func (gs *groupShape) destinations(lines, allowed, enemy uint64, reach *[8]uint64) (lower, top uint64) {
	att := lines & allowed
	return att & reach[1], att&reach[gs.reach] | lines&enemy&-uint64(gs.capture)
}

// stackSlots returns the number of RandomMove slots of the units of stack c
// on sq.
func (g *Game) stackSlots(c cell, sq int) int {
	total := 0
	for base := Small; base <= Large; base++ {
		gs := g.groups[c&countMask][base]
		within := &g.candWithin[base][sq]
		total += int(gs.lowers)*int(within[1]) + int(within[gs.reach])
	}
	return total
}

// slotUnit maps a slot r of stack c on sq (0 ≤ r < stackSlots) to its
// unit's base height k and size, the index of the slot among the base's
// candidate squares, and whether the unit may capture (groupShape.capture).
func (g *Game) slotUnit(c cell, sq, r int) (k, base, slot int, capture uint8) {
	for base = Large; base >= Small; base-- {
		gs := g.groups[c&countMask][base]
		if gs.reach == 0 {
			continue
		}
		lowers := int(gs.lowers)
		one := int(g.candWithin[base][sq][1])
		if lower := lowers * one; r < lower {
			return k + r/one, base, r % one, 0
		} else {
			r -= lower
		}
		if top := int(g.candWithin[base][sq][gs.reach]); r < top {
			return k + lowers, base, r, gs.capture
		} else {
			r -= top
		}
		k += int(gs.n)
	}
	panic("stacktics: slot out of range")
}

// rejectionTries bounds RandomMove's rejection sampling.
const rejectionTries = 32

// countedRandomMove draws a uniform legal move by counting every unit's
// destinations.
func (s *State) countedRandomMove(rng *pcg.Rand) games.Move {
	m, n := s.PickMove(games.UniformPicker{Rng: rng})
	if n == 0 {
		panic("stacktics: RandomMove on a position without moves")
	}
	return m
}

// PickMove counts the legal decisions, asks picker for one by its index in
// LegalMoves order and returns it, without listing the moves (implements
// games.MovePicker): it counts each stack's moves, finds the stack holding
// the picked one, and walks only that stack's destinations.
func (s *State) PickMove(picker games.IndexPicker) (games.Move, int) {
	switch s.phase {
	case phaseOver:
		return 0, 0
	case phasePie:
		return moveKeep + games.Move(picker.PickIndex(2)), 2 // keep, swap
	}
	army := int(s.toMove)
	var counts [MaxSquares]uint16
	total := s.moveCounts(army, &counts)
	if total == 0 {
		return 0, 0
	}
	r := picker.PickIndex(total)
	occ := s.occ[army]
	sq := bits.TrailingZeros64(occ)
	for r >= int(counts[sq]) {
		r -= int(counts[sq])
		occ &= occ - 1
		sq = bits.TrailingZeros64(occ)
	}
	return s.stackMove(army, sq, r), total
}

// stackMove returns move r, in LegalMoves order, of the stack on sq.
func (s *State) stackMove(army, sq, r int) games.Move {
	blockers, allowed := s.stops(army)
	groups, lower, top := s.stackTargets(sq, blockers, s.occ[army^1], &allowed)
	k := 0 // height of the group's first base
	for base := Large; base >= Small; base-- {
		lowers := int(groups[base].lowers)
		if per := bits.OnesCount64(lower[base]); r < lowers*per {
			return encode(sq, games.NthBit(lower[base], r%per), k+r/per)
		} else {
			r -= lowers * per
		}
		if n := bits.OnesCount64(top[base]); r < n {
			return encode(sq, games.NthBit(top[base], r), k+lowers)
		} else {
			r -= n
		}
		k += int(groups[base].n)
	}
	panic("stacktics: picked index out of range")
}

// stackTargets returns the groups of the stack on sq and, for each size of
// base, where the group's lower bases and its top base may go (see
// groupShape.destinations), given the blockers and the squares a base of
// each size may stop on for the stack's army (see stops) and the enemy
// stacks.
//
// A unit's destinations are the slider attacks of its base's shape (the
// first occupied square of each line included, the squares off the board
// acting as blockers), limited to loaded_range king steps when it is loaded
// and to one when overloaded, then filtered: empty squares, own stacks whose
// top is at least as large as the base, and enemy stacks when the unit is a
// single piece leaving a stack of two or more. The attacks are looked up
// once per kind of line, and filtered once per base size: a stack is
// Larges, then Mediums, then Smalls, so the bases of one size are
// consecutive.
func (s *State) stackTargets(sq int, blockers, enemy uint64, allowed *[4]uint64) (groups *[4]groupShape, lower, top [4]uint64) {
	g := s.g
	groups = &g.groups[s.board[sq]&countMask]
	reach := &g.reach[sq]
	rook, bishop := rookAttacks(sq, blockers), bishopAttacks(sq, blockers)
	lines := [4]uint64{Small: bishop, Medium: rook, Large: rook | bishop}
	for base := Small; base <= Large; base++ {
		lower[base], top[base] = groups[base].destinations(lines[base], allowed[base], enemy, reach)
	}
	return groups, lower, top
}

// stops returns the slider tables' blockers for army's moves and, for each
// size of base, the squares it may stop on: empty squares and own stacks
// whose top is at least as large.
func (s *State) stops(army int) (blockers uint64, allowed [4]uint64) {
	g := s.g
	own, enemy := s.occ[army], s.occ[army^1]
	empty := g.onBoard &^ (own | enemy)
	allowed[Large] = empty | own&s.tops[Large]
	allowed[Medium] = allowed[Large] | own&s.tops[Medium]
	allowed[Small] = empty | own
	return own | enemy | g.offBoard, allowed
}

// File masks of the 8-wide square space, for shifting bitboards sideways.
const (
	notFileA = ^uint64(0x0101010101010101)
	notFileH = ^uint64(0x8080808080808080)
)

// hasMove reports whether army has a legal move. Any stack next to an empty
// square in its bottom piece's shape can move there whole (every unit
// reaches at least one square), which settles almost every position with a
// few shifts; otherwise it counts the moves.
func (s *State) hasMove(army int) bool {
	own := s.occ[army]
	empty := s.g.onBoard &^ (own | s.occ[army^1])
	q := own & s.bottoms[Large]
	r := own&s.bottoms[Medium] | q
	b := own&s.bottoms[Small] | q
	orth := r<<8 | r>>8 | (r<<1)&notFileA | (r>>1)&notFileH
	diag := (b<<9|b>>7)&notFileA | (b>>9|b<<7)&notFileH
	if (orth|diag)&empty != 0 {
		return true
	}
	return s.mobility(army) > 0
}

// mobility counts army's legal moves as if it were to move.
func (s *State) mobility(army int) int {
	var counts [MaxSquares]uint16
	return s.moveCounts(army, &counts)
}

// moveCounts returns how many legal moves army has and stores each stack's
// in counts by square. It counts what stackTargets finds, without a branch
// on a stack's shape.
func (s *State) moveCounts(army int, counts *[MaxSquares]uint16) int {
	g := s.g
	enemy := s.occ[army^1]
	blockers, allowed := s.stops(army)
	total := 0
	for occ := s.occ[army]; occ != 0; occ &= occ - 1 {
		sq := bits.TrailingZeros64(occ)
		groups := &g.groups[s.board[sq]&countMask]
		reach := &g.reach[sq]
		rook, bishop := rookAttacks(sq, blockers), bishopAttacks(sq, blockers)
		n := groups[Large].count(rook|bishop, allowed[Large], enemy, reach) +
			groups[Medium].count(rook, allowed[Medium], enemy, reach) +
			groups[Small].count(bishop, allowed[Small], enemy, reach)
		counts[sq] = uint16(n)
		total += n
	}
	return total
}

// count returns how many moves the group's bases have (see destinations).
func (gs *groupShape) count(lines, allowed, enemy uint64, reach *[8]uint64) int {
	lower, top := gs.destinations(lines, allowed, enemy, reach)
	return int(gs.lowers)*bits.OnesCount64(lower) + bits.OnesCount64(top)
}

// Apply plays a legal move or pie decision.
func (s *State) Apply(m games.Move) {
	if s.phase == phasePie {
		s.pie = 0
		if m == moveSwap {
			s.swapped = true
			s.pie = 1
		}
		s.phase = phasePlay
		s.checkNoMoves()
		return
	}
	from, to, k := decode(m)
	src, dst := s.board[from], s.board[to]
	army := src.owner()
	unit, _ := src.unit(k)
	rest := src - unit
	if rest&countMask == 0 {
		rest = 0
	}
	arrived := unit | src.ownerBits()
	capture := dst != 0 && dst.owner() != army
	switch {
	case capture:
		s.captured[army] += int16(dst.pips())
		opp := army ^ 1
		s.lost[opp][Large] += int8(dst.larges())
		s.lost[opp][Medium] += int8(dst.mediums())
		s.lost[opp][Small] += int8(dst.smalls())
		if s.captures == 0 {
			s.firstCapturer = int8(army)
			s.firstTookLarge = dst.larges() > 0
		}
		if s.firstLoss[opp] == lossNone && s.captured[army] >= 3 {
			s.firstLoss[opp] = classifyLoss(s.lost[opp])
		}
		s.captures++
	case dst != 0:
		arrived = dst + unit // onto an own stack, on top, in order
	}
	s.setCell(from, rest)
	s.setCell(to, arrived)
	s.hash ^= sideKey
	s.toMove ^= 1
	s.plies++
	if capture {
		s.hist = s.hist[:0]
		s.seen = [bloomWords]uint64{}
		if int(s.captured[army]) >= s.g.threshold {
			s.end(s.seatOf(army), "capture-threshold")
			return
		}
	}
	if reps := s.g.rules.Repetition; reps > 0 {
		n := 1
		if s.mayHaveSeen(s.hash) {
			for _, h := range s.hist {
				if h == s.hash {
					n++
				}
			}
		}
		s.hist = append(s.hist, s.hash)
		s.remember(s.hash)
		if n >= reps {
			s.end(games.NoPlayer, games.ReasonRepetition)
			return
		}
	}
	if int(s.plies) >= s.g.rules.MaxPlies {
		s.end(games.NoPlayer, games.ReasonMaxPlies)
		return
	}
	if s.plies == 1 && s.g.pieRule {
		s.phase = phasePie
		return
	}
	s.checkNoMoves()
}

// checkNoMoves ends the game when the player to move has no legal move.
func (s *State) checkNoMoves() {
	if s.hasMove(int(s.toMove)) {
		return
	}
	if s.g.rules.NoMoves == NoMovesDraw {
		s.end(games.NoPlayer, games.ReasonNoLegalMove)
		return
	}
	s.end(s.seatOf(int(s.toMove)^1), games.ReasonNoLegalMove)
}

func (s *State) end(winner games.Player, reason string) {
	s.phase = phaseOver
	s.winner = winner
	s.reason = reason
}

// sideKey is folded into the hash when army B is to move.
const sideKey = 0x9e3779b97f4a7c15

// cellKey hashes one square's contents (splitmix64 finaliser).
func cellKey(sq int, c cell) uint64 {
	if c == 0 {
		return 0
	}
	z := uint64(sq)<<16 | uint64(c)
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (s *State) computeHash() uint64 {
	var h uint64
	for sq, c := range s.board {
		h ^= cellKey(sq, c)
	}
	if s.toMove == ArmyB {
		h ^= sideKey
	}
	return h
}

// CheckInvariants verifies the spec's invariants and the cached data.
func (s *State) CheckInvariants() error {
	size := s.g.rules.Size
	var onBoard [2][4]int
	var pips [2]int
	var occ [2]uint64
	var tops, bottoms [4]uint64
	for sq := range MaxSquares {
		c := s.board[sq]
		if s.g.offBoard&(1<<sq) != 0 {
			if c != 0 {
				return fmt.Errorf("square %d is off the board but holds %#x", sq, c)
			}
			continue
		}
		if c&countMask == 0 {
			if c != 0 {
				return fmt.Errorf("%s: empty stack stored with an owner", s.g.SquareName(sq))
			}
			continue
		}
		o := c.owner()
		onBoard[o][Large] += c.larges()
		onBoard[o][Medium] += c.mediums()
		onBoard[o][Small] += c.smalls()
		pips[o] += c.pips()
		occ[o] |= 1 << sq
		tops[c.top()] |= 1 << sq
		bottoms[c.bottom()] |= 1 << sq
		if c.larges() > size || c.mediums() > size || c.smalls() > size {
			return fmt.Errorf("%s: impossible stack %s", s.g.SquareName(sq), pieceLetters(c))
		}
	}
	if tops != s.tops {
		return fmt.Errorf("top-piece bitboards %x, cached %x", tops, s.tops)
	}
	var slotSum [2]int32
	for sq, c := range s.board {
		if want := s.g.stackSlots(c, sq); int(s.slots[sq]) != want {
			return fmt.Errorf("%s: %d sampling slots cached, want %d", s.g.SquareName(sq), s.slots[sq], want)
		}
		slotSum[c.owner()] += int32(s.slots[sq])
	}
	if slotSum != s.slotSum {
		return fmt.Errorf("sampling slots per army %v, cached %v", slotSum, s.slotSum)
	}
	if bottoms != s.bottoms {
		return fmt.Errorf("bottom-piece bitboards %x, cached %x", bottoms, s.bottoms)
	}
	for i, h := range s.hist {
		if !s.mayHaveSeen(h) {
			return fmt.Errorf("history entry %d is missing from the repetition filter", i)
		}
	}
	for army := range 2 {
		if got := pips[army] + int(s.captured[army^1]); got != s.g.forcePips {
			return fmt.Errorf("army %s: %d pips on the board + %d captured by the opponent = %d, want %d",
				armyName(army), pips[army], s.captured[army^1], got, s.g.forcePips)
		}
		for size2 := Small; size2 <= Large; size2++ {
			if n := onBoard[army][size2] + int(s.lost[army][size2]); n != size {
				return fmt.Errorf("army %s: %d pieces of size %d on the board + lost, want %d", armyName(army), n, size2, size)
			}
		}
		if occ[army] != s.occ[army] {
			return fmt.Errorf("army %s: occupancy %#x, cached %#x", armyName(army), occ[army], s.occ[army])
		}
	}
	if h := s.computeHash(); h != s.hash {
		return fmt.Errorf("hash %#x, recomputed %#x", s.hash, h)
	}
	if s.phase != phaseOver && int(s.plies) >= s.g.rules.MaxPlies {
		return fmt.Errorf("%d plies played but the game is not over (max_plies %d)", s.plies, s.g.rules.MaxPlies)
	}
	if s.phase == phaseOver && s.reason == "" {
		return fmt.Errorf("game over without a reason")
	}
	return nil
}

func armyName(army int) string { return string(rune('A' + army)) }

// AppendKey appends the position's exact key (games.Keyer): every square's
// stack, the army to move, the phase, the pie swap, and whether the pie
// decision is still to come (so the start position differs from its
// recurrence later in a game). The captured pips follow from the board;
// the history, the ply count and what only metrics record are left out.
func (s *State) AppendKey(dst []byte) []byte {
	g := s.g
	for row := range g.rows {
		for col := range g.cols {
			c := s.board[g.square(row, col)]
			dst = append(dst, byte(c), byte(c>>8))
		}
	}
	var flags byte
	if s.swapped {
		flags |= keySwapped
	}
	if g.pieRule && s.pie < 0 {
		flags |= keyPiePending
	}
	return append(dst, s.toMove|s.phase<<1|flags)
}

// Flags of a key's last byte, above the army to move (bit 0) and the
// phase (bits 1–2).
const (
	keySwapped    = 1 << 3
	keyPiePending = 1 << 4
)

// SetKey makes s the position a key written by AppendKey describes, for a
// state of the same game (games.Keyer). Its history starts afresh there.
func (s *State) SetKey(key []byte) {
	g := s.g
	hist := s.hist[:0]
	*s = g.initial
	for row := range g.rows {
		for col := range g.cols {
			s.setCell(g.square(row, col), 0)
		}
	}
	i := 0
	for row := range g.rows {
		for col := range g.cols {
			s.setCell(g.square(row, col), cell(key[i])|cell(key[i+1])<<8)
			i += 2
		}
	}
	flags := key[i]
	if army := flags & 1; army != s.toMove {
		s.toMove = army
		s.hash ^= sideKey
	}
	s.phase = flags >> 1 & 3
	s.swapped = flags&keySwapped != 0
	s.pie, s.plies = -1, 0
	if flags&keyPiePending == 0 {
		// Any ply count past the first keeps the pie decision behind us.
		s.plies = 2
		if g.pieRule {
			s.pie = 0
			if s.swapped {
				s.pie = 1
			}
		}
	}
	force := 6 * g.rules.Size
	for army := range 2 {
		pips, left := 0, [4]int{}
		for sq := range s.board {
			if c := s.board[sq]; c != 0 && c.owner() == army {
				pips += c.pips()
				left[Large] += c.larges()
				left[Medium] += c.mediums()
				left[Small] += c.smalls()
			}
		}
		s.captured[army^1] = int16(force - pips)
		for size := Small; size <= Large; size++ {
			s.lost[army][size] = int8(g.rules.Size - left[size])
		}
	}
	s.classifyPastLosses()
	s.hist = append(hist, s.hash)
	s.seen = [bloomWords]uint64{}
	s.remember(s.hash)
}
