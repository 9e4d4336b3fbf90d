package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer safe for the reporter's goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLines(t *testing.T) {
	old := Interval
	Interval = time.Millisecond
	defer func() { Interval = old }()
	var out syncBuffer
	r := New(&out, Auto, "v", 10, 110) // not a terminal: plain lines
	r.Add(50)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "v: 60 / 110 games (54.5%)") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	r.Close()
	r.Close() // a second Close does nothing
	if !strings.Contains(out.String(), "v: 60 / 110 games (54.5%)") || !strings.Contains(out.String(), "ETA") {
		t.Errorf("lines:\n%s", out.String())
	}
	if q := New(&out, Quiet, "q", 0, 10); q != (nop{}) {
		t.Errorf("quiet mode gave %T", q)
	}
	if d := New(&out, Lines, "done", 10, 10); d != (nop{}) {
		t.Errorf("a finished run gave %T", d)
	}
}

func TestStages(t *testing.T) {
	var out syncBuffer
	s := NewStages(&out, Lines, "learn", "", 3)
	s.Add(3)
	s.Start("leaves", "positions", 5)
	s.Add(2)
	s.Add(3)
	s.Start("head-to-head", "games", 2)
	s.Add(1)
	s.Close()
	s.Close()
	for _, want := range []string{"learn: 3 / 3 games (100.0%)", "learn: leaves: 5 / 5 positions (100.0%)", "positions/s", "learn: head-to-head: 1 / 2 games (50.0%)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if strings.Count(out.String(), "\n") != 3 {
		t.Errorf("want one last line a stage:\n%s", out.String())
	}
}
