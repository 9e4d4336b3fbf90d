package stacktics

import (
	"fmt"
	"math/bits"
	"slices"

	"playtest/games"
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
	g        *Game
	board    [MaxSquares]cell
	occ      [2]uint64  // squares holding each army's stacks
	captured [2]int16   // pips captured by each army
	lost     [2][4]int8 // pieces of each size each army has lost
	hash     uint64
	hist     []uint64 // hashes of the positions since the last capture
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
	winner         games.Player
	reason         string
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

func (s *State) put(sq int, c cell) {
	s.board[sq] = c
	if c != 0 {
		s.occ[c.owner()] |= 1 << sq
	}
}

// Game returns the state's game.
func (s *State) Game() *Game { return s.g }

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

// Captured returns the pips an army has captured.
func (s *State) Captured(army int) int { return int(s.captured[army]) }

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

// Plies returns the number of moves played; the pie decision is not a move.
func (s *State) Plies() int { return int(s.plies) }

// Hash returns a hash of the position: board and army to move.
func (s *State) Hash() uint64 { return s.hash }

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
	return s.generate(int(s.toMove), buf, false)
}

// generate appends the moves of army. With first set it returns as soon as
// it has found one (used to detect a player without moves).
func (s *State) generate(army int, buf []games.Move, first bool) []games.Move {
	g := s.g
	for occ := s.occ[army]; occ != 0; occ &= occ - 1 {
		sq := bits.TrailingZeros64(occ)
		c := s.board[sq]
		h := c.height()
		for k := range h {
			unit, base := c.unit(k)
			alone := k == h-1
			reach := MaxRows + MaxCols
			if !alone {
				if unit.pips()-base < base {
					reach = g.loadedRange
				} else {
					reach = 1
				}
			}
			canCapture := alone && h >= 2
			d0, d1 := 0, 8
			switch base {
			case Small:
				d0 = 4
			case Medium:
				d1 = 4
			}
			for d := d0; d < d1; d++ {
				n := int(g.rayLen[sq][d])
				if reach < n {
					n = reach
				}
				ray := &g.rays[sq][d]
				for i := range n {
					t := int(ray[i])
					tc := s.board[t]
					if tc == 0 {
						buf = append(buf, encode(sq, t, k))
						continue
					}
					if tc.owner() == army {
						if base <= tc.top() {
							buf = append(buf, encode(sq, t, k))
						}
					} else if canCapture {
						buf = append(buf, encode(sq, t, k))
					}
					break
				}
				if first && len(buf) > 0 {
					return buf
				}
			}
		}
	}
	return buf
}

// hasMove reports whether army has a legal move.
func (s *State) hasMove(army int) bool {
	var scratch [MaxRows + MaxCols]games.Move
	return len(s.generate(army, scratch[:0], true)) > 0
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
	s.hash ^= cellKey(from, src) ^ cellKey(to, dst)
	capture := false
	switch {
	case dst == 0:
		s.board[to] = unit | src.ownerBits()
		s.occ[army] |= 1 << to
	case dst.owner() == army:
		s.board[to] = dst + unit
	default:
		capture = true
		s.captured[army] += int16(dst.pips())
		opp := army ^ 1
		s.lost[opp][Large] += int8(dst.larges())
		s.lost[opp][Medium] += int8(dst.mediums())
		s.lost[opp][Small] += int8(dst.smalls())
		s.board[to] = unit | src.ownerBits()
		s.occ[opp] &^= 1 << to
		s.occ[army] |= 1 << to
		if s.captures == 0 {
			s.firstCapturer = int8(army)
			s.firstTookLarge = dst.larges() > 0
		}
		s.captures++
	}
	if rest&countMask == 0 {
		rest = 0
		s.occ[army] &^= 1 << from
	}
	s.board[from] = rest
	s.hash ^= cellKey(from, rest) ^ cellKey(to, s.board[to]) ^ sideKey
	s.toMove ^= 1
	s.plies++
	if capture {
		s.hist = s.hist[:0]
		if int(s.captured[army]) >= s.g.threshold {
			s.end(s.seatOf(army), "capture-threshold")
			return
		}
	}
	if reps := s.g.rules.Repetition; reps > 0 {
		n := 1
		for _, h := range s.hist {
			if h == s.hash {
				n++
			}
		}
		s.hist = append(s.hist, s.hash)
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
	for sq := range s.g.squares {
		h ^= cellKey(sq, s.board[sq])
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
	for sq := range MaxSquares {
		c := s.board[sq]
		if sq >= s.g.squares {
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
