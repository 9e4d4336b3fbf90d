package capturecard

import "fmt"

// CheckInvariants verifies the position: per player and size, reserve +
// board = the rules' pieces (and the cached set of Smalls and Mediums
// right); at most max_on_board pieces per player on the
// board (and the cached counts right); deck + discard + saved Jokers = 32
// numbered cards + jokers; the layout a permutation of the 20 court cards
// with corners not all of one suit; protection and movement points in
// range.
func (s *State) CheckInvariants() error {
	r := &s.g.rules
	want := [3]int{r.Pieces.Small, r.Pieces.Medium, r.Pieces.Large}
	var board [2][3]int
	var count [2]int
	var walkers [2]uint32
	var pieces [2]uint32
	var suits [Suits]uint32
	for sq := range Cards {
		if card := s.layout[sq]; int(s.dealt) == Cards {
			suits[card/Ranks] |= 1 << sq
		}
		if o := s.owner[sq]; o >= 0 {
			pieces[o] |= 1 << sq
			if o > 1 || s.size[sq] < Small || s.size[sq] > Large {
				return fmt.Errorf("bad piece on %s", squareName(sq))
			}
			board[o][s.size[sq]]++
			count[o]++
			if s.size[sq] != Large {
				walkers[o] |= 1 << sq
			}
		}
	}
	if pieces != s.pieces || suits != s.suits {
		return fmt.Errorf("cached pieces %x and suits %x, board has %x and %x", s.pieces, s.suits, pieces, suits)
	}
	if walkers != s.walkers {
		return fmt.Errorf("cached Smalls and Mediums %x, board has %x", s.walkers, walkers)
	}
	for seat := range 2 {
		for size := range 3 {
			if got := board[seat][size] + int(s.reserve[seat][size]); got != want[size] {
				return fmt.Errorf("seat %d: %c on board %d + reserve %d ≠ %d", seat, sizeLetters[size], board[seat][size], s.reserve[seat][size], want[size])
			}
		}
		if count[seat] != int(s.onBoard[seat]) || count[seat] > r.MaxOnBoard {
			return fmt.Errorf("seat %d: %d pieces on the board (cached %d, limit %d)", seat, count[seat], s.onBoard[seat], r.MaxOnBoard)
		}
		if int(s.protect[seat]) > r.JokerTurns {
			return fmt.Errorf("seat %d protected for %d turns", seat, s.protect[seat])
		}
	}
	cards := int(s.held[0]) + int(s.held[1])
	numbered := 0
	for v := range s.deck {
		cards += int(s.deck[v]) + int(s.discard[v])
		if v != joker {
			numbered += int(s.deck[v]) + int(s.discard[v])
		}
	}
	if cards != numbers+r.Jokers || numbered != numbers {
		return fmt.Errorf("%d cards in deck, discard and hands (%d numbered), want %d + %d jokers", cards, numbered, numbers, r.Jokers)
	}
	if s.phase != phaseLayout {
		var seen [Cards]bool
		for _, c := range s.layout {
			if c < 0 || seen[c] {
				return fmt.Errorf("the layout is not a permutation of the court cards")
			}
			seen[c] = true
		}
		suit := s.layout[corners[0]] / Ranks
		same := true
		for _, c := range corners {
			same = same && s.layout[c]/Ranks == suit
		}
		if same {
			return fmt.Errorf("the four corners are of one suit")
		}
	}
	if s.points > s.card {
		return fmt.Errorf("%d movement points left from a %d", s.points, s.card)
	}
	return nil
}
