package learn

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"playtest/games"
	"playtest/reports"
	"playtest/reports/plots"
	"playtest/reports/publish"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/sim"
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
	// Generations are every generation learned, the kept one last but
	// for one that stopped the run; Stopped says why it ended.
	Generations []Generation `json:"generations"`
	Stopped     string       `json:"stopped"`
}

// Options tune a learning run.
type Options struct {
	Workers int
	L2      float64
	// Generations is the most generations to learn (1 if 0): generation 1
	// learns from the variant's bots' games, generation k+1 from the games
	// of the same bots playing generation k's model.
	Generations int
	// HeadToHead is the games each head-to-head plays (the variant's
	// games if 0).
	HeadToHead int
	// OnGame, if set, sees every finished game.
	OnGame func()
}

// Generation is one generation of a learning run: the model it learned
// from the games of the generation before's bots, how it predicts their
// held-out deals, and how its bots did against those bots on the same
// seeds.
type Generation struct {
	Index int `json:"generation"`
	// Bots says who played the games it learned from.
	Bots      string `json:"bots"`
	Positions int    `json:"positions"`
	HeldOut   int    `json:"held_out"`
	Learned   Scores `json:"learned"`
	Hand      Scores `json:"hand"`
	Constant  Scores `json:"constant"`
	// HeadToHead is its model's bots against the bots that played its
	// games (nil when the bots cannot play a model).
	HeadToHead *HeadToHead `json:"head_to_head,omitempty"`
}

// HeadToHead is a generation's bots' score against the generation
// before's, over seat-swapped pairs on common seeds, with its 95%
// interval; Beats says the interval lies above ½.
type HeadToHead struct {
	Games int     `json:"games"`
	Score float64 `json:"score"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Beats bool    `json:"beats"`
}

// Run plays cfg's games with its bots and learns its model, generation by
// generation while the held-out log-loss improves and each generation's
// bots beat the one before's: the result is the last generation kept, its
// model carrying the training record.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Fit, *Training, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	f, ok := job.Game.(games.Featurer)
	if !ok {
		return nil, nil, fmt.Errorf("%s names no features: nothing to learn from", cfg.Definition.Name)
	}
	tr := &Training{Variant: cfg.Label(), Bots: bots.DescribePlayers(cfg.Players), Seed: cfg.Seed, Pairs: cfg.Pairs, L2: opts.L2}
	var best *Fit
	var bestData *Data
	players := cfg.Players
	who := "the variant's bots (hand heuristic)"
	for k := 1; k <= max(opts.Generations, 1); k++ {
		gjob := *job
		gjob.Players = players
		d, err := Collect(ctx, gjob, opts.Workers, opts.OnGame)
		if err != nil {
			return nil, nil, err
		}
		fit, err := Learn(d, f.HandWeights(), opts.L2)
		if err != nil {
			return nil, nil, err
		}
		gen := Generation{Index: k, Bots: who, Positions: fit.Train + fit.HeldOut, HeldOut: fit.HeldOut, Learned: fit.Learned, Hand: fit.Hand, Constant: fit.Constant}
		if best != nil && !(fit.Learned.LogLoss < best.Learned.LogLoss) {
			tr.Generations = append(tr.Generations, gen)
			tr.Stopped = fmt.Sprintf("generation %d's held-out log-loss (%.4f) did not improve on generation %d's (%.4f)", k, fit.Learned.LogLoss, k-1, best.Learned.LogLoss)
			break
		}
		if max(opts.Generations, 1) == 1 {
			// One generation asked for: no head-to-head to play.
			tr.Generations = append(tr.Generations, gen)
			best, bestData = fit, d
			tr.Stopped = "one generation, as asked (--generations 2 or more plays each against the evaluation before)"
			break
		}
		learned, ok := withModel(players, fit.Model, k)
		if !ok {
			tr.Generations = append(tr.Generations, gen)
			best, bestData = fit, d
			tr.Stopped = "the variant's bots cannot play a learned model (alphabeta, mcts, ismcts and greedy can; random cannot): one generation"
			break
		}
		h, err := headToHead(ctx, *job, learned, players, opts, k)
		if err != nil {
			return nil, nil, err
		}
		gen.HeadToHead = h
		tr.Generations = append(tr.Generations, gen)
		if best != nil && !h.Beats {
			tr.Stopped = fmt.Sprintf("generation %d's bots are not shown stronger than generation %d's (%.1f%% [%.1f, %.1f] over %d games)", k, k-1, 100*h.Score, 100*h.Low, 100*h.High, h.Games)
			break
		}
		best, bestData = fit, d
		players, who = learned, fmt.Sprintf("the variant's bots playing generation %d's model", k)
		if k == 1 && !h.Beats {
			tr.Stopped = fmt.Sprintf("generation 1's bots are not shown stronger than the hand heuristic's (%.1f%% [%.1f, %.1f] over %d games): its model is kept for its calibration", 100*h.Score, 100*h.Low, 100*h.High, h.Games)
			break
		}
	}
	if tr.Stopped == "" {
		tr.Stopped = fmt.Sprintf("the %s asked for played", reports.Count(len(tr.Generations), "generation"))
	}
	m := best.Model
	m.Game = cfg.Definition.Name
	m.RulesHash = model.RulesHash(cfg.Definition.Name, cfg.Rules)
	if m.Rules, err = json.Marshal(cfg.Rules); err != nil {
		return nil, nil, err
	}
	tr.Games, tr.Positions, tr.HeldOut, tr.NotQuiet = bestData.Games, best.Train+best.HeldOut, best.HeldOut, bestData.Skipped
	tr.Iterations, tr.Learned, tr.Hand, tr.Constant, tr.Reliability = best.Iterations, best.Learned, best.Hand, best.Constant, best.Reliability
	if m.Training, err = json.Marshal(tr); err != nil {
		return nil, nil, err
	}
	return best, tr, nil
}

// withModel gives each player the model m of generation k, when every
// player's bot can play one.
func withModel(players [2]bots.Spec, m *model.Model, k int) ([2]bots.Spec, bool) {
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return players, false
	}
	sum := sha256.Sum256(b.Bytes())
	var out [2]bots.Spec
	for i, p := range players {
		var ok bool
		if out[i], ok = p.WithModel(m, fmt.Sprintf("(generation %d)", k), hex.EncodeToString(sum[:])); !ok {
			return players, false
		}
	}
	return out, true
}

// headToHead plays the new players' seat-0 bot against the old players'
// (seat-swapped pairs, on a seed of the generation's own) and returns the
// new one's score.
func headToHead(ctx context.Context, job sim.Job, newer, older [2]bots.Spec, opts Options, k int) (*HeadToHead, error) {
	job.Players = [2]bots.Spec{newer[0], older[0]}
	job.Pairs = true
	job.Games = cmp.Or(opts.HeadToHead, job.Games)
	job.Games += job.Games % 2
	job.Seed ^= uint64(k) * 0x9e3779b97f4a7c15
	var pairs stats.PairSeries
	var failed error
	err := sim.Run(ctx, &job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if opts.OnGame != nil {
			opts.OnGame()
		}
		if r.Err != nil {
			failed = cmp.Or(failed, error(r.Err))
			return
		}
		// Player 0 (the newer bot) sits in seat 0, or seat 1 when swapped.
		seat := games.Seat0
		if r.Swapped {
			seat = games.Seat1
		}
		pairs.Add(r.Index, r.Result.ScoreFor(seat))
	})
	if err = cmp.Or(err, failed); err != nil {
		return nil, err
	}
	ps := pairs.Score(stats.Z95)
	return &HeadToHead{Games: job.Games, Score: ps.Score, Low: ps.CI.Low, High: ps.CI.High, Beats: ps.CI.Low > 0.5}, nil
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
	if len(tr.Generations) > 1 || tr.Generations[0].HeadToHead != nil {
		gt := reports.NewTable(w, "generation", "learned from", "positions", "held-out log-loss", "against the generation before (95% CI)")
		for _, g := range tr.Generations {
			h2h := "—"
			if h := g.HeadToHead; h != nil {
				h2h = fmt.Sprintf("%s (%s) over %s games", reports.FormatPercent(h.Score), reports.FormatInterval(h.Low, h.High), bots.Thousands(h.Games))
			}
			_ = gt.Append(fmt.Sprint(g.Index), g.Bots, bots.Thousands(g.Positions), fmt.Sprintf("%.4f", g.Learned.LogLoss), h2h)
		}
		if err := gt.Render(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "Stopped: %s.\n", tr.Stopped)
	_, err := fmt.Fprintf(w, "The hand heuristic's best logistic is σ(%.4g × hand + b): the learned logit divided by %.4g is in the hand heuristic's units. These are the bots' positions and results: a model of how %s play.\n",
		m.HandScale, m.HandScale, tr.Bots)
	return err
}

// Files a learn --out directory holds beside model.json.
const (
	MarkdownFile    = "learn.md"
	HTMLFile        = "learn.html"
	ReliabilityPlot = "reliability"
)

// WriteMarkdown writes the learned model as a page: how it predicts
// held-out deals, its reliability (with the plot when figure), its
// generations and its weights.
func WriteMarkdown(w io.Writer, m *model.Model, tr *Training, figure bool) error {
	esc := reports.MarkdownEscape
	fmt.Fprintf(w, "# playtest learn: %s (%s)\n\n", esc(tr.Variant), esc(m.Game))
	fmt.Fprintf(w, "A model of %d features from %s positions of %s games (%s; seed %d), %s of them held out (one deal in %d); %s.\n\n",
		len(m.Features), bots.Thousands(tr.Positions), bots.Thousands(tr.Games), esc(tr.Bots), tr.Seed, bots.Thousands(tr.HeldOut), HeldEvery, esc(tr.Stopped))
	rows := [][]string{
		{"learned model", fmt.Sprintf("%.4f", tr.Learned.LogLoss), fmt.Sprintf("%.4f", tr.Learned.Brier)},
		{"hand heuristic, best logistic", fmt.Sprintf("%.4f", tr.Hand.LogLoss), fmt.Sprintf("%.4f", tr.Hand.Brier)},
		{"constant (the training mean)", fmt.Sprintf("%.4f", tr.Constant.LogLoss), fmt.Sprintf("%.4f", tr.Constant.Brier)},
	}
	if err := reports.WriteMarkdownTable(w, []string{"predictor (held out)", "log-loss", "Brier"}, rows); err != nil {
		return err
	}
	fmt.Fprint(w, "\n## Reliability\n\n")
	if figure {
		fmt.Fprintf(w, "![each decile's mean result against its mean prediction](plots/%s.svg)\n\n", ReliabilityPlot)
	}
	rows = nil
	for _, b := range tr.Reliability {
		if b.N > 0 {
			rows = append(rows, []string{fmt.Sprintf("%.0f–%.0f%%", 100*b.Low, 100*b.High), bots.Thousands(b.N), reports.FormatPercent(b.Predicted), reports.FormatPercent(b.Observed)})
		}
	}
	if err := reports.WriteMarkdownTable(w, []string{"predicted", "positions", "mean predicted", "mean result"}, rows); err != nil {
		return err
	}
	fmt.Fprint(w, "\nThe positions of one game share its result, so a decile's interval (Wilson over its positions) is narrower than what is known.\n")
	if len(tr.Generations) > 1 || tr.Generations[0].HeadToHead != nil {
		fmt.Fprint(w, "\n## Generations\n\n")
		rows = nil
		for _, g := range tr.Generations {
			h2h := "—"
			if h := g.HeadToHead; h != nil {
				h2h = fmt.Sprintf("%s (%s) over %s games", reports.FormatPercent(h.Score), reports.FormatInterval(h.Low, h.High), bots.Thousands(h.Games))
			}
			rows = append(rows, []string{fmt.Sprint(g.Index), g.Bots, bots.Thousands(g.Positions), fmt.Sprintf("%.4f", g.Learned.LogLoss), h2h})
		}
		if err := reports.WriteMarkdownTable(w, []string{"generation", "learned from", "positions", "held-out log-loss", "against the generation before (95% CI)"}, rows); err != nil {
			return err
		}
	}
	fmt.Fprint(w, "\n## Weights\n\n")
	rows = nil
	for i, name := range m.Features {
		rows = append(rows, []string{name, fmt.Sprintf("%+.4f", m.Weights[i]), fmt.Sprintf("%+.4f", m.Weights[i]/m.HandScale)})
	}
	rows = append(rows, []string{"(bias)", fmt.Sprintf("%+.4f", m.Bias), fmt.Sprintf("%+.4f", m.Bias/m.HandScale)})
	if err := reports.WriteMarkdownTable(w, []string{"feature", "weight (logit)", "in hand units"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe hand heuristic's best logistic is σ(%.4g × hand + b): the learned logit divided by %.4g is in the hand heuristic's units. These are the bots' positions and results: a model of how they play.\n", m.HandScale, m.HandScale)
	return reports.WriteMarkdownFooter(w)
}

// WriteDir writes the model to dir/model.json and its page (learn.md,
// learn.html, plots/reliability.svg and .png), each atomically.
func WriteDir(dir string, m *model.Model, tr *Training) error {
	if err := reports.MkdirBelow(filepath.Dir(dir), dir); err != nil {
		return err
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, ModelFile), m.Write); err != nil {
		return err
	}
	var predicted []float64
	var observed []reports.MetricEstimate
	for _, b := range tr.Reliability {
		iv := stats.WilsonMean(b.Observed, b.N, stats.Z95)
		predicted = append(predicted, b.Predicted)
		observed = append(observed, reports.MetricEstimate{Value: b.Observed, Low: iv.Low, High: iv.High, N: b.N})
	}
	p, err := plots.Reliability(fmt.Sprintf("%s: held-out reliability, %s positions", tr.Variant, bots.Thousands(tr.HeldOut)), predicted, observed)
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(dir, filepath.Join(dir, "plots")); err != nil {
		return err
	}
	if err := plots.Save(filepath.Join(dir, "plots"), plots.Figure{Name: ReliabilityPlot, Plot: p}); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, m, tr, true); err != nil {
		return err
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, MarkdownFile), func(w io.Writer) error { _, err := w.Write(md.Bytes()); return err }); err != nil {
		return err
	}
	return reports.WriteFileAtomic(filepath.Join(dir, HTMLFile), func(w io.Writer) error {
		return publish.WriteMarkdownPage(w, "playtest learn: "+tr.Variant, dir, md.Bytes())
	})
}
