package inarow

import (
	"fmt"
	"strings"

	"playtest/games"
)

// String draws the board for the terminal: X for seat 0, O for seat 1,
// row 1 at the bottom.
func (p *Position) String() string {
	var b strings.Builder
	r := p.B
	for row := r.Rows - 1; row >= 0; row-- {
		fmt.Fprintf(&b, "%d ", row+1)
		for col := range r.Cols {
			c := uint64(1) << uint(p.B.Cell(row, col))
			switch {
			case p.Stones[0]&c != 0:
				b.WriteString(" X")
			case p.Stones[1]&c != 0:
				b.WriteString(" O")
			default:
				b.WriteString(" .")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ")
	for col := range r.Cols {
		fmt.Fprintf(&b, " %c", 'a'+col)
	}
	if p.over {
		fmt.Fprintf(&b, "\n%s", games.ResultText(p.Result()))
	} else {
		fmt.Fprintf(&b, "\n%v (%s) to move", p.ToMove, [2]string{"X", "O"}[p.ToMove])
	}
	return b.String()
}

// DrawSVG draws the board for the board viewer (implements games.Drawer).
func (p *Position) DrawSVG() string {
	const cell, margin = 40.0, 22.0
	r := p.B
	width, height := margin+float64(r.Cols)*cell+8, float64(r.Rows)*cell+50
	d := games.NewSVG(width, height)
	d.Rect(0, 0, width, height, "#ffffff", "")
	for row := range r.Rows {
		y := 6 + float64(r.Rows-1-row)*cell
		d.Text(margin/2, y+cell/2+4, 12, "middle", "#555", fmt.Sprint(row+1))
		for col := range r.Cols {
			x := margin + float64(col)*cell
			d.Rect(x, y, cell, cell, "#f5f2ea", "#bbb")
			c := uint64(1) << uint(p.B.Cell(row, col))
			switch {
			case p.Stones[0]&c != 0:
				d.Circle(x+cell/2, y+cell/2, cell/2-6, "#c0392b", "#333")
			case p.Stones[1]&c != 0:
				d.Circle(x+cell/2, y+cell/2, cell/2-6, "#2c6fbb", "#333")
			}
		}
	}
	for col := range r.Cols {
		d.Text(margin+float64(col)*cell+cell/2, 6+float64(r.Rows)*cell+14, 12, "middle", "#555", string(rune('a'+col)))
	}
	status := fmt.Sprintf("%v to move", p.ToMove)
	if p.over {
		status = games.ResultText(p.Result())
	}
	d.Text(margin, 6+float64(r.Rows)*cell+34, 12, "start", "#222", status)
	return d.String()
}
