package stacks

import (
	"fmt"
	"math/bits"

	"playtest/games"
)

// phase is what a state waits for.
type phase uint8

const (
	phaseDraw phase = iota // chance: the drawer draws the top card of its stock
	phasePlay              // the player to move chooses a card and its move
	phaseOver
)

// Results of a turn, indexing State.turnKinds: a stacking move, then the
// penalties −1 to −5.
const (
	turnStack = iota
	turnMinus1
	turnMinus2
	turnMinus3
	turnMinus4
	turnMinus5
	turnKinds
)

// turnPoints are the points of each turn kind but stacking.
var turnPoints = [turnKinds]int{0, -1, -2, -3, -4, -5}

// Reasons a game or match ends.
const (
	ReasonScore       = "score"
	ReasonTie         = "tie"
	ReasonMatchTarget = "match-target"
)

// State is a STACKS position (with match play, a whole match). Everything
// is in fixed arrays: a clone is a struct copy.
type State struct {
	g *Game
	// height is each white square's stack height (0: empty); occ and
	// atHeight are the same as bitboards: occupied squares, and the squares
	// of each height.
	height   [Squares]uint8
	occ      uint32
	atHeight [Pieces + 1]uint32
	// Cards of each value in each seat's hand, stock and discard.
	hand, stock, played [2][MaxValue + 1]uint8
	handN, stockN       [2]uint8
	// toDraw counts the cards each seat still has to draw before play goes
	// on; drawer is the seat drawing.
	toDraw [2]uint8
	drawer games.Player
	// With a fixed deal (perft), draws take the stocks' cards in this order
	// instead of being chance outcomes; dealt counts the cards taken.
	fixed   bool
	deal    [2][MaxCards]uint8
	dealt   [2]uint8
	played4 [2]bool // the seat has played a 4-card (four_card_moves)
	phase   phase
	toMove  games.Player
	starter games.Player // who moved first in the current game
	score   [2]int16     // this game's scores
	total   [2]int32     // match: the totals of the finished games
	plies   int32        // turns in all games
	// turnKinds counts each seat's turns by result, over all games.
	turnKinds [2][turnKinds]uint32
	// Match figures: games finished, won by their starter, won by seat 0,
	// drawn; cutShort says the match ended during a game (match.end
	// immediately).
	gamesDone, starterWins, seat0Wins, gameTies int16
	cutShort                                    bool
	winner                                      games.Player
	reason                                      string
}

// Move encoding: kind<<16 | value<<10 | source<<5 | destination, with
// noSquare for a turn without a move.
const (
	kindDraw = 1
	kindPlay = 2
	noSquare = 31
)

func encode(kind, v, src, dst int) games.Move {
	return games.Move(kind<<16 | v<<10 | src<<5 | dst)
}

func decode(m games.Move) (kind, v, src, dst int) {
	return int(m >> 16), int(m >> 10 & 7), int(m >> 5 & 31), int(m & 31)
}

// startGame sets up a game: a piece on every white square, full stocks,
// empty hands to be drawn (the starter first).
func (s *State) startGame(starter games.Player) {
	g := s.g
	for sq := range Squares {
		s.height[sq] = 1
	}
	s.occ = 1<<Squares - 1
	s.atHeight = [Pieces + 1]uint32{}
	s.atHeight[1] = s.occ
	s.hand = [2][MaxValue + 1]uint8{}
	s.played = [2][MaxValue + 1]uint8{}
	s.handN = [2]uint8{}
	s.stock = [2][MaxValue + 1]uint8{g.stock, g.stock}
	s.stockN = [2]uint8{uint8(g.cards), uint8(g.cards)}
	s.toDraw = [2]uint8{uint8(g.hand), uint8(g.hand)}
	s.drawer = starter
	s.played4 = [2]bool{}
	s.score = [2]int16{}
	s.starter, s.toMove = starter, starter
	s.proceed()
}

// proceed makes the pending draws (the drawer's first) and then waits for
// the player to move. Without a fixed deal each draw is a chance outcome.
func (s *State) proceed() {
	for {
		if s.toDraw[s.drawer] == 0 {
			s.drawer = s.drawer.Opponent()
			if s.toDraw[s.drawer] == 0 {
				s.phase = phasePlay
				return
			}
		}
		if !s.fixed {
			s.phase = phaseDraw
			return
		}
		p := s.drawer
		s.draw(p, int(s.deal[p][s.dealt[p]]))
		s.dealt[p]++
	}
}

// draw moves a card of value v from p's stock to its hand.
func (s *State) draw(p games.Player, v int) {
	s.stock[p][v]--
	s.stockN[p]--
	s.hand[p][v]++
	s.handN[p]++
	s.toDraw[p]--
}

// FixDeal fixes the order of both stocks (top first) at the start of the
// game, so that draws are no longer chance: perft uses it. Each stock must
// hold exactly the cards of the rules' stock. With match play only the
// first game's deal is fixed.
func (s *State) FixDeal(red, green []int) error {
	if s.phase != phaseDraw || s.handN != [2]uint8{} || s.plies != 0 {
		return fmt.Errorf("stacks: a deal can only be fixed before the first draw")
	}
	for seat, stock := range [2][]int{red, green} {
		var counts [MaxValue + 1]uint8
		for i, v := range stock {
			if v < 1 || v > MaxValue {
				return fmt.Errorf("stacks: card %d of %s's stock has value %d", i+1, s.g.Sides()[seat], v)
			}
			counts[v]++
			s.deal[seat][i] = uint8(v)
		}
		if counts != s.g.stock {
			return fmt.Errorf("stacks: %s's stock %v is not a shuffle of the rules' stock", s.g.Sides()[seat], stock)
		}
	}
	s.fixed = true
	s.dealt = [2]uint8{}
	s.proceed()
	return nil
}

// CurrentPlayer returns Chance during draws, then the player to move.
// Occupied returns the white squares holding a stack (implements
// games.Coverer).
func (s *State) Occupied() uint64 { return uint64(s.occ) }

// Cells is the number of white squares.
func (s *State) Cells() int { return Squares }

func (s *State) CurrentPlayer() games.Player {
	switch s.phase {
	case phaseDraw:
		return games.Chance
	case phaseOver:
		return games.Terminal
	}
	return s.toMove
}

// IsTerminal reports whether the game (or match) has ended.
func (s *State) IsTerminal() bool { return s.phase == phaseOver }

// Result returns how the game or match ended.
func (s *State) Result() games.Result { return games.Result{Winner: s.winner, Reason: s.reason} }

// Plies returns the number of turns played, over all games of a match.
func (s *State) Plies() int { return int(s.plies) }

// Clone returns an independent copy.
func (s *State) Clone() games.State { c := *s; return &c }

// CopyFrom makes s a copy of src.
func (s *State) CopyFrom(src games.State) { *s = *src.(*State) }

// SideOf returns the colour (0 red, 1 green) of a seat: seat 0 is Red, who
// moves first in the first game.
func (s *State) SideOf(seat games.Player) int { return int(seat) }

// ChanceOutcomes lists the values the drawer may draw, weighted by how many
// of each are left in its stock.
func (s *State) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome {
	if s.phase != phaseDraw {
		return buf
	}
	for v := 1; v <= MaxValue; v++ {
		if n := s.stock[s.drawer][v]; n > 0 {
			buf = append(buf, games.ChanceOutcome{Move: encode(kindDraw, v, 0, 0), Weight: int(n)})
		}
	}
	return buf
}

// PickChance draws the drawer's card by its index among the stock's cards
// (ChanceOutcomes' weights), without listing the values (implements
// games.ChancePicker).
func (s *State) PickChance(picker games.IndexPicker) (games.Move, int) {
	if s.phase != phaseDraw {
		return 0, 0
	}
	stock := &s.stock[s.drawer]
	total := int(s.stockN[s.drawer])
	k := picker.PickIndex(total)
	for v := 1; v <= MaxValue; v++ {
		if n := int(stock[v]); k >= n {
			k -= n
			continue
		}
		return encode(kindDraw, v, 0, 0), total
	}
	panic("stacks: picked card out of range")
}

// cardMoves are the moves of one card: for each kind (stackMoves,
// straightMoves, backMoves), the sources with a move of that kind and,
// per source square, the destinations (an entry is meaningful only where
// its source's bit is set).
type cardMoves struct {
	dsts [backMoves + 1][Squares]uint32
	srcs [backMoves + 1]uint32
}

// has reports which kinds of moves the card has.
func (cm *cardMoves) has() [backMoves + 1]bool {
	return [backMoves + 1]bool{cm.srcs[stackMoves] != 0, cm.srcs[straightMoves] != 0, cm.srcs[backMoves] != 0}
}

// backwardAllowed reports whether p may play a v-card backwards: a 4-card
// always, 2- and 3-cards after p's first 4-card (with four_card_moves).
func (s *State) backwardAllowed(p games.Player, v int) bool {
	return s.g.fourCards && (v == 4 || (v >= 2 && s.played4[p]))
}

// fitting returns, for each height h, the squares whose stack could take a
// stack of h on top: height between 1 and max_height − h.
func (s *State) fitting() (fit [Pieces + 1]uint32) {
	maxH := s.g.maxHeight
	le := uint32(0) // squares of height 1 to x
	for x := 1; x < maxH; x++ {
		le |= s.atHeight[x]
		fit[maxH-x] = le
	}
	return fit
}

// movesOf fills cm, which must be zero, with the moves of a v-card for p.
func (s *State) movesOf(p games.Player, v int, fit *[Pieces + 1]uint32, cm *cardMoves) {
	g := s.g
	straight := !(g.fourCards && v == 4) // a 4-card is always played backwards
	back := s.backwardAllowed(p, v)
	sources := s.occ &^ s.atHeight[g.maxHeight]
	for m := sources; m != 0; m &= m - 1 {
		src := bits.TrailingZeros32(m)
		pt := &g.paths[p][v][src]
		var st, bk uint32
		if straight {
			st = reach(pt.straight, pt.straightDst, s.occ, g.blocking)
		}
		if back {
			bk = reach(pt.backward, pt.backwardDst, s.occ, g.blocking)
		}
		stack := (st | bk) & fit[s.height[src]]
		empty := (st | bk) &^ s.occ
		bit := uint32(1) << src
		if stack != 0 {
			cm.dsts[stackMoves][src] = stack
			cm.srcs[stackMoves] |= bit
		}
		if e := empty & st; e != 0 {
			cm.dsts[straightMoves][src] = e
			cm.srcs[straightMoves] |= bit
		}
		if e := empty &^ st; e != 0 {
			cm.dsts[backMoves][src] = e
			cm.srcs[backMoves] |= bit
		}
	}
}

// LegalMoves appends the decisions of the player to move: for each value
// in hand, its stacking moves if it has any, else its empty straight moves,
// else its empty backward moves, else the value without a move. With
// must_stack_scope hand, a value that cannot stack is not offered while
// another in hand can.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.phase != phasePlay {
		return buf
	}
	if !s.g.blocking {
		return s.appendUnblocked(buf)
	}
	return s.appendOffered(buf)
}

// appendOffered is LegalMoves from each card's moves path by path, which
// any rules allow.
func (s *State) appendOffered(buf []games.Move) []games.Move {
	var o offer
	s.offer(&o)
	for v := 1; v <= MaxValue; v++ {
		switch kind := o.of(s, v); kind {
		case valueOnly:
			buf = append(buf, encode(kindPlay, v, noSquare, noSquare))
		case notOffered:
		default:
			buf = appendMoves(buf, v, &o.cms[v].dsts[kind], o.cms[v].srcs[kind])
		}
	}
	return buf
}

// PickMove counts the legal decisions, asks picker for one by its index in
// LegalMoves order and returns it, without listing the moves (implements
// games.MovePicker).
func (s *State) PickMove(picker games.IndexPicker) (games.Move, int) {
	if s.phase != phasePlay {
		return 0, 0
	}
	if !s.g.blocking {
		return s.pickUnblocked(picker)
	}
	var o offer
	s.offer(&o)
	var counts [MaxValue + 1]int
	total := 0
	var kinds [MaxValue + 1]int
	for v := 1; v <= MaxValue; v++ {
		switch kinds[v] = o.of(s, v); kinds[v] {
		case valueOnly:
			counts[v] = 1
		case notOffered:
		default:
			cm := &o.cms[v]
			for srcs := cm.srcs[kinds[v]]; srcs != 0; srcs &= srcs - 1 {
				counts[v] += bits.OnesCount32(cm.dsts[kinds[v]][bits.TrailingZeros32(srcs)])
			}
		}
		total += counts[v]
	}
	if total == 0 {
		return 0, 0
	}
	k := picker.PickIndex(total)
	for v := 1; v <= MaxValue; v++ {
		if k >= counts[v] {
			k -= counts[v]
			continue
		}
		if kinds[v] == valueOnly {
			return encode(kindPlay, v, noSquare, noSquare), total
		}
		return pickFrom(v, &o.cms[v].dsts[kinds[v]], o.cms[v].srcs[kinds[v]], k), total
	}
	panic("stacks: picked index out of range")
}

// pickFrom returns the k-th of a v-card's moves from each source in srcs
// (in order) to the destinations in dsts[source], as appendMoves lists
// them.
func pickFrom(v int, dsts *[Squares]uint32, srcs uint32, k int) games.Move {
	for ; srcs != 0; srcs &= srcs - 1 {
		src := bits.TrailingZeros32(srcs)
		if c := bits.OnesCount32(dsts[src]); k >= c {
			k -= c
			continue
		}
		return encode(kindPlay, v, src, games.NthBit(uint64(dsts[src]), k))
	}
	panic("stacks: picked index out of range")
}

// unblocked is what the player to move is offered without blocking, where
// a card's destinations from a square are fixed (straight, and backward
// with 4-card moves): each value's moves of each kind counted by popcounts,
// a straight-only card's (the common case) as shifts of their sources, and
// the kind each value offers.
type unblocked struct {
	counts  [MaxValue + 1][backMoves + 1]int
	shifted [MaxValue + 1][straightMoves + 1]shiftMoves // straight-only cards
	kind, n [MaxValue + 1]int                           // offered kind, and its moves
	total   int
	sources uint32 // the squares a stack may leave
}

// offerUnblocked fills u, which must be zero, for the player to move.
func (s *State) offerUnblocked(u *unblocked) {
	g := s.g
	p := s.toMove
	u.sources = s.occ &^ s.atHeight[g.maxHeight]
	handStacks := false
	for v := 1; v <= MaxValue; v++ {
		if s.hand[p][v] == 0 {
			continue
		}
		c := &u.counts[v]
		if straight, back := s.unblockedDests(p, v); straightOnly(straight, back) {
			sm := &u.shifted[v]
			sm[stackMoves], sm[straightMoves] = s.straightSources(&g.straightShift[p][v], u.sources)
			c[stackMoves], c[straightMoves] = sm[stackMoves].count(), sm[straightMoves].count()
		} else {
			fit := s.fitting()
			for m := u.sources; m != 0; m &= m - 1 {
				src := bits.TrailingZeros32(m)
				st := straight[src]
				both := st | back[src]
				empty := both &^ s.occ
				c[stackMoves] += bits.OnesCount32(both & fit[s.height[src]])
				c[straightMoves] += bits.OnesCount32(empty & st)
				c[backMoves] += bits.OnesCount32(empty &^ st)
			}
		}
		handStacks = handStacks || c[stackMoves] > 0
	}
	for v := 1; v <= MaxValue; v++ {
		c := &u.counts[v]
		switch u.kind[v] = s.offered(v, [backMoves + 1]bool{c[0] > 0, c[1] > 0, c[2] > 0}, handStacks); u.kind[v] {
		case valueOnly:
			u.n[v] = 1
		case notOffered:
		default:
			u.n[v] = c[u.kind[v]]
		}
		u.total += u.n[v]
	}
}

// pickUnblocked is PickMove without blocking: only the picked card's moves
// are walked.
func (s *State) pickUnblocked(picker games.IndexPicker) (games.Move, int) {
	var u unblocked
	s.offerUnblocked(&u)
	if u.total == 0 {
		return 0, 0
	}
	k := picker.PickIndex(u.total)
	v := 1
	for ; k >= u.n[v]; v++ {
		k -= u.n[v]
	}
	if u.kind[v] == valueOnly {
		return encode(kindPlay, v, noSquare, noSquare), u.total
	}
	p := s.toMove
	straight, back := s.unblockedDests(p, v)
	if straightOnly(straight, back) {
		src, dst := u.shifted[v][u.kind[v]].pick(&s.g.straightShift[p][v], k)
		return encode(kindPlay, v, src, dst), u.total
	}
	fit := s.fitting()
	for m := u.sources; m != 0; m &= m - 1 {
		src := bits.TrailingZeros32(m)
		d := s.destsOf(u.kind[v], src, straight, back, &fit)
		if c := bits.OnesCount32(d); k >= c {
			k -= c
			continue
		}
		return encode(kindPlay, v, src, games.NthBit(uint64(d), k)), u.total
	}
	panic("stacks: picked index out of range")
}

// appendUnblocked is LegalMoves without blocking.
func (s *State) appendUnblocked(buf []games.Move) []games.Move {
	var u unblocked
	s.offerUnblocked(&u)
	p := s.toMove
	for v := 1; v <= MaxValue; v++ {
		switch kind := u.kind[v]; kind {
		case valueOnly:
			buf = append(buf, encode(kindPlay, v, noSquare, noSquare))
		case notOffered:
		default:
			straight, back := s.unblockedDests(p, v)
			if straightOnly(straight, back) {
				buf = u.shifted[v][kind].appendTo(buf, &s.g.straightShift[p][v], v)
				continue
			}
			fit := s.fitting()
			for m := u.sources; m != 0; m &= m - 1 {
				src := bits.TrailingZeros32(m)
				for d := s.destsOf(kind, src, straight, back, &fit); d != 0; d &= d - 1 {
					buf = append(buf, encode(kindPlay, v, src, bits.TrailingZeros32(d)))
				}
			}
		}
	}
	return buf
}

// destsOf returns a card's destinations of a kind of move from src, given
// its straight and backward destination tables and fitting's squares.
func (s *State) destsOf(kind, src int, straight, back *[Squares]uint32, fit *[Pieces + 1]uint32) uint32 {
	st, both := straight[src], straight[src]|back[src]
	switch kind {
	case straightMoves:
		return both &^ s.occ & st
	case backMoves:
		return both &^ s.occ &^ st
	}
	return both & fit[s.height[src]] // stacking moves
}

// shiftMoves are a card's straight moves of one kind, by their sources:
// those that move up the square numbers (fwd) and down (bwd) along the
// card's axisShift.
type shiftMoves struct{ fwd, bwd uint32 }

// count returns the number of moves.
func (m shiftMoves) count() int { return bits.OnesCount32(m.fwd) + bits.OnesCount32(m.bwd) }

// appendTo appends the moves of a v-card in LegalMoves order: by source,
// then by destination (down before up).
func (m shiftMoves) appendTo(buf []games.Move, a *axisShift, v int) []games.Move {
	for both := m.fwd | m.bwd; both != 0; both &= both - 1 {
		src := bits.TrailingZeros32(both)
		bit := uint32(1) << src
		if m.bwd&bit != 0 {
			buf = append(buf, encode(kindPlay, v, src, src-int(a.n)))
		}
		if m.fwd&bit != 0 {
			buf = append(buf, encode(kindPlay, v, src, src+int(a.n)))
		}
	}
	return buf
}

// pick returns the k-th move in LegalMoves order (see appendTo).
func (m shiftMoves) pick(a *axisShift, k int) (src, dst int) {
	for both := m.fwd | m.bwd; both != 0; both &= both - 1 {
		src = bits.TrailingZeros32(both)
		bit := uint32(1) << src
		if m.bwd&bit != 0 {
			if k == 0 {
				return src, src - int(a.n)
			}
			k--
		}
		if m.fwd&bit != 0 {
			if k == 0 {
				return src, src + int(a.n)
			}
			k--
		}
	}
	panic("stacks: picked index out of range")
}

// straightSources finds a card's stacking moves and moves to an empty
// square from sources when it moves straight only, along the axis a.
func (s *State) straightSources(a *axisShift, sources uint32) (stack, empty shiftMoves) {
	empty = a.sources(sources, ^s.occ)
	maxH := s.g.maxHeight
	fit := uint32(0) // where a stack of height h fits: heights up to maxH − h
	for h := maxH - 1; h >= 1; h-- {
		fit |= s.atHeight[maxH-h]
		if from := sources & s.atHeight[h]; from != 0 {
			m := a.sources(from, fit)
			stack.fwd |= m.fwd
			stack.bwd |= m.bwd
		}
	}
	return stack, empty
}

// noDests is a table of no destinations.
var noDests [Squares]uint32

// unblockedDests returns, without blocking, the tables of a v-card's
// straight and backward destinations for p from each square (noDests for
// a direction the card may not take).
func (s *State) unblockedDests(p games.Player, v int) (straight, back *[Squares]uint32) {
	g := s.g
	straight, back = &noDests, &noDests
	if !(g.fourCards && v == 4) { // a 4-card is always played backwards
		straight = &g.straightDst[p][v]
	}
	if s.backwardAllowed(p, v) {
		back = &g.backwardDst[p][v]
	}
	return straight, back
}

// straightOnly reports whether a card with these destination tables (see
// unblockedDests) moves straight only: its moves are then shifts of their
// sources (shiftMoves).
func straightOnly(straight, back *[Squares]uint32) bool {
	return back == &noDests && straight != &noDests
}

// Kinds of moves a card offers, in the order LegalMoves prefers them; the
// card played without a move; and nothing.
const (
	stackMoves = iota
	straightMoves
	backMoves
	valueOnly
	notOffered
)

// offered returns what value v offers the player to move, from which kinds
// of moves it has and whether some value in hand can stack: its stacking
// moves if it has any, else its empty straight moves, else its empty
// backward moves, else the value alone; nothing when it is not in hand
// or, with must_stack_scope hand, when another value in hand can stack
// and it cannot.
func (s *State) offered(v int, has [backMoves + 1]bool, handStacks bool) int {
	switch {
	case s.hand[s.toMove][v] == 0:
		return notOffered
	case has[stackMoves]:
		return stackMoves
	case handStacks && s.g.handScope:
		return notOffered
	case has[straightMoves]:
		return straightMoves
	case has[backMoves]:
		return backMoves
	}
	return valueOnly
}

// offer holds the moves of every value in the hand of the player to move,
// from which LegalMoves and PickMove take what is offered.
type offer struct {
	cms        [MaxValue + 1]cardMoves
	handStacks bool // some value in hand can stack
}

// offer fills o (which must be zero) for the player to move.
func (s *State) offer(o *offer) {
	p := s.toMove
	fit := s.fitting()
	for v := 1; v <= MaxValue; v++ {
		if s.hand[p][v] > 0 {
			s.movesOf(p, v, &fit, &o.cms[v])
			o.handStacks = o.handStacks || o.cms[v].srcs[stackMoves] != 0
		}
	}
}

// of returns the kind of moves value v offers (see offered).
func (o *offer) of(s *State, v int) int {
	return s.offered(v, o.cms[v].has(), o.handStacks)
}

// appendMoves appends a v-card's moves from each source in srcs (in order)
// to the destinations in dsts[source].
func appendMoves(buf []games.Move, v int, dsts *[Squares]uint32, srcs uint32) []games.Move {
	for ; srcs != 0; srcs &= srcs - 1 {
		src := bits.TrailingZeros32(srcs)
		for m := dsts[src]; m != 0; m &= m - 1 {
			buf = append(buf, encode(kindPlay, v, src, bits.TrailingZeros32(m)))
		}
	}
	return buf
}

// setHeight changes a square's stack height, keeping the bitboards in step.
func (s *State) setHeight(sq, h int) {
	bit := uint32(1) << sq
	s.atHeight[s.height[sq]] &^= bit
	s.height[sq] = uint8(h)
	if h == 0 {
		s.occ &^= bit
		return
	}
	s.occ |= bit
	s.atHeight[h] |= bit
}

// Apply plays a legal decision or chance outcome.
func (s *State) Apply(m games.Move) {
	kind, v, src, dst := decode(m)
	switch kind {
	case kindDraw:
		s.draw(s.drawer, v)
		s.proceed()
	case kindPlay:
		s.play(v, src, dst)
	default:
		panic(fmt.Sprintf("stacks: bad move %#x", int32(m)))
	}
}

// play plays a v-card: a move from src to dst, or none (src noSquare).
func (s *State) play(v, src, dst int) {
	g := s.g
	p := s.toMove
	var kind, points int
	switch {
	case src == noSquare && g.fourCards && v == 4:
		kind = turnMinus5
	case src == noSquare:
		kind = turnMinus4
	case s.height[dst] > 0:
		kind = turnStack
	case g.paths[p][v][src].straightDst&(1<<dst) == 0:
		kind = turnMinus3
	case s.height[src] == 1:
		kind = turnMinus1
	default:
		kind = turnMinus2
	}
	points = turnPoints[kind]
	if src != noSquare {
		h := int(s.height[src] + s.height[dst])
		if kind == turnStack {
			points = h
		}
		s.setHeight(src, 0)
		s.setHeight(dst, h)
	}
	s.score[p] += int16(points)
	s.turnKinds[p][kind]++
	if g.fourCards && v == 4 {
		s.played4[p] = true
	}
	s.hand[p][v]--
	s.handN[p]--
	s.played[p][v]++
	s.plies++
	if s.stockN[p] > 0 {
		s.toDraw[p] = 1
		s.drawer = p
	}
	s.toMove = p.Opponent()
	if s.handN[0] == 0 && s.handN[1] == 0 {
		s.endGame()
		return
	}
	if g.endNow && s.total[p]+int32(s.score[p]) >= int32(g.target) {
		s.endMatchNow(p)
		return
	}
	s.proceed()
}

// gameWinner returns the winner of the current game by score.
func (s *State) gameWinner() games.Player {
	switch {
	case s.score[0] > s.score[1]:
		return games.Seat0
	case s.score[1] > s.score[0]:
		return games.Seat1
	}
	return games.NoPlayer
}

// endGame scores a finished game. With match play it adds the scores to the
// totals and either ends the match or starts the next game.
func (s *State) endGame() {
	g := s.g
	w := s.gameWinner()
	if !g.match {
		s.phase, s.winner, s.reason = phaseOver, w, ReasonScore
		if w == games.NoPlayer {
			s.reason = ReasonTie
		}
		return
	}
	s.total[0] += int32(s.score[0])
	s.total[1] += int32(s.score[1])
	s.score = [2]int16{}
	s.gamesDone++
	switch w {
	case games.NoPlayer:
		s.gameTies++
	case s.starter:
		s.starterWins++
	}
	if w == games.Seat0 {
		s.seat0Wins++
	}
	t := int32(g.target)
	if (s.total[0] >= t || s.total[1] >= t) && s.total[0] != s.total[1] {
		s.phase, s.reason = phaseOver, ReasonMatchTarget
		s.winner = games.Seat0
		if s.total[1] > s.total[0] {
			s.winner = games.Seat1
		}
		return
	}
	if int(s.gamesDone) >= g.maxGames {
		s.phase, s.winner, s.reason = phaseOver, games.NoPlayer, games.ReasonMaxGames
		return
	}
	next := s.starter.Opponent() // after a draw, or without loser_starts
	if g.loserStarts && w != games.NoPlayer {
		next = w.Opponent()
	}
	s.fixed = false
	s.startGame(next)
}

// endMatchNow ends a match during a game (match.end immediately): p's
// running total has reached the target. Only p's total changed this turn
// and the other total was below the target before it, so p leads.
func (s *State) endMatchNow(p games.Player) {
	s.total[0] += int32(s.score[0])
	s.total[1] += int32(s.score[1])
	s.score = [2]int16{}
	s.cutShort = true
	s.phase, s.winner, s.reason = phaseOver, p, ReasonMatchTarget
}

// Scores returns each seat's points: the current (or last) game's in a
// single game, the running totals in a match.
func (s *State) Scores() [2]int {
	return [2]int{int(s.total[0]) + int(s.score[0]), int(s.total[1]) + int(s.score[1])}
}

// Height returns the height of the stack on a white square (0: empty).
func (s *State) Height(sq int) int { return int(s.height[sq]) }

// ChanceFor names the seat a pending draw is for: the seat drawing a card
// (games.ChanceOwner).
func (s *State) ChanceFor() games.Player {
	if s.CurrentPlayer() != games.Chance {
		return games.NoPlayer
	}
	return s.drawer
}
