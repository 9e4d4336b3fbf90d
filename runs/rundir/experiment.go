package rundir

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"playtest/games"
	"playtest/games/prove"
	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// Options tune a run.
type Options struct {
	// Workers is the number of worker goroutines (0: all cores).
	Workers int
	// OnRecord, if set, sees every finished game in index order.
	OnRecord func(*sim.Record)
	// Unproven leaves the variant's value unproven (no Summary.Proven):
	// a probe wants the metrics' names, not the proof's seconds.
	Unproven bool
}

// Job turns a variant into a runner job.
func Job(cfg *variants.Config) (*sim.Job, error) {
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	book, err := cfg.OpeningBook()
	if err != nil {
		return nil, err
	}
	return &sim.Job{Game: g, Players: cfg.Players, Games: cfg.Games, Seed: cfg.Seed, Pairs: cfg.Pairs, Trace: sim.TraceCount(cfg.Players, cfg.Games), StaticTrace: sim.StaticTrace(cfg.Players), Book: book, Opening: cfg.OpeningMoves}, nil
}

// Info describes a variant's run for its summary.
func Info(cfg *variants.Config, g games.Game) reports.RunInfo {
	info := reports.RunInfo{
		Source: cfg.Source, Game: cfg.Definition.Name, Variant: cfg.Name, ConfigHash: cfg.Hash(),
		RuleChanges: cfg.RuleChanges(), Rerun: cfg.StartArgs(),
		Seed: cfg.Seed, Pairs: cfg.Pairs, Book: cfg.Book, BookBot: cfg.DescribeBookBot(), Opening: cfg.Opening, Rules: cfg.Rules, Players: cfg.Players,
		Describe: cfg.Definition.Describe,
	}
	if len(info.RuleChanges) > 0 {
		info.Label = variants.LabelOf(cfg.Name, info.RuleChanges)
	}
	if sided, ok := g.(games.Sided); ok {
		info.Sides = sided.Sides()
	}
	if r, ok := g.(games.Reasoner); ok {
		info.Reasons = r.Reasons()
	}
	info.MaxLegalMoves = g.MaxLegalMoves()
	if m := sim.TraceModel(cfg.Players); m != nil {
		mapping := howplays.FromModel(m)
		info.TraceMapping = &mapping
	}
	_, info.Hidden = g.NewState().(games.Determinizer)
	info.Prove = func(depth int) (*games.Proof, bool) { return prove.Within(g.NewState(), depth) }
	info.Replay = func(moves []string) (games.Result, int, error) { return replayResult(g, moves) }
	if sr, ok := cfg.Rules.(games.SolverRules); ok && !games.SetsAside(cfg.Rules, sr) {
		info.Settle = func() *reports.ProvenStart { return settle(cfg, g) }
	}
	return info
}

// settled caches the variants' proven values by game, rules and opening:
// a sweep or a test summarises one variant many times, and each proof may
// search up to games.ProofNodes positions (a second or two).
var settled sync.Map // string → *reports.ProvenStart (nil: not settled)

// settle proves the value of the variant's start (after its opening)
// within prove.QuickLimit positions, once per process.
func settle(cfg *variants.Config, g games.Game) *reports.ProvenStart {
	rules, err := json.Marshal(cfg.Rules)
	if err != nil {
		return nil
	}
	key := cfg.Definition.Name + "\x00" + string(rules) + "\x00" + strings.Join(cfg.Opening, " ")
	if p, ok := settled.Load(key); ok {
		return p.(*reports.ProvenStart)
	}
	var p *reports.ProvenStart
	s := cfg.OpeningState(g)
	if v, n, ok := prove.Settle(s); ok {
		winner := s.CurrentPlayer()
		if v.Outcome < 0 {
			winner = winner.Opponent()
		}
		p = reports.NewProvenStart(winner, v.Outcome == 0, n)
	}
	settled.Store(key, p)
	return p
}

// Run plays the variant and returns its summary. On cancellation it returns
// the summary of the games finished so far together with ctx's error.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*reports.Summary, error) {
	job, err := Job(cfg)
	if err != nil {
		return nil, err
	}
	info := Info(cfg, job.Game)
	if opts.Unproven {
		info.Settle = nil
	}
	agg := reports.NewAggregator(info)
	plies := 0
	start := time.Now()
	err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		agg.Add(r)
		plies += r.Plies
		if opts.OnRecord != nil {
			opts.OnRecord(r)
		}
	})
	return agg.Summary(timing(opts.Workers, time.Since(start), agg.Games(), plies)), err
}

// Probe plays a few quick games of the variant with random bots and returns
// their summary: enough to learn which metrics the variant's game reports
// before a long run is started.
func Probe(cfg *variants.Config) (*reports.Summary, error) {
	probe := *cfg
	probe.Games, probe.Pairs, probe.Book = 20, true, 0 // a book's proofs change no metric's name
	random := bots.Spec{Bot: "random"}
	probe.Players = [games.NumSeats]bots.Spec{random, random}
	return Run(context.Background(), &probe, Options{Workers: 1, Unproven: true})
}

// replayResult plays a game's recorded entries from the start and returns
// how it ended.
func replayResult(g games.Game, moves []string) (games.Result, int, error) {
	s := g.NewState()
	for k, text := range moves {
		if s.IsTerminal() {
			return games.Result{}, 0, fmt.Errorf("entry %d %q comes after the end", k+1, text)
		}
		m, err := s.ParseMove(text)
		if err != nil {
			return games.Result{}, 0, fmt.Errorf("entry %d %q: %v", k+1, text, err)
		}
		s.Apply(m)
	}
	if !s.IsTerminal() {
		return games.Result{}, 0, fmt.Errorf("the %d entries stop before the game ends", len(moves))
	}
	return s.Result(), s.Plies(), nil
}
