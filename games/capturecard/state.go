package capturecard

import (
	"fmt"
	"math/bits"

	"playtest/games"
)

// phase is what a state waits for.
type phase uint8

const (
	phaseLayout phase = iota // chance: the card of the next square of the layout
	phaseJoker               // the player holding a Joker plays it or not
	phaseDraw                // chance: the top card of the draw deck
	phaseAction              // the player acts with the drawn card (a Move's first step, or stop)
	phaseMove                // the player's Move goes on: another step, or stop
	phaseOver
)

// Piece sizes, indexing the reserves.
const (
	Small  = 0
	Medium = 1
	Large  = 2
)

// joker is the index of the Jokers in the deck and discard counts; the
// numbered cards are at their values 2 to 9.
const joker = 0

// Reasons a game ends.
const (
	ReasonSuitComplete = "suit-complete"
	ReasonAllCorners   = "all-corners"
)

// State is a Capture the Card position. Everything is in fixed arrays: a
// clone is a struct copy.
type State struct {
	g *Game
	// layout is the card on each square (-1 until dealt); dealt counts the
	// squares dealt, in dealOrder.
	layout [Cards]int8
	dealt  int8
	// owner and size of the piece on each card (owner -1: empty).
	owner, size [Cards]int8
	reserve     [2][3]uint8
	onBoard     [2]uint8
	// walkers[p] has a bit for each card holding a Small or Medium of p's
	// (the pieces a Move steps), kept with owner and size.
	walkers [2]uint32
	// pieces[p] has a bit for each card holding a piece of p's, kept with
	// owner; suits[suit] one for each card of the suit, once all are dealt.
	pieces [2]uint32
	suits  [Suits]uint32
	// The draw deck and the discard pile, as counts by value (joker, 2..9).
	deck, discard [10]uint8
	held          [2]uint8 // saved Jokers
	// protect[p] counts the opponent turns for which p's pieces are still
	// protected by a Joker.
	protect [2]uint8
	phase   phase
	toMove  games.Player
	card    uint8 // the value drawn this turn
	points  uint8 // movement points left in a Move
	turns   int32
	// Figures for the report.
	jokersPlayed, knockedOff, shrunk [2]uint16
	winner                           games.Player
	reason                           string
}

// Move encoding: kind<<16 | a<<8 | b.
const (
	kindDeal    = 1 // a: card
	kindDraw    = 2 // a: value (joker: 0)
	kindJoker   = 3
	kindNoJoker = 4
	kindEnter   = 5 // a: size, b: square
	kindLock    = 6 // a: square
	kindShift   = 7 // a: square, b: direction
	kindStep    = 8 // a: square, b: direction
	kindStop    = 9
)

func encode(kind, a, b int) games.Move { return games.Move(kind<<16 | a<<8 | b) }

func decode(m games.Move) (kind, a, b int) { return int(m >> 16), int(m >> 8 & 255), int(m & 255) }

// CurrentPlayer returns Chance during the layout and the draws, else the
// player whose turn it is.
func (s *State) CurrentPlayer() games.Player {
	switch s.phase {
	case phaseLayout, phaseDraw:
		return games.Chance
	case phaseOver:
		return games.Terminal
	}
	return s.toMove
}

// IsTerminal reports whether the game has ended.
func (s *State) IsTerminal() bool { return s.phase == phaseOver }

// Result returns how the game ended.
func (s *State) Result() games.Result { return games.Result{Winner: s.winner, Reason: s.reason} }

// Plies returns the number of completed turns.
func (s *State) Plies() int { return int(s.turns) }

// Clone returns an independent copy.
func (s *State) Clone() games.State { c := *s; return &c }

// CopyFrom makes s a copy of src.
func (s *State) CopyFrom(src games.State) { *s = *src.(*State) }

// ChanceOutcomes lists the cards the next layout square may get (each left
// card once), or the values the deck may give, weighted by their counts.
func (s *State) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome {
	switch s.phase {
	case phaseLayout:
		var used [Cards]bool
		for _, c := range s.layout {
			if c >= 0 {
				used[c] = true
			}
		}
		for c := range Cards {
			if !used[c] {
				buf = append(buf, games.ChanceOutcome{Move: encode(kindDeal, c, 0), Weight: 1})
			}
		}
	case phaseDraw:
		for v, n := range s.deck {
			if n > 0 {
				buf = append(buf, games.ChanceOutcome{Move: encode(kindDraw, v, 0), Weight: int(n)})
			}
		}
	}
	return buf
}

// PickChance draws the next layout card by its index among the cards not
// yet dealt, or the deck's value by its index among the deck's cards
// (ChanceOutcomes' weights), without listing them (implements
// games.ChancePicker).
func (s *State) PickChance(picker games.IndexPicker) (games.Move, int) {
	switch s.phase {
	case phaseLayout:
		left := uint64(allCards)
		for _, c := range s.layout {
			if c >= 0 {
				left &^= 1 << c
			}
		}
		total := bits.OnesCount64(left)
		return encode(kindDeal, games.NthBit(left, picker.PickIndex(total)), 0), total
	case phaseDraw:
		total := 0
		for _, n := range s.deck {
			total += int(n)
		}
		k := picker.PickIndex(total)
		for v, n := range s.deck {
			if k < int(n) {
				return encode(kindDraw, v, 0), total
			}
			k -= int(n)
		}
		panic("capturecard: picked card out of range")
	}
	return 0, 0
}

// opponentAt reports whether sq holds a piece of the player to move's
// opponent that may be touched (not protected by a Joker).
func (s *State) opponentAt(sq int) bool {
	o := s.owner[sq]
	return o >= 0 && games.Player(o) != s.toMove && s.protect[o] == 0
}

// LegalMoves appends the decisions of the player to move.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	switch s.phase {
	case phaseJoker:
		return append(buf, encode(kindJoker, 0, 0), encode(kindNoJoker, 0, 0))
	case phaseAction, phaseMove:
		var c choices
		s.choose(&c)
		for _, size := range c.sizes[:c.nSizes] {
			for e := c.enters; e != 0; e &= e - 1 {
				buf = append(buf, encode(kindEnter, int(size), bits.TrailingZeros32(e)))
			}
		}
		for l := c.locks; l != 0; l &= l - 1 {
			buf = append(buf, encode(kindLock, bits.TrailingZeros32(l), 0))
		}
		buf = c.appendDirs(buf, kindShift, c.shifters)
		buf = c.appendDirs(buf, kindStep, c.steppers)
		return append(buf, encode(kindStop, 0, 0))
	}
	return buf
}

// PickMove counts the decisions, asks picker for one by its index in
// LegalMoves order and returns it, without listing them (implements
// games.MovePicker).
func (s *State) PickMove(picker games.IndexPicker) (games.Move, int) {
	switch s.phase {
	case phaseJoker:
		return encode(kindJoker+picker.PickIndex(2), 0, 0), 2 // Joker, no Joker
	case phaseAction, phaseMove:
	default:
		return 0, 0
	}
	var c choices
	s.choose(&c)
	perSize := bits.OnesCount32(c.enters)
	enters, locks := c.nSizes*perSize, bits.OnesCount32(c.locks)
	shifts, steps := c.count(c.shifters), c.count(c.steppers)
	n := enters + locks + shifts + steps + 1
	k := picker.PickIndex(n)
	if k < enters {
		return encode(kindEnter, int(c.sizes[k/perSize]), games.NthBit(uint64(c.enters), k%perSize)), n
	}
	if k -= enters; k < locks {
		return encode(kindLock, games.NthBit(uint64(c.locks), k), 0), n
	}
	if k -= locks; k < shifts {
		return c.nth(kindShift, c.shifters, k), n
	}
	if k -= shifts; k < steps {
		return c.nth(kindStep, c.steppers, k), n
	}
	return encode(kindStop, 0, 0), n
}

// choices are the decisions of an action or a Move phase as sets, in
// LegalMoves order: an Enter of each size in sizes on each card of enters,
// a Lock of each piece of locks, each Shift of each piece of shifters and
// each step of each piece of steppers (their directions in dirs), then
// stop.
type choices struct {
	sizes              [2]uint8 // Small before Medium
	nSizes             int
	enters, locks      uint32
	shifters, steppers uint32
	dirs               [Cards]uint8
}

// appendDirs appends a move of kind for each direction of each piece of
// from, in square order.
func (c *choices) appendDirs(buf []games.Move, kind int, from uint32) []games.Move {
	for ; from != 0; from &= from - 1 {
		sq := bits.TrailingZeros32(from)
		for d := c.dirs[sq]; d != 0; d &= d - 1 {
			buf = append(buf, encode(kind, sq, bits.TrailingZeros8(d)))
		}
	}
	return buf
}

// count returns the number of directions of the pieces of from.
func (c *choices) count(from uint32) int {
	n := 0
	for ; from != 0; from &= from - 1 {
		n += bits.OnesCount8(c.dirs[bits.TrailingZeros32(from)])
	}
	return n
}

// nth returns move k of those appendDirs appends.
func (c *choices) nth(kind int, from uint32, k int) games.Move {
	for ; from != 0; from &= from - 1 {
		sq := bits.TrailingZeros32(from)
		if n := bits.OnesCount8(c.dirs[sq]); k >= n {
			k -= n
			continue
		}
		return encode(kind, sq, games.NthBit(uint64(c.dirs[sq]), k))
	}
	panic("capturecard: picked move out of range")
}

// choose fills c with the decisions of the player to move in an action or
// a Move phase: in an action, the Enters of an 8 or 9, the Locks of a 2
// and the Shifts of a 5, and the Move's steps of any card.
func (s *State) choose(c *choices) {
	p, o := s.toMove, s.toMove.Opponent()
	empty := s.emptyCards()
	if s.phase == phaseAction {
		switch s.card {
		case 8, 9:
			if int(s.onBoard[p]) >= s.g.rules.MaxOnBoard {
				break
			}
			if c.enters = s.enterCards(); c.enters == 0 {
				break
			}
			for size := Small; size <= Medium; size++ {
				if s.reserve[p][size] > 0 {
					c.sizes[c.nSizes] = uint8(size)
					c.nSizes++
				}
			}
		case 2:
			if s.reserve[p][Large] > 0 {
				c.locks = s.walkers[p] // the player's Smalls and Mediums
			}
		case 5:
			// A Large shifts onto an empty card or an opponent's piece
			// that may be touched, knocking it off.
			onto := empty
			if s.protect[o] == 0 {
				onto |= s.pieces[o]
			}
			for l := s.pieces[p] &^ s.walkers[p]; l != 0; l &= l - 1 {
				sq := bits.TrailingZeros32(l)
				if d := dirsInto(onto, sq); d != 0 {
					c.dirs[sq] = d
					c.shifters |= 1 << sq
				}
			}
		}
	}
	if s.points == 0 {
		return // every step costs at least a point
	}
	touchable := s.touchable()
	for w := s.walkers[p]; w != 0; w &= w - 1 {
		sq := bits.TrailingZeros32(w)
		if d := s.stepDirs(sq, empty, touchable); d != 0 {
			c.dirs[sq] = d
			c.steppers |= 1 << sq
		}
	}
}

// enterCards returns the cards an Enter may use: the empty corners; when
// all four corners hold pieces, the corners holding an opponent's Small or
// Medium that may be touched (elimination corner-entry only); and when all
// four hold Large pieces, every empty card.
func (s *State) enterCards() uint32 {
	empty := s.emptyCards()
	if free := cornerCards & empty; free != 0 {
		return free
	}
	var cards uint32
	if o := s.toMove.Opponent(); !s.g.gated && s.protect[o] == 0 {
		cards = cornerCards & s.walkers[o]
	}
	if cornerCards&(s.walkers[0]|s.walkers[1]) == 0 { // all Large
		cards |= empty
	}
	return cards
}

// touchable returns the opponent's pieces a step may pass or take, before
// the step's own rules (stepResult): Smalls and Mediums, unless a Joker
// protects them or elimination pass-through waits for the corners.
func (s *State) touchable() uint32 {
	o := s.toMove.Opponent()
	if s.protect[o] > 0 || s.g.gated && !s.cornersFull() {
		return 0
	}
	return s.walkers[o]
}

// stepDirs returns the directions the player's Small or Medium on sq may
// step in, given the empty cards and the touchable opponents: stepResult's
// rules for a whole piece at once (TestStepsByDirection checks the two
// against each other). A step onto an empty card is allowed when the
// points pay for it; past a touchable opponent, a Small may not pass a
// Medium, and a jump needs twice the points and an empty card beyond (a
// step never ends on an own piece or passes a Large).
func (s *State) stepDirs(sq int, empty, touchable uint32) uint8 {
	mover := s.size[sq]
	if s.points == 1 && mover == Medium {
		return 0 // not even a step onto an empty card
	}
	dirs := dirsInto(empty, sq)
	jump := s.g.jump
	if jump && 2*stepCost(mover) > int(s.points) {
		return dirs
	}
	for opp := dirsInto(touchable, sq); opp != 0; opp &= opp - 1 {
		d := bits.TrailingZeros8(opp)
		if mover != Medium && s.size[neighbour[sq][d]] == Medium {
			continue
		}
		if land := beyond[sq][d]; jump && (land < 0 || empty>>land&1 == 0) {
			continue
		}
		dirs |= 1 << d
	}
	return dirs
}

// canStep reports whether any step is possible.
func (s *State) canStep() bool {
	if s.points == 0 {
		return false
	}
	empty, touchable := s.emptyCards(), s.touchable()
	for w := s.walkers[s.toMove]; w != 0; w &= w - 1 {
		if s.stepDirs(bits.TrailingZeros32(w), empty, touchable) != 0 {
			return true
		}
	}
	return false
}

// stepCost is the movement points of one step of a piece.
func stepCost(size int8) int {
	if size == Medium {
		return 2
	}
	return 1
}

// stepResult says what a step does: where the mover ends, which card's
// piece it passes or takes (-1: none), and what it costs; ok false when
// the step is not allowed.
func (s *State) stepResult(sq, d int) (to, victim, cost int, ok bool) {
	t := int(neighbour[sq][d])
	if t < 0 {
		return 0, 0, 0, false
	}
	mover := s.size[sq]
	c := stepCost(mover)
	switch {
	case s.owner[t] < 0:
		return t, -1, c, c <= int(s.points)
	case !s.opponentAt(t) || s.size[t] == Large || s.g.gated && !s.cornersFull():
		return 0, 0, 0, false
	case s.size[t] == Medium && mover != Medium:
		return 0, 0, 0, false
	case !s.g.jump && s.size[t] == Small:
		return t, t, c, c <= int(s.points)
	case !s.g.jump: // a Medium shrinks a Medium and stays
		return sq, t, c, c <= int(s.points)
	}
	land := int(neighbour[t][d])
	if land < 0 || s.owner[land] >= 0 {
		return 0, 0, 0, false
	}
	return land, t, 2 * c, 2*c <= int(s.points)
}

// Apply plays a legal decision or chance outcome.
func (s *State) Apply(m games.Move) {
	kind, a, b := decode(m)
	p := s.toMove
	switch kind {
	case kindDeal:
		s.deal(a)
	case kindDraw:
		s.deck[a]--
		if a == joker {
			s.held[p]++ // kept; draw again
			s.refillDeck()
			return
		}
		s.discard[a]++
		s.refillDeck()
		s.card, s.points = uint8(a), uint8(a)
		s.phase = phaseAction
	case kindJoker:
		s.held[p]--
		s.discard[joker]++
		s.protect[p] = uint8(s.g.rules.JokerTurns)
		s.jokersPlayed[p]++
		s.startDraw()
	case kindNoJoker:
		s.startDraw()
	case kindEnter:
		if s.owner[b] >= 0 {
			s.knockOff(b)
		}
		s.reserve[p][a]--
		s.place(b, p, a)
		s.endAction()
	case kindLock:
		s.reserve[p][s.size[a]]++
		s.reserve[p][Large]--
		s.size[a] = Large
		s.walkers[p] &^= 1 << a
		s.endAction()
	case kindShift:
		t := int(neighbour[a][b])
		if s.owner[t] >= 0 {
			s.knockOff(t)
		}
		s.move(a, t)
		s.endAction()
	case kindStep:
		s.step(a, b)
	case kindStop:
		s.endAction()
	default:
		panic(fmt.Sprintf("capturecard: bad move %#x", int32(m)))
	}
}

// deal puts a card on the next square of the layout; four corners of one
// suit are dealt again.
func (s *State) deal(card int) {
	s.layout[dealOrder[s.dealt]] = int8(card)
	s.dealt++
	if int(s.dealt) == Cards {
		s.indexSuits()
	}
	if int(s.dealt) == len(corners) {
		suit := s.layout[corners[0]] / Ranks
		same := true
		for _, c := range corners {
			same = same && s.layout[c]/Ranks == suit
		}
		if same {
			for _, c := range corners {
				s.layout[c] = -1
			}
			s.dealt = 0
		}
	}
	if int(s.dealt) == Cards {
		s.toMove = games.Seat0
		s.startTurn()
	}
}

// refillDeck shuffles the discard pile into the deck when the deck is
// empty (the deck's order is never stored: draws are chance outcomes).
func (s *State) refillDeck() {
	if s.deck != [10]uint8{} {
		return
	}
	s.deck, s.discard = s.discard, [10]uint8{}
}

// indexSuits sets the suits' card sets from the complete layout.
func (s *State) indexSuits() {
	s.suits = [Suits]uint32{}
	for sq, card := range s.layout {
		s.suits[card/Ranks] |= 1 << sq
	}
}

func (s *State) place(sq int, p games.Player, size int) {
	s.owner[sq], s.size[sq] = int8(p), int8(size)
	s.pieces[p] |= 1 << sq
	s.onBoard[p]++
	if size != Large {
		s.walkers[p] |= 1 << sq
	}
}

// move moves the piece on from to the empty card to.
func (s *State) move(from, to int) {
	o := s.owner[from]
	s.owner[to], s.size[to] = o, s.size[from]
	s.owner[from] = -1
	s.pieces[o] ^= 1<<from | 1<<to
	if s.walkers[o]&(1<<from) != 0 {
		s.walkers[o] ^= 1<<from | 1<<to
	}
}

// knockOff returns the piece on sq to its owner's reserve.
func (s *State) knockOff(sq int) {
	o := s.owner[sq]
	s.reserve[o][s.size[sq]]++
	s.onBoard[o]--
	s.knockedOff[o]++
	s.owner[sq] = -1
	s.pieces[o] &^= 1 << sq
	s.walkers[o] &^= 1 << sq
}

// shrink turns the Medium on sq into a Small from its owner's reserve, or
// knocks it off when the reserve has no Small.
func (s *State) shrink(sq int) {
	o := s.owner[sq]
	if s.reserve[o][Small] == 0 {
		s.knockOff(sq)
		return
	}
	s.reserve[o][Small]--
	s.reserve[o][Medium]++
	s.size[sq] = Small
	s.shrunk[o]++
}

// step plays one step of a Move; the Move goes on while points and steps
// remain.
func (s *State) step(sq, d int) {
	to, victim, cost, _ := s.stepResult(sq, d)
	if victim >= 0 {
		if s.size[victim] == Medium {
			s.shrink(victim)
		} else {
			s.knockOff(victim)
		}
	}
	if to != sq {
		s.move(sq, to)
	}
	s.points -= uint8(cost)
	if s.canStep() {
		s.phase = phaseMove
		return
	}
	s.endAction()
}

// startTurn offers a saved Joker, or draws.
func (s *State) startTurn() {
	if s.held[s.toMove] > 0 {
		s.phase = phaseJoker
		return
	}
	s.startDraw()
}

func (s *State) startDraw() { s.phase = phaseDraw }

// endAction runs the checks for the player who acted, then ends the turn:
// the other player's Joker protection counts one turn down, and the game
// is drawn after max_turns turns.
func (s *State) endAction() {
	p := s.toMove
	s.turns++
	if s.holdsAllCorners(p) && s.g.rules.AllCornersLoses {
		s.finish(p.Opponent(), ReasonAllCorners)
		return
	}
	if s.suitComplete(p) {
		s.finish(p, ReasonSuitComplete)
		return
	}
	if o := p.Opponent(); s.protect[o] > 0 {
		s.protect[o]--
	}
	if int(s.turns) >= s.g.rules.MaxTurns {
		s.finish(games.NoPlayer, games.ReasonMaxTurns)
		return
	}
	s.card, s.points = 0, 0
	s.toMove = p.Opponent()
	s.startTurn()
}

func (s *State) finish(winner games.Player, reason string) {
	s.phase, s.winner, s.reason = phaseOver, winner, reason
}

// emptyCards returns the cards without a piece.
func (s *State) emptyCards() uint32 { return allCards &^ (s.pieces[0] | s.pieces[1]) }

// cornersFull reports whether all four corners hold pieces (anyone's).
func (s *State) cornersFull() bool { return cornerCards&s.emptyCards() == 0 }

func (s *State) holdsAllCorners(p games.Player) bool { return s.pieces[p]&cornerCards == cornerCards }

// suitComplete reports whether p has a piece on the 10, J, Q, K and A of
// one suit.
func (s *State) suitComplete(p games.Player) bool {
	for _, suit := range s.suits {
		if bits.OnesCount32(s.pieces[p]&suit) == Ranks {
			return true
		}
	}
	return false
}

// ChanceFor names the seat a pending draw is for: the player whose turn it
// is (the layout's deal belongs to no one) (games.ChanceOwner).
func (s *State) ChanceFor() games.Player {
	if s.phase != phaseDraw {
		return games.NoPlayer
	}
	return s.toMove
}
