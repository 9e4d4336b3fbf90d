package capturecard

import (
	"fmt"

	"playtest/games"
)

// seatColors fill each seat's pieces.
var seatColors = [2]string{"#c8423b", "#3b6fc8"}

// DrawSVG draws the 5×4 layout of court cards (suits in their colours,
// corners outlined), each card's piece as a triangle sized S, M or L in
// its seat's colour (a Large drawn solid, "locked"), then the reserves,
// Jokers, the card drawn and the movement points left (games.Drawer).
func (s *State) DrawSVG() string {
	const cw, ch, margin = 64.0, 84.0, 22.0
	width, height := margin+Cols*cw+8, margin+Rows*ch+64
	d := games.NewSVG(width, height)
	d.Rect(0, 0, width, height, "#ffffff", "")
	for r := range Rows {
		y := 6 + float64(Rows-1-r)*ch
		d.Text(margin/2, y+ch/2, 12, "middle", "#555", fmt.Sprint(r+1))
		for c := range Cols {
			sq := r*Cols + c
			x := margin + float64(c)*cw
			stroke := "#999"
			if isCorner(sq) {
				stroke = "#000"
			}
			d.Rect(x+3, y+3, cw-6, ch-6, "#fbfaf5", stroke)
			if card := s.layout[sq]; card >= 0 {
				suit := int(card) / Ranks
				color := "#222"
				if suit == 1 || suit == 2 { // hearts, diamonds
					color = "#c0392b"
				}
				d.Text(x+10, y+20, 14, "start", color, CardName(int(card)))
			}
			if o := s.owner[sq]; o >= 0 {
				size := 12 + 8*float64(s.size[sq])
				cx, base := x+cw/2, y+ch-12
				d.Rect(cx-size/2, base-size*1.3, size, size*1.3, seatColors[o], "#222")
				d.Text(cx, base+10, 10, "middle", "#222", fmt.Sprintf("%d%c", o, sizeLetters[s.size[sq]]))
			}
		}
	}
	for c := range Cols {
		d.Text(margin+float64(c)*cw+cw/2, 6+Rows*ch+14, 12, "middle", "#555", string(rune('a'+c)))
	}
	for seat := range 2 {
		r := s.reserve[seat]
		text := fmt.Sprintf("seat %d: reserve S%d M%d L%d, Jokers %d", seat, r[Small], r[Medium], r[Large], s.held[seat])
		if s.protect[seat] > 0 {
			text += fmt.Sprintf(", protected %d more turns", s.protect[seat])
		}
		d.Text(margin, height-38+float64(seat)*15, 12, "start", "#222", text)
	}
	d.Text(margin, height-8, 13, "start", "#222", s.caption())
	return d.String()
}

func (s *State) caption() string {
	switch {
	case s.IsTerminal():
		return fmt.Sprintf("turn %d — %s", s.turns, games.ResultText(s.Result()))
	case s.phase == phaseLayout:
		return "dealing the layout"
	case s.card > 0:
		return fmt.Sprintf("turn %d: %s drew a %d, %d movement points left", s.turns+1, s.toMove, s.card, s.points)
	}
	return fmt.Sprintf("turn %d: %s to play", s.turns+1, s.toMove)
}
