package accuracy

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"playtest/games"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/variants"
)

// Defaults of the options.
const (
	// DefaultNodes bounds each proof: the position's value, and the
	// move's (5,5,4's start takes about 3 million positions).
	DefaultNodes = 50_000_000
	// DefaultTableMB is each worker's prover table.
	DefaultTableMB = 256
)

// Options say which games to judge and how.
type Options struct {
	// Games is how many of the variant's games, from index 0, are played
	// and judged (0: the variant's games:).
	Games int
	// MinPlies judges only the decisions taken with at least this many
	// plies played (positions nearer the start can be too slow to prove:
	// Connect Four 7 × 6 below 8 stones).
	MinPlies int
	// Nodes bounds each proof in positions (0: DefaultNodes); a decision
	// whose proof passes it is counted unproven.
	Nodes int64
	// TableMB is each worker's prover table in MiB (0: DefaultTableMB).
	TableMB int
	// Workers is how many games are judged at once (0: all cores).
	Workers int
	// Done are games already judged (a resumed study): they are not
	// played or judged again.
	Done []*Game
	// OnGame, if set, sees each newly judged game, in index order (a
	// study's log).
	OnGame func(*Game) error
	// Progress, if set, is told the games judged so far and how many.
	Progress func(done, total int)
}

// UnprovableError says why a variant's decisions cannot be judged.
type UnprovableError struct{ Message string }

func (e *UnprovableError) Error() string { return e.Message }

// BadInput marks the refusal as the user's choice of variant.
func (e *UnprovableError) BadInput() bool { return true }

// Check refuses a variant whose positions the prover cannot judge:
// chance, hidden information, no exact keys, or rules that end games by
// their history (a repetition rule or a move cap, which a proof does not
// see).
func Check(cfg *variants.Config) error {
	sr, ok := cfg.Rules.(games.SolverRules)
	if !ok {
		return &UnprovableError{fmt.Sprintf("%s cannot be judged against perfect play: only games of perfect information without chance can be proven", cfg.Definition.Title)}
	}
	if games.SetsAside(cfg.Rules, sr) {
		return &UnprovableError{"a proof does not see this variant's repetition rule or move cap, so its perfect play is not defined: judge a variant without them"}
	}
	g, err := cfg.NewGame()
	if err != nil {
		return err
	}
	if !games.Provable(g.NewState()) {
		return &UnprovableError{fmt.Sprintf("%s cannot be judged against perfect play: its positions have no exact keys, or it hides information", cfg.Definition.Title)}
	}
	return nil
}

// Run plays the variant's games [0, opts.Games) not in opts.Done and
// judges every decision of theirs, then sums all of them up.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Result, error) {
	if err := Check(cfg); err != nil {
		return nil, err
	}
	if opts.Games <= 0 {
		opts.Games = cfg.Games
	}
	if opts.Games > cfg.Games {
		c, err := cfg.With(variants.Override{Path: "games", Value: fmt.Sprint(opts.Games), Origin: "--games"})
		if err != nil {
			return nil, err
		}
		cfg = c
	}
	if opts.Nodes <= 0 {
		opts.Nodes = DefaultNodes
	}
	if opts.TableMB <= 0 {
		opts.TableMB = DefaultTableMB
	}
	judged := make([]*Game, opts.Games)
	for _, g := range opts.Done {
		if g.Index >= 0 && g.Index < opts.Games {
			judged[g.Index] = g
		}
	}
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, err
	}
	// The games not judged yet, played (on opts.Workers) from the first
	// of them: each game depends on the seed and its index alone.
	from := 0
	for from < opts.Games && judged[from] != nil {
		from++
	}
	job.Moves, job.Trace = true, 0
	job.Sliced, job.From, job.To = true, from, opts.Games
	var todo []*sim.Record
	err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if judged[r.Index] == nil {
			todo = append(todo, r)
		}
	})
	if err != nil {
		return nil, err
	}
	if err := judgeAll(ctx, job.Game, cfg, &opts, todo, judged); err != nil {
		return nil, err
	}
	return summarize(cfg, &opts, judged), nil
}

// judgeAll judges the records on opts.Workers workers, each with its own
// prover, and hands them to opts.OnGame in index order.
func judgeAll(ctx context.Context, g games.Game, cfg *variants.Config, opts *Options, todo []*sim.Record, judged []*Game) error {
	workers := opts.Workers
	if workers <= 0 {
		workers = sim.DefaultWorkers()
	}
	workers = max(1, min(workers, len(todo)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make([]*Game, len(todo))
	ready := make([]chan struct{}, len(todo))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j, err := newJudge(ctx, g, opts, cfg.Players, len(cfg.OpeningMoves))
			if err != nil {
				errs[w] = err
				cancel()
				return
			}
			defer j.se.Close()
			for i := range jobs {
				results[i], err = j.game(ctx, g, todo[i])
				close(ready[i])
				if err != nil {
					errs[w] = err
					cancel()
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range todo {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	done := len(judged) - len(todo)
	var failed error
	for i := range todo {
		select {
		case <-ready[i]:
		case <-ctx.Done():
			// Stopped: a worker may still be writing results[i].
		}
		if ctx.Err() != nil || results[i] == nil {
			break
		}
		judged[todo[i].Index] = results[i]
		if opts.OnGame != nil && failed == nil {
			if failed = opts.OnGame(results[i]); failed != nil {
				cancel()
			}
		}
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(judged))
		}
	}
	cancel()
	wg.Wait()
	if failed != nil {
		return failed
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	if hasNil(judged) {
		return context.Canceled // a signal stopped the study
	}
	return nil
}

func hasNil(gs []*Game) bool {
	for _, g := range gs {
		if g == nil {
			return true
		}
	}
	return false
}
