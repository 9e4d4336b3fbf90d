package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"playtest/internal/bounded"
	"playtest/internal/printable"
	"playtest/internal/shell"
	"playtest/internal/strictjson"
	"playtest/reports"
	"playtest/runs/runlog"
	"playtest/sim/model"
	"playtest/studies/study"
	"playtest/variants"
)

// Kind is the study kind of a learning run kept in a directory
// (study.Manifest.Kind).
const Kind = "learn"

// StateFile holds a kept run's finished generations.
const StateFile = "learn-state.json"

// Schemas of the study's design and of StateFile.
const (
	designSchema = "playtest/learn/v1"
	stateSchema  = "playtest/learn-state/v1"
)

// unitDir is the directory study.json names for the run's one unit (the
// variant); nothing is written in it.
const unitDir = "variant"

// design is what a run's study manifest records beside its variant: the
// settings that decide its model.
type design struct {
	Schema      string  `json:"schema"`
	L2          float64 `json:"l2"`
	Generations int     `json:"generations"`
	HeadToHead  int     `json:"head_to_head"`
	Budget      int     `json:"budget"`
	Bootstrap   int     `json:"bootstrap,omitempty"`
}

// state is StateFile: the generations finished so far.
type state struct {
	Schema      string  `json:"schema"`
	Identity    string  `json:"identity"`
	Generations []entry `json:"generations"`
}

// keeper keeps a run's generations in its study directory. A nil keeper
// keeps nothing.
type keeper struct {
	dir string
	m   *study.Manifest
}

// begin starts keeping a fresh run of cfg in dir: it writes the study
// manifest, refusing a directory that holds an unfinished study, and
// removes a finished run's results.
func begin(dir string, cfg *variants.Config, opts Options) (*keeper, error) {
	d := design{Schema: designSchema, L2: opts.L2, Generations: opts.Generations, HeadToHead: opts.HeadToHead, Budget: opts.Budget, Bootstrap: opts.Bootstrap}
	m, err := study.New(Kind, cfg.Label(), opts.Command, runlog.Shard{}, []study.Unit{study.NewUnit(cfg.Label(), unitDir, cfg)}, d)
	if err != nil {
		return nil, err
	}
	if m, err = study.Begin(dir, m, false); err != nil {
		return nil, err
	}
	// A finished run's model and page, replaced: none may stand beside
	// the new run's state if it stops.
	for _, name := range []string{StateFile, ModelFile, MarkdownFile, HTMLFile, filepath.Join("plots", ReliabilityPlot+".svg"), filepath.Join("plots", ReliabilityPlot+".png")} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return &keeper{dir: dir, m: m}, nil
}

// save writes the finished generations, atomically.
func (k *keeper) save(entries []entry) error {
	if k == nil {
		return nil
	}
	return reports.WriteJSONFileAtomic(filepath.Join(k.dir, StateFile), state{Schema: stateSchema, Identity: k.m.Identity(), Generations: entries})
}

// finish marks the run's study finished.
func (k *keeper) finish() error {
	if k == nil {
		return nil
	}
	return study.Finish(k.dir, k.m)
}

// Open reads the learning run kept in dir back, to continue it from the
// directory alone: its variant, settings and finished generations. Of
// opts only the workers, the time cap and the callbacks are used.
func Open(dir string, opts Options) (*Session, error) {
	m, err := study.Read(dir)
	if err != nil {
		return nil, err
	}
	if m.Kind != Kind {
		return nil, study.BadInputf("%s holds a %s, not a learning run: resume it with playtest %s --resume --out %s", dir, m.Kind, m.Kind, shell.Quote(dir))
	}
	manifest := filepath.Join(dir, study.ManifestFile)
	var d design
	if err := json.Unmarshal(m.Design, &d); err != nil || d.Schema != designSchema || len(m.Units) != 1 || !(d.L2 >= 0) || d.Generations < 1 || d.HeadToHead < 0 || d.Budget < 0 || d.Bootstrap < 0 {
		return nil, &study.Error{Path: manifest, Err: fmt.Errorf("its learn design is not one (%v)", err)}
	}
	cfg, err := m.Units[0].Config()
	if err != nil {
		return nil, err
	}
	if err := m.CheckUnit(0, cfg.Label(), unitDir); err != nil {
		return nil, err
	}
	opts.L2, opts.Generations, opts.HeadToHead, opts.Budget, opts.Bootstrap, opts.Out, opts.Command = d.L2, d.Generations, d.HeadToHead, d.Budget, d.Bootstrap, "", m.Command
	s, err := New(cfg, opts)
	if err != nil {
		return nil, err
	}
	if s.entries, err = restore(dir, m, s); err != nil {
		return nil, err
	}
	if m, err = study.Begin(dir, m, true); err != nil {
		return nil, err
	}
	s.keep = &keeper{dir: dir, m: m}
	return s, nil
}

// restore reads the generations kept in dir (none if it has no state
// yet), checking each against the run it belongs to.
func restore(dir string, m *study.Manifest, s *Session) ([]entry, error) {
	path := filepath.Join(dir, StateFile)
	b, err := bounded.ReadFile(path, 256<<20)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &study.Error{Path: path, Err: err} // a directory, a file too large or unreadable
	}
	var st state
	switch err := strictjson.Unmarshal(b, &st); {
	case err != nil:
		return nil, &study.Error{Path: path, Err: err}
	case st.Schema != stateSchema || st.Identity != m.Identity():
		return nil, &study.Error{Path: path, Err: fmt.Errorf("not the state of the run in %s (schema %q, identity %s)", study.ManifestFile, st.Schema, st.Identity)}
	case len(st.Generations) > s.opts.Generations:
		return nil, &study.Error{Path: path, Err: fmt.Errorf("changed or damaged: %d generations of at most %d", len(st.Generations), s.opts.Generations)}
	}
	for i, e := range st.Generations {
		if err := s.checkEntry(i+1, &e); err != nil {
			return nil, &study.Error{Path: path, Err: fmt.Errorf("changed or damaged: generation %d: %w", i+1, err)}
		}
	}
	return st.Generations, nil
}

// checkEntry tests a generation read back: its index, its model against
// the game's features, its figures finite and its games what the run
// plays.
func (s *Session) checkEntry(k int, e *entry) error {
	f, g := e.Fit, e.Generation
	switch {
	case g.Index != k:
		return fmt.Errorf("numbered %d", g.Index)
	case f == nil || f.Model == nil:
		return fmt.Errorf("no model")
	case !slices.Equal(f.Model.Features, s.features) || len(f.Model.Weights) != len(f.Model.Features):
		return fmt.Errorf("its model's features are not the game's")
	case f.Model.Schema != model.Schema:
		return fmt.Errorf("its model's schema is %q", printable.Cut(f.Model.Schema, 100))
	case f.Model.Game != "" && f.Model.Game != s.job.Game.Name():
		return fmt.Errorf("its model is of the game %q, not %s", printable.Cut(f.Model.Game, 100), s.job.Game.Name())
	case f.Games != s.job.Games || e.Games != f.Games+h2hGames(g.HeadToHead):
		return fmt.Errorf("%d games, not the run's %d", e.Games, s.job.Games)
	case f.Train < 0 || f.HeldOut < 0 || g.Positions != f.Train+f.HeldOut || g.Learned != f.Learned:
		return fmt.Errorf("its figures disagree")
	}
	if err := f.Model.CheckWeights(); err != nil {
		return fmt.Errorf("its model: %w", err)
	}
	for _, sc := range []Scores{f.Learned, f.Hand, f.Constant} {
		if !(sc.LogLoss >= 0 && sc.LogLoss < 1e3 && sc.Brier >= 0 && sc.Brier <= 1) {
			return fmt.Errorf("a score that is not one (log-loss %v, Brier %v)", sc.LogLoss, sc.Brier)
		}
	}
	if err := checkReliability(f.Reliability, f.HeldOut); err != nil {
		return err
	}
	if d := f.VersusHand; !(d.Low <= d.Mean && d.Mean <= d.High) || math.IsInf(d.Low, 0) || math.IsInf(d.High, 0) || d.Deals < 0 {
		return fmt.Errorf("versus_hand: %v [%v, %v] over %d deals is not a difference with its interval", d.Mean, d.Low, d.High, d.Deals)
	}
	if n := len(f.Intervals); n != 0 && n != 1+len(f.Model.Weights) {
		return fmt.Errorf("%d weight intervals for %d weights and the bias", n, len(f.Model.Weights))
	}
	for i, iv := range f.Intervals {
		if !(iv.Low <= iv.High) || math.IsInf(iv.Low, 0) || math.IsInf(iv.High, 0) {
			return fmt.Errorf("intervals[%d]: [%v, %v] is not an interval", i, iv.Low, iv.High)
		}
	}
	if h := g.HeadToHead; h != nil && (h.Games <= 0 || !(h.Low <= h.Score && h.Score <= h.High) || h.Beats != (h.Low > 0.5)) {
		return fmt.Errorf("its head-to-head disagrees with itself")
	}
	return nil
}

// checkReliability tests a reliability table read back: bins of
// probabilities in order within [0, 1], each's predicted and observed
// means within it and [0, 1], its gap within its interval over no more
// deals than positions, and no more positions than were held out.
func checkReliability(bins []Bin, heldOut int) error {
	total, last := 0, 0.0
	for i, b := range bins {
		ok := b.Low >= last && b.Low < b.High && b.High <= 1 && b.N >= 0 &&
			b.Predicted >= 0 && b.Predicted <= 1 && b.Observed >= 0 && b.Observed <= 1
		if !ok {
			return fmt.Errorf("reliability[%d]: [%v, %v), %d positions, predicted %v, observed %v is not a row of the table", i, b.Low, b.High, b.N, b.Predicted, b.Observed)
		}
		const eps = 1e-9 // the gap is summed one way and its interval another
		if b.Deals < 0 || b.Deals > b.N || b.Deals > 0 && !(b.GapLow <= b.Gap()+eps && b.Gap() <= b.GapHigh+eps) {
			return fmt.Errorf("reliability[%d]: a gap of %v [%v, %v] over %d deals of %d positions is not a difference with its interval", i, b.Gap(), b.GapLow, b.GapHigh, b.Deals, b.N)
		}
		total += b.N
		last = b.High
	}
	if total > heldOut {
		return fmt.Errorf("the reliability table counts %d positions of %d held out", total, heldOut)
	}
	return nil
}

// h2hGames is a head-to-head's games (0 for none).
func h2hGames(h *HeadToHead) int {
	if h == nil {
		return 0
	}
	return h.Games
}
