package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"

	"playtest/games"
	"playtest/sim/bots"
)

// Job is what to play: a game, the bot of each player, how many games, the
// run seed, and whether games come in seat-swapped pairs.
type Job struct {
	Game    games.Game
	Players [games.NumSeats]bots.Spec
	Games   int
	Seed    uint64
	Pairs   bool
}

// Record is one finished game.
type Record struct {
	// Index is the game's index in the run, from 0.
	Index int
	// Deal is the index of the chance stream the game used (its pair with
	// Pairs on).
	Deal int
	// Swapped says the players' seats are swapped: player 0 sat in seat 1.
	Swapped bool
	Result  games.Result
	// Plies is the number of moves, as the game counts them.
	Plies int
	// Decisions counts every decision: moves, pie choices, chance outcomes.
	Decisions int
	// PlayerDecisions counts the decisions made by a seat (not chance);
	// Choices those among them with more than one legal move; LegalMoves
	// sums the number of legal moves over them (the branching factor's
	// numerator).
	PlayerDecisions, Choices, LegalMoves int
	// Sides gives the side (index into the game's Sides) each seat
	// commanded at the end; nil for games without sides.
	Sides []int
	// Metrics are the game-specific figures the game reported.
	Metrics []games.Metric
}

// PlayerOf returns the player (0 or 1) who sat in seat in this game.
func (r *Record) PlayerOf(seat games.Player) int {
	if r.Swapped {
		return int(seat) ^ 1
	}
	return int(seat)
}

// SeatOf returns the seat player (0 or 1) sat in in this game.
func (r *Record) SeatOf(player int) games.Player {
	if r.Swapped {
		return games.Player(player ^ 1)
	}
	return games.Player(player)
}

// Options tune a run.
type Options struct {
	// Workers is the number of worker goroutines (default: all cores).
	Workers int
	// Window is how many games workers may run ahead of the oldest
	// unfinished game (default: 4 per worker).
	Window int
}

// Seating returns, for game index i, the deal it uses and whether the
// players' seats are swapped.
func (j *Job) Seating(i int) (deal int, swapped bool) {
	if j.Pairs {
		return i / 2, i%2 == 1
	}
	return i, false
}

// Run plays the job and calls sink with each finished game, in index order,
// from a single goroutine. It stops early, returning ctx's error, when ctx
// is cancelled; a panic inside a game ends the run with an error naming the
// game.
func Run(ctx context.Context, job *Job, opts Options, sink func(*Record)) error {
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers()
	}
	workers = min(workers, max(job.Games, 1))
	window := opts.Window
	if window <= 0 {
		window = 4 * workers
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	slots := make(chan struct{}, window)
	indices := make(chan int)
	results := make(chan outcome, window)

	go func() {
		defer close(indices)
		for i := range job.Games {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case indices <- i:
			case <-ctx.Done():
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := newWorker(job)
			for i := range indices {
				if err != nil {
					results <- outcome{index: i, err: err}
					continue
				}
				rec, err := w.play(i)
				results <- outcome{index: i, rec: rec, err: err}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int]*Record{}
	next := 0
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
				cancel()
			}
			continue
		}
		if firstErr != nil {
			continue
		}
		pending[r.index] = r.rec
		for rec, ok := pending[next]; ok; rec, ok = pending[next] {
			delete(pending, next)
			sink(rec)
			next++
			<-slots
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if next < job.Games {
		return ctx.Err()
	}
	return nil
}

// DefaultWorkers is the number of workers used when none is set: one per
// core the Go runtime may use.
func DefaultWorkers() int { return runtime.GOMAXPROCS(0) }

type outcome struct {
	index int
	rec   *Record
	err   error
}

// worker owns everything one goroutine needs to play games.
type worker struct {
	job      *Job
	bots     [games.NumSeats]bots.Bot // by player
	moves    []games.Move
	outcomes []games.ChanceOutcome
	// view is the scratch state a bot is shown in games with hidden
	// information: the true state with what the seat cannot see re-sampled.
	view games.State
}

func newWorker(job *Job) (*worker, error) {
	w := &worker{
		job:      job,
		moves:    make([]games.Move, 0, job.Game.MaxLegalMoves()),
		outcomes: make([]games.ChanceOutcome, 0, job.Game.MaxLegalMoves()),
	}
	for p, spec := range job.Players {
		b, err := spec.New(job.Game)
		if err != nil {
			return nil, err
		}
		w.bots[p] = b
	}
	return w, nil
}

// play plays game i to the end.
func (w *worker) play(i int) (rec *Record, err error) {
	job := w.job
	deal, swapped := job.Seating(i)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("game %d (seed %d, deal %d) panicked: %v\n%s", i, job.Seed, deal, p, debug.Stack())
		}
	}()
	chance := ChanceStream(job.Seed, deal)
	var seatBot [games.NumSeats]bots.Bot
	var viewRng [games.NumSeats]*rand.Rand
	for seat := range games.NumSeats {
		player := seat
		if swapped {
			player ^= 1
		}
		seatBot[seat] = w.bots[player]
		seatBot[seat].Reset(games.Player(seat), BotStream(job.Seed, i, seat))
	}
	s := job.Game.NewState()
	_, hidden := s.(games.Determinizer)
	if hidden {
		for seat := range viewRng {
			viewRng[seat] = ViewStream(job.Seed, i, seat)
		}
		if w.view == nil {
			w.view = s.Clone()
		}
	}
	rec = &Record{Index: i, Deal: deal, Swapped: swapped}
	for !s.IsTerminal() {
		var m games.Move
		switch p := s.CurrentPlayer(); p {
		case games.Chance:
			w.outcomes = s.ChanceOutcomes(w.outcomes[:0])
			m = games.SampleChance(w.outcomes, chance)
		case games.Seat0, games.Seat1:
			w.moves = s.LegalMoves(w.moves[:0])
			if len(w.moves) == 0 {
				return nil, fmt.Errorf("game %d (seed %d): %v has no legal move but the game is not over\n%s", i, job.Seed, p, s)
			}
			view := s
			if hidden {
				// The bot sees only what its seat sees: the rest is
				// re-sampled from what that seat knows.
				w.view.CopyFrom(s)
				w.view.(games.Determinizer).Determinize(p, viewRng[p])
				view = w.view
			}
			m = seatBot[p].Choose(view, w.moves)
			rec.PlayerDecisions++
			rec.LegalMoves += len(w.moves)
			if len(w.moves) > 1 {
				rec.Choices++
			}
		default:
			return nil, fmt.Errorf("game %d (seed %d): invalid current player %v", i, job.Seed, p)
		}
		s.Apply(m)
		rec.Decisions++
	}
	rec.Result, rec.Plies = s.Result(), s.Plies()
	if ss, ok := s.(games.SideState); ok {
		rec.Sides = []int{ss.SideOf(games.Seat0), ss.SideOf(games.Seat1)}
	}
	if ms, ok := s.(games.Metrics); ok {
		rec.Metrics = ms.AppendMetrics(nil)
	}
	return rec, nil
}
