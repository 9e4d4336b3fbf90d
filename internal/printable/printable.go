package printable

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// replacement stands for what has no picture of its own.
const replacement = '\uFFFD'

// standIn returns what r is shown as, and whether r needs one. Tab and
// line feed are kept (they lay text out); a string that must be one line
// maps them with OneLine. A carriage return is shown by its stand-in like
// the other controls: on a terminal it would send the line back to its
// start, to be written over.
func standIn(r rune) (rune, bool) {
	switch {
	case r == '\t' || r == '\n':
		return r, false
	case r < 0x20:
		return 0x2400 + r, true // ␀ … ␟; ESC is ␛
	case r == 0x7f:
		return 0x2421, true // ␡
	case r >= 0x80 && r <= 0x9f, // C1 controls: CSI, OSC, …
		r >= 0x202a && r <= 0x202e, // bidirectional embeddings and overrides
		r >= 0x2066 && r <= 0x2069, // bidirectional isolates
		r == utf8.RuneError:
		return replacement, true
	}
	return r, false
}

// String returns s with every control character shown by its stand-in.
func String(s string) string {
	clean := true
	for _, r := range s {
		if _, bad := standIn(r); bad {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for _, r := range s {
		r, _ = standIn(r)
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// OneLine is String with tab and line feed as spaces too: for a name shown
// in a table cell, a heading, a page's title or a message line.
func OneLine(s string) string {
	s = String(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '\t' || s[i] == '\n' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] == '\t' || b[j] == '\n' {
					b[j] = ' '
				}
			}
			return string(b)
		}
	}
	return s
}

// Writer writes to W what is written to it, control characters shown by
// their stand-ins (String). A UTF-8 sequence split between two writes is
// held until the next; Flush writes a partial sequence still held.
type Writer struct {
	W    io.Writer
	held []byte
	buf  []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{W: w} }

// Raw is the writer underneath, for output that must reach it as it is (a
// terminal's progress bar, which moves the cursor itself).
func (w *Writer) Raw() io.Writer { return w.W }

// Raw returns the writer under any Writers wrapping w: a terminal's file,
// for a check that it is one and for a progress bar.
func Raw(w io.Writer) io.Writer {
	for {
		pw, ok := w.(*Writer)
		if !ok {
			return w
		}
		w = pw.W
	}
}

// Write writes p's text, mapped, and reports len(p) on success.
func (w *Writer) Write(p []byte) (int, error) {
	data := p
	if len(w.held) > 0 {
		data = append(w.held, p...)
		w.held = w.held[:0]
	}
	w.buf = w.buf[:0]
	for i := 0; i < len(data); {
		c := data[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' {
			w.buf = append(w.buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 && !utf8.FullRune(data[i:]) {
			w.held = append(w.held, data[i:]...) // the rest of it comes next
			break
		}
		r, _ = standIn(r)
		w.buf = utf8.AppendRune(w.buf, r)
		i += size
	}
	if _, err := w.W.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a partial UTF-8 sequence still held as String does: a
// U+FFFD for each of its bytes.
func (w *Writer) Flush() error {
	if len(w.held) == 0 {
		return nil
	}
	s := String(string(w.held))
	w.held = w.held[:0]
	_, err := io.WriteString(w.W, s)
	return err
}

// Cut returns s if it is at most max bytes long, and otherwise its first
// max bytes (cut at a character's start) and a note of how many were cut:
// a message that quotes the user's input (a traceback, a file's text)
// stays readable whatever the input holds.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + fmt.Sprintf("… (%d more bytes cut)", len(s)-end)
}
