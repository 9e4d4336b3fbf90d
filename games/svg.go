package games

import (
	"fmt"
	"html"
	"math"
	"strconv"
)

// Drawer is implemented by states that draw themselves for the board
// viewer of the HTML reports: DrawSVG returns one self-contained <svg>
// element showing the whole position (stacks with their pieces and
// colours, cards, hands, scores).
type Drawer interface {
	DrawSVG() string
}

// SVG builds a small SVG drawing: shapes in user units, text escaped. It
// appends to one buffer (a report draws every position of its example
// games: thousands of drawings).
type SVG struct {
	b             []byte
	width, height float64
}

// NewSVG starts a drawing of the given size.
func NewSVG(width, height float64) *SVG { return &SVG{width: width, height: height} }

// Rect draws a rectangle filled with fill (stroke "" for none).
func (s *SVG) Rect(x, y, w, h float64, fill, stroke string) {
	s.b = append(s.b, "<rect"...)
	s.num("x", x)
	s.num("y", y)
	s.num("width", w)
	s.num("height", h)
	s.paint(fill, stroke)
	s.b = append(s.b, "/>"...)
}

// Circle draws a circle.
func (s *SVG) Circle(cx, cy, r float64, fill, stroke string) {
	s.b = append(s.b, "<circle"...)
	s.num("cx", cx)
	s.num("cy", cy)
	s.num("r", r)
	s.paint(fill, stroke)
	s.b = append(s.b, "/>"...)
}

// Text writes text at (x, y), anchored "start", "middle" or "end".
func (s *SVG) Text(x, y, size float64, anchor, fill, text string) {
	s.b = append(s.b, "<text"...)
	s.num("x", x)
	s.num("y", y)
	s.num("font-size", size)
	if anchor != "start" {
		s.attr("text-anchor", anchor)
	}
	s.attr("fill", fill)
	s.b = append(s.b, '>')
	s.b = append(s.b, html.EscapeString(text)...)
	s.b = append(s.b, "</text>"...)
}

// paint writes the fill and, unless "", the stroke.
func (s *SVG) paint(fill, stroke string) {
	s.attr("fill", fill)
	if stroke != "" {
		s.attr("stroke", stroke)
	}
}

// attr writes the attribute name="value" (value as given: the drawing
// code's own colours and keywords).
func (s *SVG) attr(name, value string) {
	s.b = append(s.b, ' ')
	s.b = append(s.b, name...)
	s.b = append(s.b, `="`...)
	s.b = append(s.b, value...)
	s.b = append(s.b, '"')
}

// num writes the attribute name="x", x briefly: at most one decimal,
// none when whole.
func (s *SVG) num(name string, x float64) {
	s.b = append(s.b, ' ')
	s.b = append(s.b, name...)
	s.b = append(s.b, `="`...)
	s.b = appendNum(s.b, x)
	s.b = append(s.b, '"')
}

// appendNum appends x rounded to one decimal, as
// strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) writes it (a
// whole number without its decimal, -0 kept), without the general
// shortest-decimal search.
func appendNum(b []byte, x float64) []byte {
	tenths := math.Round(x * 10)
	if !(math.Abs(tenths) < 1e15) { // huge, infinite or NaN
		return strconv.AppendFloat(b, tenths/10, 'f', -1, 64)
	}
	if math.Signbit(tenths) {
		b = append(b, '-')
		tenths = -tenths
	}
	n := int64(tenths)
	b = strconv.AppendInt(b, n/10, 10)
	if d := n % 10; d != 0 {
		b = append(b, '.', byte('0'+d))
	}
	return b
}

// String closes the drawing.
func (s *SVG) String() string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" font-family="sans-serif">`, s.width, s.height, s.width, s.height) +
		string(s.b) + "</svg>"
}

// ResultText states a result for a caption: "seat0 wins (reason)" or
// "draw (reason)".
func ResultText(r Result) string {
	if r.IsDraw() {
		return "draw (" + r.Reason + ")"
	}
	return fmt.Sprintf("%s wins (%s)", r.Winner, r.Reason)
}
