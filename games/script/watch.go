package script

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"

	"playtest/internal/interrupt"
)

// The budget (budget.go) bounds what each call costs, the same at any
// worker count. Two watches stand behind it:
//
//   - A backstop on the heap: while calls run, the live heap is read every
//     millisecond; past MaxHeap plus MaxCallHeap for each call running,
//     every running call is stopped and every call from then on fails. A
//     script within its budget never reaches it (a call builds at most a
//     few hundred megabytes); it is there for what the guards may have
//     missed.
//   - A signal (SIGINT, SIGTERM): every running call is stopped at its
//     next step, within a second, with an error that says so
//     (Error.Interrupted). Calls made after it run as usual, so that the
//     command can write what it finished (a report's notation).
const (
	MaxHeap     = 1 << 30   // the host's own share: a solve's positions, a run's records
	MaxCallHeap = 512 << 20 // each call running
)

var watching struct {
	once     sync.Once
	active   atomic.Int64 // calls running
	tripped  atomic.Bool
	signaled atomic.Bool
	mu       sync.Mutex
	threads  []*starlark.Thread // every thread made, running or idle
}

// watch starts the watches, once per process.
func watch() {
	watching.once.Do(func() {
		interrupt.OnSignal(onSignal)
		go func() {
			sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
			for range time.Tick(time.Millisecond) {
				active := watching.active.Load()
				if active == 0 || watching.tripped.Load() {
					continue
				}
				metrics.Read(sample)
				// The live heap is known at each collection; between two,
				// the heap's objects (garbage included) stand for it once
				// they pass twice the bound.
				limit := uint64(MaxHeap + active*MaxCallHeap)
				if sample[0].Value.Uint64() <= limit && sample[1].Value.Uint64() <= 2*limit {
					continue
				}
				watching.tripped.Store(true)
				cancelAll("memory bound")
			}
		}()
	})
}

// onSignal stops every running call: a signal came.
func onSignal() {
	watching.signaled.Store(true)
	cancelAll(interruptedReason)
}

// interruptedReason is the reason a signal cancels threads with.
const interruptedReason = "interrupted"

// cancelAll cancels every thread: running calls stop at their next step.
func cancelAll(reason string) {
	watching.mu.Lock()
	for _, t := range watching.threads {
		t.Cancel(reason)
	}
	watching.mu.Unlock()
}

// register adds a new thread to those the watches can cancel.
func register(t *starlark.Thread) {
	watching.mu.Lock()
	watching.threads = append(watching.threads, t)
	watching.mu.Unlock()
}

// track counts a call as running; release ends it and returns its thread
// to the pool.
func track() { watching.active.Add(1) }

func release(t *starlark.Thread) {
	watching.active.Add(-1)
	select {
	case idle <- t:
	default: // enough idle threads: this one is forgotten
		watching.mu.Lock()
		for i, r := range watching.threads {
			if r == t {
				watching.threads = append(watching.threads[:i], watching.threads[i+1:]...)
				break
			}
		}
		watching.mu.Unlock()
	}
}

// overMemory reports whether the heap backstop has tripped.
func overMemory() bool { return watching.tripped.Load() }
