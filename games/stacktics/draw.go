package stacktics

import (
	"fmt"

	"playtest/games"
)

// armyColors fill each army's pieces: A red, B blue.
var armyColors = [2]string{"#c8423b", "#3b6fc8"}

// DrawSVG draws the board (row 1 at the bottom, as String does), each
// stack as its pieces from the bottom up, wider for larger pieces, in its
// army's colour, and the captures and who is to move (games.Drawer).
func (s *State) DrawSVG() string {
	g := s.g
	const cell, margin = 56.0, 24.0
	width, height := max(margin+float64(g.cols)*cell+8, 420), margin+float64(g.rows)*cell+64
	d := games.NewSVG(width, height)
	d.Rect(0, 0, width, height, "#ffffff", "")
	for row := range g.rows {
		y := 8 + float64(g.rows-1-row)*cell
		d.Text(margin/2, y+cell/2+4, 12, "middle", "#555", fmt.Sprint(row+1))
		for col := range g.cols {
			x := margin + float64(col)*cell
			fill := "#f3efe4"
			if (row+col)%2 == 1 {
				fill = "#e2dccb"
			}
			d.Rect(x, y, cell, cell, fill, "#bbb")
			if c := s.board[g.square(row, col)]; c != 0 {
				drawStack(d, c, x, y+cell-4, cell)
			}
		}
	}
	for col := range g.cols {
		d.Text(margin+float64(col)*cell+cell/2, 8+float64(g.rows)*cell+14, 12, "middle", "#555", string(rune('a'+col)))
	}
	// The legend: each army's colour and the seat commanding it (a pie
	// swap changes which).
	x := margin
	for army := range 2 {
		seat := games.Seat0
		if s.SideOf(games.Seat0) != army {
			seat = games.Seat1
		}
		d.Rect(x, height-42, 12, 12, armyColors[army], "#222")
		label := fmt.Sprintf("army %s (%s)", armyName(army), seat)
		d.Text(x+17, height-32, 12, "start", "#222", label)
		x += 17 + 7.5*float64(len(label)) + 16
	}
	d.Text(margin, height-8, 13, "start", "#222", s.caption())
	return d.String()
}

// drawStack draws a stack's pieces from the bottom (at y) up.
func drawStack(d *games.SVG, c cell, x, y, cell float64) {
	color := armyColors[c.owner()]
	widths := map[int]float64{Large: 0.8, Medium: 0.6, Small: 0.4}
	counts := []struct{ size, n int }{{Large, c.larges()}, {Medium, c.mediums()}, {Small, c.smalls()}}
	h := min(12, (cell-10)/float64(max(1, c.height())))
	for _, k := range counts {
		for range k.n {
			w := widths[k.size] * cell
			y -= h
			d.Rect(x+(cell-w)/2, y, w, h-1, color, "#222")
		}
	}
}

func (s *State) caption() string {
	text := fmt.Sprintf("captured: A %d, B %d (win at %d)", s.captured[ArmyA], s.captured[ArmyB], s.g.threshold)
	switch s.phase {
	case phaseOver:
		return text + " — " + games.ResultText(s.Result())
	case phasePie:
		return text + " — seat 1 keeps or swaps"
	}
	return text + fmt.Sprintf(" — army %s (%s) to move", armyName(int(s.toMove)), s.CurrentPlayer())
}
