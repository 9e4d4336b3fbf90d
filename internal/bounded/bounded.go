package bounded

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// ErrTooLong is returned once a line passes the limit.
type ErrTooLong struct{ Max int }

func (e *ErrTooLong) Error() string {
	return fmt.Sprintf("a line longer than %d bytes: not a text file of this kind", e.Max)
}

// Reader passes its source through until a line grows past max bytes.
type Reader struct {
	r   io.Reader
	max int
	run int // bytes since the last newline
}

// Lines returns a Reader of r with lines of at most max bytes.
func Lines(r io.Reader, max int) *Reader { return &Reader{r: r, max: max} }

// Read implements io.Reader.
func (l *Reader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	chunk := p[:n]
	for len(chunk) > 0 && l.run <= l.max {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			l.run += len(chunk)
			break
		}
		if l.run+i > l.max {
			l.run += i
			break
		}
		l.run, chunk = 0, chunk[i+1:]
	}
	if l.run > l.max {
		return n, &ErrTooLong{Max: l.max}
	}
	return n, err
}

// ErrTooLarge is returned by ReadFile for a file over its limit.
type ErrTooLarge struct{ Max int }

func (e *ErrTooLarge) Error() string {
	return fmt.Sprintf("larger than %d bytes", e.Max)
}

// ReadFile reads the file at path, refusing one over max bytes with
// *ErrTooLarge (reading at most max+1 bytes of it).
func ReadFile(path string, max int) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err == nil && len(b) > max {
		return nil, &ErrTooLarge{Max: max}
	}
	return b, err
}

// Open opens the file at path for reading without waiting for a writer:
// a named pipe (FIFO) that no process writes to reads as empty at once,
// where os.Open would block until a writer came (and no signal could stop
// it). Regular files are unaffected.
func Open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
}
