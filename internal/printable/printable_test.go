package printable

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"board", "board"},
		{"a\x1b[31mred\x1b[0m", "a␛[31mred␛[0m"},
		{"bell\a nul\x00 del\x7f", "bell␇ nul␀ del␡"},
		{"tab\tline\nreturn\r", "tab\tline\nreturn␍"}, // a return would write over the line (issue 53)
		{"csi\u009b2J osc\u009d", "csi\uFFFD2J osc\uFFFD"},
		{"rtl\u202eevil\u2066x\u2069", "rtl\uFFFDevil\uFFFDx\uFFFD"},
		{"bad \xff utf-8", "bad \uFFFD utf-8"},
		{"émigré ♟ 4×4", "émigré ♟ 4×4"},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := OneLine("a\nb\tc\rd\x1b"); got != "a b c␍d␛" {
		t.Errorf("OneLine = %q", got)
	}
}

// TestWriterSplit: whatever the split of the writes, the Writer writes
// what String makes of the whole.
func TestWriterSplit(t *testing.T) {
	in := "x\x1b[2J é\u202e♟\x00\xff\u009bz\n"
	want := String(in)
	for cut := range len(in) + 1 {
		var out bytes.Buffer
		w := NewWriter(&out)
		for _, part := range []string{in[:cut], in[cut:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, out.String(), want)
		}
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	_, _ = w.Write([]byte("a\xe2\x99"))
	_ = w.Flush()
	if out.String() != "a\uFFFD\uFFFD" {
		t.Errorf("a partial sequence at the end: %q", out.String())
	}
}

// FuzzString: no control character but tab, line feed and carriage return
// survives, the result is valid UTF-8, and clean text is left alone.
func FuzzString(f *testing.F) {
	f.Add("a\x1b[31m\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		if !utf8.ValidString(got) {
			t.Fatalf("%q: invalid UTF-8 %q", s, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) && !strings.ContainsRune("\t\n\r", r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Fatalf("%q: %U survives in %q", s, r, got)
			}
		}
		var out bytes.Buffer
		w := NewWriter(&out)
		_, _ = w.Write([]byte(s))
		_ = w.Flush()
		if out.String() != got {
			t.Fatalf("Writer %q, String %q", out.String(), got)
		}
	})
}
