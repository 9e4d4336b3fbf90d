package interrupt

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a buffer the watcher writes from its goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSecondSignalQuits: the first signal cancels and is said, runs the
// hooks and sets Stopping (until the watch ends); the second exits at once
// with the first one's code.
func TestSecondSignalQuits(t *testing.T) {
	exited := make(chan int, 1)
	hooked := make(chan bool, 1)
	OnSignal(func() {
		select {
		case hooked <- Stopping():
		default:
		}
	})
	var stderr lockedBuffer
	ctx, signalled, stop := Watch(&stderr, func(code int) { exited <- code })
	defer func() {
		stop()
		if Stopping() {
			t.Error("Stopping after the watch ended")
		}
	}()
	if Stopping() {
		t.Fatal("Stopping before a signal")
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the first SIGINT did not cancel")
	}
	if stopping := <-hooked; !stopping {
		t.Error("the hook ran before Stopping was set")
	}
	if signalled() != syscall.SIGINT {
		t.Errorf("signalled %v", signalled())
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case code := <-exited:
		if code != 130 {
			t.Errorf("exit %d after SIGINT then SIGTERM, want 130", code)
		}
	case <-time.After(time.Minute):
		t.Fatal("the second signal did not exit")
	}
	if !strings.Contains(stderr.String(), "stopping; a second signal quits at once") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestUntil returns f's result, or the context's error at once when it is
// cancelled first.
func TestUntil(t *testing.T) {
	if v, err := Until(context.Background(), func() int { return 7 }); v != 7 || err != nil {
		t.Errorf("%d, %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := Until(ctx, func() int { <-release; return 1 }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if ExitCode(syscall.SIGTERM) != 143 || ExitCode(os.Interrupt) != 130 {
		t.Error("exit codes")
	}
}

// TestLines hands over every line, then closes; once done is closed it
// stops sending, and a line too long ends the input with its error.
func TestLines(t *testing.T) {
	var got []string
	for l := range Lines(strings.NewReader("a\nbb\n\nccc"), nil) {
		if l.Err != nil {
			t.Fatal(l.Err)
		}
		got = append(got, l.Text)
	}
	if strings.Join(got, "|") != "a|bb||ccc" {
		t.Errorf("lines %q", got)
	}
	done := make(chan struct{})
	ch := Lines(strings.NewReader("x\ny\n"), done)
	if l := <-ch; l.Text != "x" {
		t.Errorf("first line %q", l.Text)
	}
	close(done)
	for range ch { // closed once the reader sees done
	}
	var last Line
	for l := range Lines(strings.NewReader(strings.Repeat("z", 1<<17)), nil) {
		last = l
	}
	if last.Err == nil {
		t.Error("a line over 64 KiB gave no error")
	}
}
