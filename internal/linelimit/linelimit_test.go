package linelimit

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLines(t *testing.T) {
	for _, c := range []struct {
		text string
		max  int
		long bool
	}{
		{"abc\ndef\n", 3, false},
		{"abc\ndefg\n", 3, true},
		{"abcd", 3, true},              // a last line without a newline
		{"ab\n\n\nabc", 3, false},      // empty lines
		{"abc\nab\nabcd\nab", 3, true}, // the long line in the middle
	} {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(c.text)
			if oneByte { // line boundaries across reads
				r = iotest.OneByteReader(r)
			}
			_, err := io.ReadAll(New(r, c.max))
			var long *ErrTooLong
			if errors.As(err, &long) != c.long {
				t.Errorf("%q max %d (byte by byte %v): error %v", c.text, c.max, oneByte, err)
			}
		}
	}
}

func TestEndlessInput(t *testing.T) {
	zeros := io.LimitReader(infinite{}, 1<<40)
	_, err := bufio.NewReader(New(zeros, 1<<16)).ReadBytes('\n')
	var long *ErrTooLong
	if !errors.As(err, &long) {
		t.Fatalf("error %v", err)
	}
}

type infinite struct{}

func (infinite) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
