package capstone

import (
	"fmt"

	"playtest/games"
)

// pieceColors fill the colours r g b y k w p o.
var pieceColors = [MaxColors]string{"#d33f3f", "#3f9d4a", "#3b6fc8", "#e6c229", "#333333", "#f4f4f4", "#9b59b6", "#e67e22"}

// DrawSVG draws the two rows of stacks (Large above, Medium below), each
// stack's pieces from the bottom up with its capstone on top, both goals
// (top first), the stash and the scores (games.Drawer).
func (s *State) DrawSVG() string {
	g := s.g
	const col, piece, gap = 52.0, 14.0, 18.0
	rowH := float64(g.rules.StackHeight+1)*piece + gap
	width := 80 + float64(g.n)*col + 150
	height := 2*rowH + 60
	d := games.NewSVG(width, height)
	d.Rect(0, 0, width, height, "#ffffff", "")
	for st := range g.stacks {
		row, k := st/g.n, st%g.n
		x := 70 + float64(k)*col
		base := 10 + float64(row+1)*rowH - gap
		d.Text(x+col/2-4, base+14, 12, "middle", "#555", g.StackName(st))
		w := col - 14
		if g.sizeOf(st) == Medium {
			w = col - 22
		}
		left := x + (col-8-w)/2
		d.Rect(left-2, base, w+4, 2, "#888", "")
		stk := &s.stacks[st]
		y := base
		for i := range int(stk.n) {
			y -= piece
			d.Rect(left, y, w, piece-1, pieceColors[stk.colors[i]], "#222")
		}
		if stk.cap >= 0 {
			fill := "#ffffff"
			if !g.neutral {
				fill = pieceColors[stk.cap]
			}
			d.Circle(left+w/2, y-7, 6, fill, "#000")
		}
	}
	d.Text(10, 10+rowH/2, 12, "start", "#555", "Large")
	d.Text(10, 10+rowH*1.5, 12, "start", "#555", "Medium")
	gx := 80 + float64(g.n)*col
	for seat := range 2 {
		y := 20 + float64(seat)*rowH
		d.Text(gx, y, 12, "start", "#222", fmt.Sprintf("seat %d goal (top first)", seat))
		for i := range int(s.goalLen[seat]) {
			d.Rect(gx+float64(i)*18, y+6, 16, 16, pieceColors[s.goal[seat][i]], "#222")
		}
	}
	d.Text(10, height-26, 12, "start", "#222", s.stashText())
	d.Text(10, height-8, 13, "start", "#222", s.caption())
	return d.String()
}

func (s *State) stashText() string {
	text := "stash"
	for size, name := range []string{"L", "M"} {
		text += " " + name + ":"
		for c := range s.g.rules.Colors {
			text += fmt.Sprintf(" %c%d", colorLetters[c], s.stash[size][c])
		}
	}
	return text
}

func (s *State) caption() string {
	if s.phase == phaseOver {
		return fmt.Sprintf("scores: seat 0 %d, seat 1 %d — %s", s.score[0], s.score[1], games.ResultText(s.Result()))
	}
	if s.InSetup() {
		return "drawing and ordering the goals"
	}
	return fmt.Sprintf("%s to move", s.CurrentPlayer())
}
