package interrupt

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// ExitCode is 128 plus the signal's number, as shells expect: 130 for
// SIGINT, 143 for SIGTERM (1 for a signal without a number).
func ExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// Watch returns a context cancelled by the first SIGINT or SIGTERM (said
// on stderr), a function that returns that signal (nil if none came), and
// one that stops watching. A second signal calls exit with the first one's
// ExitCode at once.
func Watch(stderr io.Writer, exit func(code int)) (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var first atomic.Value
	go func() {
		select {
		case sig := <-ch:
			first.Store(sig)
			stopping.Store(true)
			fmt.Fprintf(stderr, "playtest: %v: stopping; a second signal quits at once\n", sig)
			cancel()
			runHooks()
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "playtest: %v again: quitting now\n", sig)
			exit(ExitCode(first.Load().(os.Signal)))
		case <-done:
		}
	}()
	signalled := func() os.Signal {
		sig, _ := first.Load().(os.Signal)
		return sig
	}
	return ctx, signalled, func() {
		signal.Stop(ch)
		close(done)
		cancel()
		stopping.Store(false)
	}
}

// stopping is set from a Watch's first signal to its end.
var stopping atomic.Bool

// Stopping reports whether a signal has asked the process to stop: for
// work no context reaches (a report's short proof), which gives up when
// it is set.
func Stopping() bool { return stopping.Load() }

// hooks are what OnSignal registered.
var hooks struct {
	mu    sync.Mutex
	funcs []func()
}

// OnSignal registers f to run at the first signal a Watch sees, after its
// context is cancelled: for work a context does not reach, such as a
// script interpreter stopped through its own handle. f must return at once.
func OnSignal(f func()) {
	hooks.mu.Lock()
	hooks.funcs = append(hooks.funcs, f)
	hooks.mu.Unlock()
}

func runHooks() {
	hooks.mu.Lock()
	funcs := append([]func(){}, hooks.funcs...)
	hooks.mu.Unlock()
	for _, f := range funcs {
		f()
	}
}

// Until runs f and returns its result, or ctx's error as soon as ctx is
// cancelled: for work that holds nothing to clean up (a count), so that a
// signal stops the command at once. f is abandoned, not stopped; the
// process ends when the command returns.
func Until[T any](ctx context.Context, f func() T) (T, error) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// Line is a line read by Lines, or the error that ended the input.
type Line struct {
	Text string
	Err  error
}

// Lines reads r's lines (up to 64 KiB each) into a channel, closed at the
// end of the input, so that waiting for a person can be cut short by a
// signal. It stops sending once done is closed.
func Lines(r io.Reader, done <-chan struct{}) <-chan Line {
	ch := make(chan Line)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 4096), 1<<16)
		send := func(l Line) bool {
			select {
			case ch <- l:
				return true
			case <-done:
				return false
			}
		}
		for sc.Scan() {
			if !send(Line{Text: sc.Text()}) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			send(Line{Err: err})
		}
	}()
	return ch
}
