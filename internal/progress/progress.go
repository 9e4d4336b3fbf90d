package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"playtest/internal/printable"
)

// Mode chooses how progress is shown.
type Mode int

// The modes.
const (
	Auto  Mode = iota // a bar on a terminal, else plain lines
	Lines             // a plain line every Interval
	Quiet             // nothing
)

// Interval is how often plain lines are written.
var Interval = 10 * time.Second

// Reporter is told of finished games (or of the units it counts).
type Reporter interface {
	// Add counts n more finished games (units); it is cheap and safe from
	// any goroutine.
	Add(n int)
	// Close stops the reporter (a final line in Lines mode); closing it
	// again does nothing.
	Close()
}

// New starts a reporter for total games, done of which were finished
// before (a resumed run), labelled label, writing to w.
func New(w io.Writer, mode Mode, label string, done, total int) Reporter {
	return NewCounting(w, mode, label, "games", done, total)
}

// NewCounting is New for a reporter of other units than games (unit, a
// plural noun: "positions").
func NewCounting(w io.Writer, mode Mode, label, unit string, done, total int) Reporter {
	if mode == Quiet || total <= done {
		return nop{}
	}
	label, unit = printable.OneLine(label), printable.OneLine(unit)
	if f, ok := printable.Raw(w).(*os.File); ok && mode == Auto && term.IsTerminal(int(f.Fd())) {
		return newBar(f, label, unit, done, total)
	}
	return newLines(w, label, unit, done, total)
}

type nop struct{}

func (nop) Add(int) {}
func (nop) Close()  {}

// bar is an mpb progress bar.
type bar struct {
	p    *mpb.Progress
	bar  *mpb.Bar
	once sync.Once
}

func newBar(w io.Writer, label, unit string, done, total int) *bar {
	p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
	name := label
	if done > 0 {
		name = fmt.Sprintf("%s (resumed at %d)", label, done)
	}
	b := p.New(int64(total-done), mpb.BarStyle(),
		mpb.PrependDecorators(decor.Name(name+" "), decor.CountersNoUnit("%d / %d "+unit)),
		mpb.AppendDecorators(decor.AverageSpeed(nil, " %.1f "+unit+"/s"), decor.Name(", ETA "), decor.AverageETA(decor.ET_STYLE_GO)),
	)
	return &bar{p: p, bar: b}
}

func (b *bar) Add(n int) { b.bar.IncrBy(n) }

func (b *bar) Close() {
	b.once.Do(func() {
		if !b.bar.Completed() {
			b.bar.Abort(false)
		}
		b.p.Wait()
	})
}

// lines writes a plain progress line every Interval.
type lines struct {
	w           io.Writer
	label, unit string
	done, total int
	count       atomic.Int64
	start       time.Time
	stop        chan struct{}
	wg          sync.WaitGroup
	once        sync.Once
}

func newLines(w io.Writer, label, unit string, done, total int) *lines {
	l := &lines{w: w, label: label, unit: unit, done: done, total: total, start: time.Now(), stop: make(chan struct{})}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		t := time.NewTicker(Interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				l.line()
			case <-l.stop:
				return
			}
		}
	}()
	return l
}

func (l *lines) Add(n int) { l.count.Add(int64(n)) }

// line writes where the run stands.
func (l *lines) line() {
	n := int(l.count.Load())
	elapsed := time.Since(l.start)
	rate := float64(n) / elapsed.Seconds()
	at := l.done + n
	msg := fmt.Sprintf("%s: %d / %d %s (%.1f%%), %.1f %s/s", l.label, at, l.total, l.unit, 100*float64(at)/float64(l.total), rate, l.unit)
	if rate > 0 && at < l.total {
		eta := time.Duration(float64(l.total-at) / rate * float64(time.Second))
		msg += ", ETA " + eta.Round(time.Second).String()
	}
	fmt.Fprintln(l.w, msg)
}

func (l *lines) Close() {
	l.once.Do(func() {
		close(l.stop)
		l.wg.Wait()
		if l.count.Load() > 0 {
			l.line() // the last word: where the run ended, in a job's log too
		}
	})
}

// Stages is a reporter for work in stages, one after another (games, then
// positions to label, then games again): each stage has a reporter of its
// own, started by Start, which closes the one before.
type Stages struct {
	w       io.Writer
	mode    Mode
	label   string
	current atomic.Pointer[Reporter]
}

// NewStages starts the first stage, stage ("" for none) of total games
// labelled label.
func NewStages(w io.Writer, mode Mode, label, stage string, total int) *Stages {
	s := &Stages{w: w, mode: mode, label: label}
	s.Start(stage, "games", total)
	return s
}

// Start closes the stage in progress and starts stage (said after the
// label; "" for none) of total units: a stage's units are all counted
// before the next starts.
func (s *Stages) Start(stage, unit string, total int) {
	label := s.label
	if stage != "" {
		label += ": " + stage
	}
	r := NewCounting(s.w, s.mode, label, unit, 0, total)
	if old := s.current.Swap(&r); old != nil {
		(*old).Close()
	}
}

// Add counts n more units of the stage in progress.
func (s *Stages) Add(n int) { (*s.current.Load()).Add(n) }

// Close closes the stage in progress.
func (s *Stages) Close() { (*s.current.Load()).Close() }
