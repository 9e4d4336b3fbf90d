package solve

import (
	"context"
	"sync/atomic"
	"time"
)

// pace keeps a long solve answerable: it sees its context end within one
// unit of work (a position enumerated, a node searched), and paces its
// progress reports to one a second, whatever a unit costs (a scripted
// game's positions take a thousand times a built-in game's, so a count
// such as "every million positions" would leave it silent for minutes).
type pace struct {
	stop    atomic.Bool
	release func() bool
	units   int
	next    time.Time
}

// progressEvery is the time between two progress reports.
const progressEvery = time.Second

func newPace(ctx context.Context) *pace {
	p := &pace{next: time.Now().Add(progressEvery)}
	p.release = context.AfterFunc(ctx, func() { p.stop.Store(true) })
	if ctx.Err() != nil {
		p.stop.Store(true) // AfterFunc runs on its own goroutine, later
	}
	return p
}

// stopped reports whether the context has ended.
func (p *pace) stopped() bool { return p.stop.Load() }

// due counts a unit of work and reports whether a progress report is due
// (the clock is read every 64 units).
func (p *pace) due() bool {
	p.units++
	if p.units&63 != 0 {
		return false
	}
	if now := time.Now(); now.After(p.next) {
		p.next = now.Add(progressEvery)
		return true
	}
	return false
}

// done stops watching the context.
func (p *pace) done() { p.release() }
