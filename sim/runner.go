package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim/bots"
	"playtest/sim/model"
)

// Job is what to play: a game, the bot of each player, how many games, the
// run seed, and whether games come in seat-swapped pairs.
type Job struct {
	Game    games.Game
	Players [games.NumSeats]bots.Spec
	// Games is the number of games of the whole run.
	Games int
	Seed  uint64
	Pairs bool
	// With Sliced set, the job plays only the game indices [From, To): a
	// shard of a run, or the rest of an interrupted one (an empty range
	// plays nothing). Otherwise it plays all Games.
	Sliced   bool
	From, To int
	// Moves keeps every game's moves (chance outcomes included) in the
	// game's notation in its Record.
	Moves bool
	// Trace is how many games, from index 0, are traced: their records
	// keep the win-probability trace's leads (Record.Trace) and how the
	// game played (Record.Play). Games from Trace on are not (0: none).
	Trace int
	// StaticTrace judges the traced positions by their static evaluation,
	// without playing their exchanges out (TraceCount: for bots that do
	// not search).
	StaticTrace bool
	// Book, if set, plays each game's opening: the seats' first decisions
	// are the book's while it has a move, drawn from the deal's book stream
	// (BookStream), so both games of a pair open alike; the bots decide
	// from there on.
	Book Book
	// Opening is the line of play every game starts after (a variant's
	// opening:): its moves and chance outcomes are applied in order, the
	// seats' bots choosing and the chance stream drawing only after it. Its
	// entries are in the game's history (Record.Moves, the fingerprint, the
	// trace) but are no seat's decisions (Record.PlayerDecisions); the book's
	// decisions count from its end.
	Opening []games.Move
}

// Book is an opening book: the moves a game opens with, for the variety
// bots that always answer alike cannot give themselves. It is shared by
// every worker, so it must be safe for concurrent use.
type Book interface {
	// BookMove returns the book's move in s, the game's decision number
	// decision (from 0), drawn with rng; false ends the book for the game.
	BookMove(s games.State, decision int, rng *pcg.Rand) (games.Move, bool)
}

// DefaultTrace is the number of games, from index 0, a run traces (see
// Job.Trace): enough for figures with tight intervals, few enough that
// long runs of fast games keep small logs. A shard or a resumed run
// traces the same games as one process.
const DefaultTrace = 2000

// Runs of bots that do not search (random, greedy) play a game in tens of
// microseconds, and a traced game costs many times that (its figures'
// intervals are bootstrapped): such a run traces one game in
// StaticTraceEvery (at least MinStaticTrace, at most DefaultTrace), each
// position judged by its static evaluation rather than after its
// exchanges, so that tracing costs a few percent of the run, not a third.
const (
	StaticTraceEvery = 200
	MinStaticTrace   = 20
)

// TraceCount is how many games, from index 0, a run of players traces:
// DefaultTrace, or, when no player searches, one game in StaticTraceEvery
// within [MinStaticTrace, DefaultTrace] (StaticTrace says so).
func TraceCount(players [games.NumSeats]bots.Spec, n int) int {
	if !StaticTrace(players) {
		return DefaultTrace
	}
	return min(DefaultTrace, max(MinStaticTrace, (n+StaticTraceEvery-1)/StaticTraceEvery))
}

// StaticTrace reports whether a run of players traces by static
// evaluation: no player searches.
func StaticTrace(players [games.NumSeats]bots.Spec) bool {
	for _, p := range players {
		if !p.Weak() {
			return false
		}
	}
	return true
}

// TraceDecided is the magnitude of a trace entry whose position's forcing
// moves decide the game (bots.JudgeWin in hundredths): the winner's.
const TraceDecided = int32(bots.JudgeWin * 100)

// end returns the index after the last game the job plays.
func (j *Job) end() int {
	if j.Sliced {
		return j.To
	}
	return j.Games
}

// start returns the index of the first game the job plays.
func (j *Job) start() int {
	if j.Sliced {
		return j.From
	}
	return 0
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
	// Lifted counts the decisions of a restricted player (restrict:) whose
	// every legal move its restriction forbade: it was lifted for them.
	Lifted int
	// PlayerDecisions counts the decisions made by a seat (not chance).
	// Uncounted are those among them whose legal moves were not counted:
	// when every seat draws a uniformly random move through the game's
	// sampler (bots.Sampler and games.RandomMover), the runner counts the
	// moves at one decision in CountEvery only. Choices are the counted
	// decisions with more than one legal move; LegalMoves sums the number
	// of legal moves over the counted decisions (the branching factor's
	// numerator).
	PlayerDecisions, Uncounted, Choices, LegalMoves int
	// Booked counts the decisions the job's opening book made (Job.Book).
	Booked int
	// Opening is the first decision a seat made, in the game's notation
	// (chance outcomes before it, such as a deal, and setup decisions, such
	// as Capstone's goal order, are not counted).
	Opening string
	// Fingerprint identifies the game's sequence of decisions (moves and
	// chance outcomes; Fingerprint): two games with the same one played the
	// same game. Bots that always answer alike play few distinct games,
	// which are then not independent samples.
	Fingerprint uint64
	// Sides gives the side (index into the game's Sides) each seat
	// commanded at the end; nil for games without sides.
	Sides []int
	// Metrics are the game-specific figures the game reported.
	Metrics []games.Metric
	// Moves are the game's moves and chance outcomes in the game's
	// notation, when the job keeps them.
	Moves []string
	// Trace is seat 0's lead before each decision (Trace[0] at the start,
	// one per decision), in hundredths of the hand heuristic's units: the
	// deciding bot's own root value where its search gave one
	// (bots.Valuer: alphabeta), else bots.Judge's (the evaluation after a
	// quiescence search), ±TraceDecided for a position whose result is
	// forced: the win-probability trace before it is mapped to
	// probabilities. Nil for a game the job does not trace (Job.Trace).
	Trace []int32
	// Play holds the rest of what a traced game says of how it played.
	Play *Play
	// Err is set when the game failed (an engine panic or an invalid
	// state): the game has no result and is left out of every statistic.
	Err *GameError
}

// Play is what a traced game says of how it played, beyond its trace.
type Play struct {
	// Deliberated counts the decisions a search bot deliberated over
	// (bots.Deliberator: more than one legal move); Near sums the moves it
	// rated near its best and Of the legal moves at those decisions
	// (clarity).
	Deliberated int `json:"deliberated"`
	Near        int `json:"near"`
	Of          int `json:"of"`
	// Covered is the number of board cells that held a piece at some
	// point of the game, of Cells (games.Coverer; 0 and 0 for a game
	// without a board).
	Covered int `json:"covered,omitempty"`
	Cells   int `json:"cells,omitempty"`
	// Positions counts the positions after each decision in games whose
	// states hash them (games.Hasher), Repeats those equal to an earlier
	// one of the game (0 and 0 for other games).
	Positions int `json:"positions,omitempty"`
	Repeats   int `json:"repeats,omitempty"`
}

// GameError is a game that failed: where (index, seed, deal), what went
// wrong, and the moves played up to the failure, the failing one last.
type GameError struct {
	Index   int    `json:"index"`
	Seed    uint64 `json:"seed"`
	Deal    int    `json:"deal"`
	Swapped bool   `json:"swapped"`
	Message string `json:"error"`
	// Stack is the goroutine's stack at a panic; Position the board when
	// the state itself was found invalid.
	Stack    string   `json:"stack,omitempty"`
	Position string   `json:"position,omitempty"`
	Moves    []string `json:"moves"`
}

func (e *GameError) Error() string {
	return fmt.Sprintf("game %d (seed %d, deal %d): %s", e.Index, e.Seed, e.Deal, e.Message)
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

// CountEvery says how often the runner counts a seat's legal moves when
// every seat draws its moves through the game's sampler (see
// Record.Uncounted): at one decision in CountEvery. Counting the moves
// costs more than drawing one; the branching factor and the share of
// decisions with a choice are then estimated from those decisions.
const CountEvery = 16

// Options tune a run.
type Options struct {
	// Workers is the number of worker goroutines (default: all cores).
	Workers int
	// Window is how many batches of games (see batchSize) workers may run
	// ahead of the oldest unfinished one (default: 4 per worker).
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
// is cancelled: the searches in progress return at once and their games are
// dropped, so every game handed to sink was played whole. A job whose
// search trees may not fit in memory is refused (*MemoryError). A game that panics or reaches an invalid state is handed to
// the sink with its Err set, and the run goes on.
func Run(ctx context.Context, job *Job, opts Options, sink func(*Record)) error {
	first, end := job.start(), job.end()
	if first < 0 || end > job.Games || first > end {
		return fmt.Errorf("games [%d, %d) are not within the run's %d games", first, end, job.Games)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers()
	}
	if first == end {
		return nil // an empty slice: nothing to play
	}
	workers = min(workers, max(end-first, 1))
	if err := CheckMemory(job, workers); err != nil {
		return err
	}
	window := opts.Window
	if window <= 0 {
		window = 4 * workers
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Cancelling cuts the games in progress short: searches return at once
	// and the games are thrown away (a resumed run plays them again).
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	if workers == 1 {
		return runInline(ctx, job, &stop, sink)
	}

	// Workers take batches of consecutive games: one hand-off per game
	// costs more than a fast game (random bots play a game in tens of
	// microseconds), while slow games keep batches of one.
	batch := batchSize(end-first, workers)
	slots := make(chan struct{}, window)
	batches := make(chan int)
	results := make(chan outcome, window)

	go func() {
		defer close(batches)
		for i := first; i < end; i += batch {
			// A select with several ready cases picks one at random: look
			// at ctx first, so a cancelled run starts no further game.
			if ctx.Err() != nil {
				return
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case batches <- i:
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
			w, err := newWorker(job, &stop)
			for i := range batches {
				if err != nil {
					results <- outcome{index: i, err: err}
					continue
				}
				out := outcome{index: i}
				for j := i; j < min(i+batch, end); j++ {
					rec := w.play(j, nil)
					if w.fatal != nil {
						out.err = w.fatal
						break
					}
					if rec == nil {
						break // cut short: the rest of the batch is not played
					}
					out.recs = append(out.recs, rec)
				}
				results <- out
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int]outcome{}
	next := first // the next game to hand to sink
	gap := false  // a batch was cut short: nothing after it is delivered
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
				cancel()
			}
			continue
		}
		if firstErr != nil || gap {
			continue
		}
		pending[r.index] = r
		for o, ok := pending[next]; ok && !gap; o, ok = pending[next] {
			delete(pending, next)
			for _, rec := range o.recs {
				sink(rec)
			}
			gap = next+len(o.recs) < min(next+batch, end)
			next += len(o.recs)
			<-slots
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if next < end {
		return ctx.Err()
	}
	return nil
}

// batchSize is how many consecutive games a worker takes at once: one for
// runs of a few hundred games per worker (slow searches), up to 64 for
// long runs, so that batches stay small beside the run.
func batchSize(games, workers int) int {
	return min(max(games/(workers*256), 1), 64)
}

// runInline plays the job's games one after the other in the calling
// goroutine: with one worker, handing games to a goroutine and back costs
// CPU (the scheduler spins on every hand-off) and buys nothing.
func runInline(ctx context.Context, job *Job, stop *atomic.Bool, sink func(*Record)) error {
	w, err := newWorker(job, stop)
	if err != nil {
		return err
	}
	for i := job.start(); i < job.end(); i++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rec := w.play(i, nil)
		if w.fatal != nil {
			return w.fatal
		}
		if rec == nil {
			return ctx.Err() // cut short by the cancel
		}
		sink(rec)
	}
	return nil
}

// DefaultWorkers is the number of workers used when none is set: one per
// core the Go runtime may use.
func DefaultWorkers() int { return runtime.GOMAXPROCS(0) }

// outcome is a batch of games from index on, as played by a worker (fewer
// records than games when it was cut short), or the worker's error.
type outcome struct {
	index int
	recs  []*Record
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
	// history holds the game's moves so far, for the error of a game that
	// fails.
	history []games.Move
	// stop, when set and true, cuts the game in progress short: play
	// returns nil, and the bots' searches return at once.
	stop *atomic.Bool
	// judge leads the traced games' traces; hashes holds a traced game's
	// position hashes.
	judge  *bots.Judge
	hashes []uint64
	// filters restrict the players' moves (restrict:), by player; nil for
	// an unrestricted one.
	filters [games.NumSeats]*bots.Filter
	allowed []games.Move // a restricted seat's moves
	// fatal is the error of rules that failed (games.RulesError): the
	// game that met it returned nil, and the run stops with it.
	fatal error
}

func newWorker(job *Job, stop *atomic.Bool) (*worker, error) {
	w := &worker{
		job:      job,
		stop:     stop,
		moves:    make([]games.Move, 0, job.Game.MaxLegalMoves()),
		outcomes: make([]games.ChanceOutcome, 0, job.Game.MaxLegalMoves()),
	}
	for p, spec := range job.Players {
		b, err := spec.New(job.Game)
		if err != nil {
			return nil, err
		}
		w.bots[p] = b
		if w.filters[p], err = bots.NewFilter(spec, job.Game); err != nil {
			return nil, err
		}
		if s, ok := b.(bots.Stoppable); ok && stop != nil {
			s.SetStop(stop)
		}
	}
	if job.Trace > 0 {
		w.judge = bots.NewJudge(TraceModel(job.Players))
		w.judge.Static = job.StaticTrace
	}
	return w, nil
}

// TraceModel is the learned model a job's traces judge positions with: the
// first player's that plays one, nil for the hand heuristic.
func TraceModel(players [games.NumSeats]bots.Spec) *model.Model {
	for _, p := range players {
		if mu, ok := p.Params.(bots.ModelUser); ok && mu.LearnedModel() != nil {
			return mu.LearnedModel()
		}
	}
	return nil
}

// Observer sees every decision of a game: the state before it, who decides
// (a seat or games.Chance) and the move or outcome chosen.
type Observer func(s games.State, who games.Player, m games.Move)

// Replay plays game i of the job alone, exactly as Run plays it, calling
// observe before each decision is applied, and returns its record. When
// ctx is cancelled the searches return at once and Replay returns ctx's
// error.
func Replay(ctx context.Context, job *Job, i int, observe Observer) (*Record, error) {
	if i < 0 || i >= job.Games {
		return nil, fmt.Errorf("game %d: the run has games 0 to %d", i, job.Games-1)
	}
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	w, err := newWorker(job, &stop)
	if err != nil {
		return nil, err
	}
	rec := w.play(i, observe)
	if w.fatal != nil {
		return nil, w.fatal
	}
	if rec == nil {
		return nil, ctx.Err()
	}
	return rec, nil
}

// play plays game i to the end. A panic or an invalid state ends the game
// with rec.Err set. A game cut short by w.stop returns nil.
func (w *worker) play(i int, observe Observer) (rec *Record) {
	job := w.job
	deal, swapped := job.Seating(i)
	rec = &Record{Index: i, Deal: deal, Swapped: swapped}
	w.history = w.history[:0]
	fail := func(msg string) *GameError {
		rec.Err = &GameError{Index: i, Seed: job.Seed, Deal: deal, Swapped: swapped, Message: msg, Moves: w.notation()}
		return rec.Err
	}
	defer func() {
		if p := recover(); p != nil {
			if re, ok := p.(games.RulesError); ok {
				if errors.Is(re, context.Canceled) {
					rec = nil // a signal stopped the rules mid-game: cut short
					return
				}
				// The rules themselves failed (a script's error): every
				// game would, so the run stops with it.
				w.fatal, rec = fmt.Errorf("game %d (seed %d): %w", i, job.Seed, re), nil
				return
			}
			fail(fmt.Sprintf("panic: %v", p)).Stack = string(debug.Stack())
		}
	}()
	chance := ChanceStream(job.Seed, deal)
	var bookRng *pcg.Rand
	if job.Book != nil {
		bookRng = BookStream(job.Seed, deal)
	}
	var seatBot [games.NumSeats]bots.Bot
	var seatFilter [games.NumSeats]*bots.Filter
	// byIndex holds the bots that pick by index (IndexPicker), nil for the
	// others.
	var byIndex [games.NumSeats]games.IndexPicker
	var viewRng [games.NumSeats]*pcg.Rand
	for seat := range games.NumSeats {
		player := seat
		if swapped {
			player ^= 1
		}
		seatBot[seat], seatFilter[seat] = w.bots[player], w.filters[player]
		seatBot[seat].Reset(games.Player(seat), BotStream(job.Seed, i, seat))
		byIndex[seat], _ = seatBot[seat].(games.IndexPicker)
	}
	s := job.Game.NewState()
	_, hidden := s.(games.Determinizer)
	setup, _ := s.(games.SetupDecider)
	picker, _ := s.(games.MovePicker)
	// With every seat a sampler and a state that samples, the seats'
	// moves are drawn without counting the legal moves, except at one
	// decision in CountEvery: the decisions d (from 0) of game i with
	// d + i + 1 a multiple of CountEvery, so that over the games every
	// decision number (and so both seats) is counted alike.
	traced := i < job.Trace
	var coverer games.Coverer
	var hasher games.Hasher
	if traced {
		rec.Play = &Play{}
		coverer, _ = s.(games.Coverer)
		hasher, _ = s.(games.Hasher)
		w.hashes = w.hashes[:0]
	}
	var covered uint64
	sampler, _ := s.(games.RandomMover)
	var samplers [games.NumSeats]bots.Sampler
	for seat := range samplers {
		if samplers[seat], _ = seatBot[seat].(bots.Sampler); samplers[seat] == nil || seatFilter[seat] != nil {
			sampler = nil
		}
	}
	if hidden {
		for seat := range viewRng {
			viewRng[seat] = ViewStream(job.Seed, i, seat)
		}
		if w.view == nil {
			w.view = s.Clone()
		}
	}
	for !s.IsTerminal() {
		if w.stopped() {
			return nil
		}
		var m games.Move
		p := s.CurrentPlayer()
		// lead is the position's value for the trace, when the deciding
		// bot's search gave one.
		lead, valued := 0.0, false
		switch {
		case rec.Decisions < len(job.Opening):
			m = job.Opening[rec.Decisions]
			if p != games.Chance {
				w.moves = s.LegalMoves(w.moves[:0])
				if !slices.Contains(w.moves, m) {
					fail(fmt.Sprintf("the opening's entry %d, move %d for %v, is not legal", rec.Decisions+1, m, p)).Position = s.String()
					return rec
				}
			}
		case p == games.Chance:
			m, w.outcomes = games.DrawChance(s, chance, w.outcomes)
		case p == games.Seat0 || p == games.Seat1:
			var n int
			booked := false
			if bookRng != nil {
				bm, ok := job.Book.BookMove(s, rec.Decisions-len(job.Opening), bookRng)
				if !ok {
					bookRng = nil // the book has ended for this game
				} else {
					w.moves = s.LegalMoves(w.moves[:0])
					if !slices.Contains(w.moves, bm) {
						fail(fmt.Sprintf("the opening book's move %d for %v is not legal", bm, p)).Position = s.String()
						return rec
					}
					m, n, booked = bm, len(w.moves), true
					rec.Booked++
				}
			}
			drawn := !booked && sampler != nil && (rec.PlayerDecisions+i+1)%CountEvery != 0
			// A bot that picks by index needs neither the position nor,
			// when the state can hand out its k-th move, the list; the
			// move it gets is legal by construction (the conformance
			// suite checks PickMove against LegalMoves, and RandomMove's
			// moves and their distribution).
			// A restricted seat decides from the list its restriction
			// allows (lifted, and counted, when it allows none).
			restricted := seatFilter[p] != nil
			switch ip := byIndex[p]; {
			case booked:
			case drawn:
				m = samplers[p].Sample(sampler)
			case ip != nil && picker != nil && !restricted:
				m, n = picker.PickMove(ip)
			case ip != nil:
				w.moves = s.LegalMoves(w.moves[:0])
				if n = len(w.moves); n > 0 {
					allowed := w.restrict(rec, seatFilter[p], s, p)
					m = allowed[ip.PickIndex(len(allowed))]
				}
			default:
				w.moves = s.LegalMoves(w.moves[:0])
				if n = len(w.moves); n > 0 {
					allowed := w.restrict(rec, seatFilter[p], s, p)
					m = seatBot[p].Choose(w.viewOf(s, p, viewRng[p]), allowed)
					if !slices.Contains(allowed, m) {
						fail(fmt.Sprintf("the %s bot of %v chose move %d, which is not legal", job.Players[rec.PlayerOf(p)].Bot, p, m)).Position = s.String()
						return rec
					}
					if traced {
						lead, valued = w.deliberation(rec.Play, seatBot[p], p)
					}
				}
			}
			if n == 0 && !drawn {
				fail(fmt.Sprintf("%v has no legal move but the game is not over", p)).Position = s.String()
				return rec
			}
			if rec.Opening == "" && (setup == nil || !setup.InSetup()) {
				rec.Opening = s.MoveString(m)
			}
			rec.PlayerDecisions++
			if drawn {
				rec.Uncounted++
			} else {
				rec.LegalMoves += n
				if n > 1 {
					rec.Choices++
				}
			}
		default:
			fail(fmt.Sprintf("invalid current player %v", p)).Position = s.String()
			return rec
		}
		if traced {
			if !valued {
				lead = w.judge.Lead(s)
			}
			rec.Trace = append(rec.Trace, traceEntry(lead))
			if coverer != nil {
				covered |= coverer.Occupied()
			}
		}
		w.history = append(w.history, m)
		if observe != nil {
			observe(s, p, m)
		}
		if job.Moves {
			rec.Moves = append(rec.Moves, s.MoveString(m))
		}
		s.Apply(m)
		rec.Decisions++
		if hasher != nil {
			w.hashes = append(w.hashes, hasher.Hash())
		}
	}
	if w.stopped() {
		return nil // its last searches may have been cut short
	}
	rec.Result, rec.Plies = s.Result(), s.Plies()
	rec.Fingerprint = Fingerprint(w.history)
	if ss, ok := s.(games.SideState); ok {
		rec.Sides = []int{ss.SideOf(games.Seat0), ss.SideOf(games.Seat1)}
	}
	if ms, ok := s.(games.Metrics); ok {
		rec.Metrics = ms.AppendMetrics(nil)
	}
	if traced {
		if coverer != nil {
			covered |= coverer.Occupied()
			rec.Play.Covered, rec.Play.Cells = bits.OnesCount64(covered), coverer.Cells()
		}
		if hasher != nil {
			rec.Play.Positions, rec.Play.Repeats = len(w.hashes), repeats(w.hashes)
		}
	}
	return rec
}

// restrict filters w.moves, the legal moves of seat p in s, by its
// restriction f (nil: none), and counts a decision whose every move it
// forbids (the restriction is then lifted) in rec.Lifted. The moves the
// game offers stay counted in full for the branching factor.
func (w *worker) restrict(rec *Record, f *bots.Filter, s games.State, p games.Player) []games.Move {
	if f == nil {
		return w.moves
	}
	w.allowed = append(w.allowed[:0], w.moves...)
	allowed, lifted := f.Apply(s, w.allowed)
	if lifted {
		rec.Lifted++
	}
	w.allowed = allowed
	return allowed
}

// deliberation adds what bot, seat p's, said of its decision to play
// (clarity) and returns the position's value for seat 0 when its search
// gave one (bots.Valuer).
func (w *worker) deliberation(play *Play, bot bots.Bot, p games.Player) (lead float64, ok bool) {
	if d, isD := bot.(bots.Deliberator); isD {
		if near, of := d.NearBest(); of > 1 {
			play.Deliberated++
			play.Near += near
			play.Of += of
		}
	}
	if v, isV := bot.(bots.Valuer); isV {
		if lead, ok = v.RootValue(); ok && p != games.Seat0 {
			lead = -lead
		}
	}
	return lead, ok
}

// traceEntry is a lead as a trace keeps it: in hundredths, a decided
// position (a lead of bots.JudgeWin or more: a forced result) at
// ±TraceDecided.
func traceEntry(lead float64) int32 {
	if math.Abs(lead) >= bots.JudgeWin {
		return int32(math.Copysign(float64(TraceDecided), lead))
	}
	return int32(math.Round(lead * 100))
}

// repeats sorts hashes and counts those equal to another before them: the
// positions of a game that repeat an earlier one.
func repeats(hashes []uint64) int {
	slices.Sort(hashes)
	n := 0
	for k := 1; k < len(hashes); k++ {
		if hashes[k] == hashes[k-1] {
			n++
		}
	}
	return n
}

// Fingerprint hashes a game's decisions in order (FNV-1a over each move's
// 64 bits), never 0: equal sequences give equal fingerprints, and distinct
// ones collide with a chance of about one in 2^64.
func Fingerprint(moves []games.Move) uint64 {
	h := uint64(14695981039346656037)
	for _, m := range moves {
		x := uint64(m)
		for range 8 {
			h ^= x & 0xff
			h *= 1099511628211
			x >>= 8
		}
	}
	return max(h, 1)
}

// viewOf returns what seat p's bot is shown of s: s itself in games of
// perfect information; otherwise a copy with what the seat cannot see
// re-sampled from what it knows.
func (w *worker) viewOf(s games.State, p games.Player, rng *pcg.Rand) games.State {
	if rng == nil {
		return s
	}
	w.view.CopyFrom(s)
	w.view.(games.Determinizer).Determinize(p, rng)
	return w.view
}

func (w *worker) stopped() bool { return w.stop != nil && w.stop.Load() }

// notation writes the game's moves so far in the game's notation, replaying
// them from the start; a move that cannot be written (or applied) ends the
// list with a placeholder.
func (w *worker) notation() (out []string) {
	out = []string{}
	defer func() {
		if recover() != nil {
			out = append(out, "<unprintable>")
		}
	}()
	s := w.job.Game.NewState()
	for k, m := range w.history {
		out = append(out, s.MoveString(m))
		if k < len(w.history)-1 {
			s.Apply(m)
		}
	}
	return out
}
