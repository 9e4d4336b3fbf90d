package learn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"playtest/games"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/sim/bots"
	"playtest/sim/model"
	"playtest/variants"
)

// ModelFile is the model a learn --out directory holds.
const ModelFile = "model.json"

// Training is what model.json's training section records: how the model
// was learned (the variant's bots, games and seed; the positions; the
// penalty) and how it predicts held-out deals. Nothing in it depends on
// the clock or the number of workers.
type Training struct {
	Variant    string  `json:"variant"`
	Bots       string  `json:"bots"`
	Games      int     `json:"games"`
	Seed       uint64  `json:"seed"`
	Pairs      bool    `json:"pairs"`
	Positions  int     `json:"positions"`
	HeldOut    int     `json:"held_out"`
	NotQuiet   int     `json:"not_quiet,omitempty"`
	L2         float64 `json:"l2"`
	Iterations int     `json:"iterations"`
	// Learned, Hand and Constant score the learned model, the hand
	// heuristic through its best logistic and the training mean on the
	// held-out positions (every HeldEvery-th deal).
	Learned     Scores `json:"learned"`
	Hand        Scores `json:"hand"`
	Constant    Scores `json:"constant"`
	Reliability []Bin  `json:"reliability"`
}

// Options tune a learning run.
type Options struct {
	Workers int
	L2      float64
	// OnGame, if set, sees every finished game.
	OnGame func()
}

// Run plays cfg's games with its bots and learns its model: the result
// carries the model (with its training section) and its fit.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Fit, *Training, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	f, ok := job.Game.(games.Featurer)
	if !ok {
		return nil, nil, fmt.Errorf("%s names no features: nothing to learn from", cfg.Definition.Name)
	}
	d, err := Collect(ctx, *job, opts.Workers, opts.OnGame)
	if err != nil {
		return nil, nil, err
	}
	fit, err := Learn(d, f.HandWeights(), opts.L2)
	if err != nil {
		return nil, nil, err
	}
	m := fit.Model
	m.Game = cfg.Definition.Name
	m.RulesHash = model.RulesHash(cfg.Definition.Name, cfg.Rules)
	if m.Rules, err = json.Marshal(cfg.Rules); err != nil {
		return nil, nil, err
	}
	tr := &Training{Variant: cfg.Label(), Bots: bots.DescribePlayers(cfg.Players), Games: d.Games, Seed: cfg.Seed, Pairs: cfg.Pairs,
		Positions: fit.Train + fit.HeldOut, HeldOut: fit.HeldOut, NotQuiet: d.Skipped, L2: opts.L2, Iterations: fit.Iterations,
		Learned: fit.Learned, Hand: fit.Hand, Constant: fit.Constant, Reliability: fit.Reliability}
	if m.Training, err = json.Marshal(tr); err != nil {
		return nil, nil, err
	}
	return fit, tr, nil
}

// WriteText prints the learned model: how it predicts held-out deals
// against the hand heuristic and the constant, its reliability, and the
// weights that matter most.
func WriteText(w io.Writer, m *model.Model, tr *Training) error {
	fmt.Fprintf(w, "%s: a model of %d features from %s positions of %s games (%s; seed %d), %s of them held out (one deal in %d)\n",
		tr.Variant, len(m.Features), bots.Thousands(tr.Positions), bots.Thousands(tr.Games), tr.Bots, tr.Seed, bots.Thousands(tr.HeldOut), HeldEvery)
	if tr.NotQuiet > 0 {
		fmt.Fprintf(w, "%s positions left out as not quiet (a forcing move pending)\n", bots.Thousands(tr.NotQuiet))
	}
	t := reports.NewTable(w, "predictor (held out)", "log-loss", "Brier")
	for _, row := range []struct {
		name string
		s    Scores
	}{{"learned model", tr.Learned}, {"hand heuristic, best logistic", tr.Hand}, {"constant (the training mean)", tr.Constant}} {
		_ = t.Append(row.name, fmt.Sprintf("%.4f", row.s.LogLoss), fmt.Sprintf("%.4f", row.s.Brier))
	}
	if err := t.Render(); err != nil {
		return err
	}
	rel := reports.NewTable(w, "predicted", "positions", "mean predicted", "mean result")
	for _, b := range tr.Reliability {
		if b.N > 0 {
			_ = rel.Append(fmt.Sprintf("%.0f–%.0f%%", 100*b.Low, 100*b.High), bots.Thousands(b.N), reports.FormatPercent(b.Predicted), reports.FormatPercent(b.Observed))
		}
	}
	if err := rel.Render(); err != nil {
		return err
	}
	wt := reports.NewTable(w, "feature", "weight (logit)", "in hand units")
	for i, name := range m.Features {
		_ = wt.Append(name, fmt.Sprintf("%+.4f", m.Weights[i]), fmt.Sprintf("%+.4f", m.Weights[i]/m.HandScale))
	}
	_ = wt.Append("(bias)", fmt.Sprintf("%+.4f", m.Bias), fmt.Sprintf("%+.4f", m.Bias/m.HandScale))
	if err := wt.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "The hand heuristic's best logistic is σ(%.4g × hand + b): the learned logit divided by %.4g is in the hand heuristic's units. These are the bots' positions and results: a model of how %s play.\n",
		m.HandScale, m.HandScale, tr.Bots)
	return err
}

// WriteDir writes the model to dir/model.json, atomically.
func WriteDir(dir string, m *model.Model) error {
	if err := reports.MkdirBelow(filepath.Dir(dir), dir); err != nil {
		return err
	}
	return reports.WriteFileAtomic(filepath.Join(dir, ModelFile), m.Write)
}
