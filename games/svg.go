package games

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Drawer is implemented by states that draw themselves for the board
// viewer of the HTML reports: DrawSVG returns one self-contained <svg>
// element showing the whole position (stacks with their pieces and
// colours, cards, hands, scores).
type Drawer interface {
	DrawSVG() string
}

// SVG builds a small SVG drawing: shapes in user units, text escaped.
type SVG struct {
	b             strings.Builder
	width, height float64
}

// NewSVG starts a drawing of the given size.
func NewSVG(width, height float64) *SVG { return &SVG{width: width, height: height} }

// Rect draws a rectangle filled with fill (stroke "" for none).
func (s *SVG) Rect(x, y, w, h float64, fill, stroke string) {
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"`, num(x), num(y), num(w), num(h), fill)
	if stroke != "" {
		fmt.Fprintf(&s.b, ` stroke="%s"`, stroke)
	}
	s.b.WriteString("/>")
}

// Circle draws a circle.
func (s *SVG) Circle(cx, cy, r float64, fill, stroke string) {
	fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s" fill="%s"`, num(cx), num(cy), num(r), fill)
	if stroke != "" {
		fmt.Fprintf(&s.b, ` stroke="%s"`, stroke)
	}
	s.b.WriteString("/>")
}

// Text writes text at (x, y), anchored "start", "middle" or "end".
func (s *SVG) Text(x, y, size float64, anchor, fill, text string) {
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" font-size="%s"`, num(x), num(y), num(size))
	if anchor != "start" {
		fmt.Fprintf(&s.b, ` text-anchor="%s"`, anchor)
	}
	fmt.Fprintf(&s.b, ` fill="%s">%s</text>`, fill, html.EscapeString(text))
}

// String closes the drawing.
func (s *SVG) String() string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" font-family="sans-serif">`, s.width, s.height, s.width, s.height) +
		s.b.String() + "</svg>"
}

// num writes a coordinate briefly: at most one decimal, none when whole.
func num(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }

// ResultText states a result for a caption: "seat0 wins (reason)" or
// "draw (reason)".
func ResultText(r Result) string {
	if r.IsDraw() {
		return "draw (" + r.Reason + ")"
	}
	return fmt.Sprintf("%s wins (%s)", r.Winner, r.Reason)
}
