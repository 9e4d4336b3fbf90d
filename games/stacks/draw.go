package stacks

import (
	"fmt"

	"playtest/games"
)

// DrawSVG draws the 7×7 board, each white square's stack as a disc whose
// shade deepens with its height, labelled with the height, then each
// player's score and hand (games.Drawer).
func (s *State) DrawSVG() string {
	const cell, margin = 40.0, 22.0
	width, height := margin+Size*cell+8, margin+Size*cell+70
	d := games.NewSVG(width, height)
	d.Rect(0, 0, width, height, "#ffffff", "")
	for r := range Size {
		y := 6 + float64(Size-1-r)*cell
		d.Text(margin/2, y+cell/2+4, 12, "middle", "#555", fmt.Sprint(r+1))
		for c := range Size {
			x := margin + float64(c)*cell
			sq := squareOf[r][c]
			if sq < 0 {
				d.Rect(x, y, cell, cell, "#3a3a3a", "#3a3a3a")
				continue
			}
			d.Rect(x, y, cell, cell, "#f5f2ea", "#bbb")
			if h := int(s.height[sq]); h > 0 {
				shade := 235 - 28*min(h, 7)
				d.Circle(x+cell/2, y+cell/2, 8+2*float64(min(h, 6)), fmt.Sprintf("rgb(%d,%d,%d)", shade, shade-10, shade-40), "#444")
				ink := "#000"
				if shade < 130 {
					ink = "#fff"
				}
				d.Text(x+cell/2, y+cell/2+5, 13, "middle", ink, fmt.Sprint(h))
			}
		}
	}
	for c := range Size {
		d.Text(margin+float64(c)*cell+cell/2, 6+Size*cell+14, 12, "middle", "#555", string(rune('a'+c)))
	}
	names := s.g.Sides()
	for seat := range games.Player(2) {
		text := fmt.Sprintf("%s: score %d, hand%s, stock %d", names[seat], s.Scores()[seat], cardList(&s.hand[seat]), s.stockN[seat])
		d.Text(margin, height-44+float64(seat)*16, 13, "start", "#222", text)
	}
	status := fmt.Sprintf("%s to move", names[s.toMove])
	if s.IsTerminal() {
		status = games.ResultText(s.Result())
	} else if s.CurrentPlayer() == games.Chance {
		status = "drawing"
	}
	d.Text(margin, height-8, 13, "start", "#222", status)
	return d.String()
}
