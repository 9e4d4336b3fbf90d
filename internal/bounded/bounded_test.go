package bounded

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
			_, err := io.ReadAll(Lines(r, c.max))
			var long *ErrTooLong
			if errors.As(err, &long) != c.long {
				t.Errorf("%q max %d (byte by byte %v): error %v", c.text, c.max, oneByte, err)
			}
		}
	}
}

func TestEndlessInput(t *testing.T) {
	zeros := io.LimitReader(infinite{}, 1<<40)
	_, err := bufio.NewReader(Lines(zeros, 1<<16)).ReadBytes('\n')
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

func TestReadFile(t *testing.T) {
	if _, err := ReadFile("/dev/zero", 1<<10); !errors.As(err, new(*ErrTooLarge)) {
		t.Errorf("/dev/zero: %v", err)
	}
	if b, err := ReadFile("/dev/null", 1<<10); err != nil || len(b) != 0 {
		t.Errorf("/dev/null: %q %v", b, err)
	}
}
