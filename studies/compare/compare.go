package compare

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"playtest/internal/knobs"
	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/studies/learn"
	"playtest/variants"
)

// SchemaV1 is the schema tag of a comparison's JSON.
const SchemaV1 = "playtest/compare/v2"

// DefaultMetric is the per-game value compared when none is named.
const DefaultMetric = "seat0_score"

// Hypotheses are a sequential test's two hypotheses on the difference A − B
// of the metric's mean per game, with its error rates: α of accepting H1
// when H0 holds, β of accepting H0 when H1 holds.
type Hypotheses struct {
	Delta0 float64 `json:"delta0"`
	Delta1 float64 `json:"delta1"`
	Alpha  float64 `json:"alpha"`
	Beta   float64 `json:"beta"`
	// Model is ModelLogistic (the hypotheses on the mean, as Δ or logistic
	// Elo) or ModelNormalized (on normalized Elo, Elo0 and Elo1).
	Model string `json:"model"`
	// Elo0 and Elo1 are the hypotheses as given in Elo, if they were.
	Elo0 *float64 `json:"elo0,omitempty"`
	Elo1 *float64 `json:"elo1,omitempty"`
}

// Models of the sequential test.
const (
	ModelLogistic   = "logistic"
	ModelNormalized = "normalized"
)

// test is the GSPRT the hypotheses make on pairs (A's game, B's game): a
// pair scores A's value plus 1 − B's, so its mean per game is ½ + Δ/2.
func (h Hypotheses) test() stats.SPRT {
	if h.Model == ModelNormalized {
		return stats.SPRT{Normalized: true, T0: stats.NormalizedT(*h.Elo0), T1: stats.NormalizedT(*h.Elo1), Alpha: h.Alpha, Beta: h.Beta}
	}
	return stats.SPRT{S0: 0.5 + h.Delta0/2, S1: 0.5 + h.Delta1/2, Alpha: h.Alpha, Beta: h.Beta}
}

// String states the hypotheses: "H0: Δ = 0 vs H1: Δ = 0.1" or, in Elo,
// "H0: nElo = 0 vs H1: nElo = 5 (normalized)".
func (h Hypotheses) String() string {
	switch {
	case h.Model == ModelNormalized:
		return fmt.Sprintf("H0: nElo = %g vs H1: nElo = %g (normalized Elo)", *h.Elo0, *h.Elo1)
	case h.Elo0 != nil:
		return fmt.Sprintf("H0: Elo = %g vs H1: Elo = %g (logistic; Δ = %.4g vs %.4g)", *h.Elo0, *h.Elo1, h.Delta0, h.Delta1)
	}
	return fmt.Sprintf("H0: Δ = %g vs H1: Δ = %g", h.Delta0, h.Delta1)
}

// Validate checks the hypotheses.
func (h Hypotheses) Validate() error {
	if h.Model == ModelNormalized {
		if h.Elo0 == nil || h.Elo1 == nil || !(*h.Elo0 < *h.Elo1) {
			return fmt.Errorf("want elo0 < elo1 in normalized Elo")
		}
		return h.test().Validate()
	}
	if !(h.Delta0 < h.Delta1) || h.Delta0 <= -1 || h.Delta1 >= 1 {
		return fmt.Errorf("want -1 < delta0 < delta1 < 1, got delta0 %g and delta1 %g", h.Delta0, h.Delta1)
	}
	return h.test().Validate()
}

// Options tune a comparison.
type Options struct {
	// Workers is the number of worker goroutines in all (0: all cores).
	Workers int
	// Metric is the per-game value compared (DefaultMetric if empty).
	Metric string
	// SPRT, if set, runs a sequential test and stops when it decides.
	SPRT *Hypotheses
	// OnGame, if set, is called after each compared pair of games (A's and
	// B's on one seed) with the games compared so far and, with a
	// sequential test, where the test stands (nil without one).
	OnGame func(games int, test *Standing)
	// Out, if set and without a sequential test, keeps the comparison as
	// a study (package study): A's and B's runs under a/ and b/, and
	// study.json.
	Out string
	// Resume continues the comparison kept in Out.
	Resume bool
	// Shard, with Out, plays that slice of A's and B's games: the result
	// comes from playtest merge.
	Shard runlog.Shard
	// Command is the command line that started the comparison, recorded
	// in Out's study manifest.
	Command string
	// Learn, if above 0, gives each side's bots a model learned from that
	// many games of its own variant (learn.ForVariant) before the
	// comparison plays; with Out the models are kept under models/.
	Learn int
	// OnLearn, if set, is called before a side's model is learned, with
	// the side's variant.
	OnLearn func(variant string)
}

// Standing is where a sequential test stands after some games of each
// variant: the pair counts, the score of a pair per game (½ + Δ/2) with its
// interval and Elo, the difference Δ = 2·score − 1 with its interval, the
// LLR with its bounds, and whether the test stops here (Final: decided, or
// the last game).
type Standing struct {
	Games        int
	Pairs        stats.PairScore
	Delta        stats.Interval
	DeltaValue   float64
	LLR          float64
	Lower, Upper float64
	Final        bool
}

// Side is one variant's results.
type Side struct {
	Variant string `json:"variant"`
	// Label names the variant with what --set (or --set-a, --set-b)
	// changed in its rules.
	Label      string           `json:"label,omitempty"`
	Source     string           `json:"source"`
	ConfigHash string           `json:"config_hash"`
	Summary    *reports.Summary `json:"summary"`
	// Mean is the metric's mean per game over the compared games.
	Mean float64 `json:"mean"`
}

// SPRTResult is where the sequential test stopped.
type SPRTResult struct {
	Hypotheses
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower_bound"`
	Upper    float64 `json:"upper_bound"`
	Decision string  `json:"decision"`
	decision stats.SPRTDecision
}

// Result is a finished comparison.
type Result struct {
	Schema string `json:"schema"`
	Game   string `json:"game"`
	Seed   uint64 `json:"seed"`
	// Requested is the number of games per variant asked for; Games the
	// number played (fewer when the sequential test stopped early).
	Requested int    `json:"games_requested"`
	Games     int    `json:"games"`
	Metric    string `json:"metric"`
	A         Side   `json:"a"`
	B         Side   `json:"b"`
	// Knobs are the rule knobs and bots that differ from A to B.
	Knobs []knobs.Change `json:"knobs,omitempty"`
	// Diff is the mean difference A − B per game with its 95% interval
	// over units of play (seat-swapped pairs of games, else games), N the
	// number of units.
	Diff reports.MetricEstimate `json:"difference"`
	// Pairs is the pentanomial of pairs (A's game, B's game on the same
	// seed), scored A's value + 1 − B's, when the metric is a score or an
	// event; its Score is ½ + Δ/2.
	Pairs *stats.PairScore `json:"pairs,omitempty"`
	SPRT  *SPRTResult      `json:"sprt,omitempty"`
	// FurtherFromEven, for the metric seat0_score, is |B − ½| − |A − ½|:
	// how much further B's seat 0 score lies from an even 50% than A's
	// (below 0: B is the fairer), with its paired 95% interval.
	FurtherFromEven *reports.MetricEstimate `json:"further_from_even,omitempty"`
}

// FairnessMetric is the metric whose distance from ½ says how fair a
// variant is: seat 0's score, a draw counting ½.
const FairnessMetric = "seat0_score"

// Stopped says the sequential test decided before the requested games.
func (r *Result) Stopped() bool { return r.SPRT != nil && r.Games < r.Requested }

// Exit codes of a sequential test, as playtest check's: H1 accepted passes,
// H0 accepted fails, and a test still undecided after every game asks for
// more games.
const (
	ExitH1        = 0
	ExitH0        = 1
	ExitUndecided = 3
)

// ExitCode is the exit code of a comparison: 0 without a sequential test.
func (r *Result) ExitCode() int {
	if r.SPRT == nil {
		return 0
	}
	switch r.SPRT.decision {
	case stats.AcceptH1:
		return ExitH1
	case stats.AcceptH0:
		return ExitH0
	}
	return ExitUndecided
}

// Prepare checks that a and b can be compared and the options make sense,
// and gives b a's games, seed and pairs so both play the same deals.
func Prepare(a, b *variants.Config, opts *Options) error {
	if opts.Metric == "" {
		opts.Metric = DefaultMetric
	}
	opts.Metric = reports.CanonicalMetric(opts.Metric)
	// Two rules scripts are two versions of a designer's game (one rule
	// changed in a copy): they compare like two variants of one game.
	if a.Definition.Name != b.Definition.Name && (a.ScriptOf() == nil || b.ScriptOf() == nil) {
		return fmt.Errorf("%s plays %s and %s plays %s: compare pairs games of one game on the same deals (or of two rules scripts)",
			a.Name, a.Definition.Name, b.Name, b.Definition.Name)
	}
	b.Games, b.Seed, b.Pairs = a.Games, a.Seed, a.Pairs
	if figure, ok := strings.CutPrefix(opts.Metric, reports.PlayPrefix); ok {
		if _, _, known := howplays.PerGame(figure); !known {
			var names []string
			for _, n := range howplays.PerGameNames() {
				names = append(names, reports.PlayPrefix+n)
			}
			return fmt.Errorf("--metric %s: not a figure of one game%s; pairable: %s", opts.Metric, variants.Suggestion(opts.Metric, names), strings.Join(names, ", "))
		}
		for _, c := range []*variants.Config{a, b} {
			if opts.Learn == 0 && sim.TraceModel(c.Players) == nil {
				return fmt.Errorf("--metric %s: a game's trace maps to chances of winning only through a learned model's scale, and %s's bots play the hand heuristic; give both variants' bots a model (eval: learned) or compare with --learn GAMES", opts.Metric, c.Name)
			}
		}
		return nil
	}
	if !slices.Contains(reports.PerGameMetrics, opts.Metric) {
		probe, err := rundir.Probe(a)
		if err != nil {
			return err
		}
		names := slices.Clone(reports.PerGameMetrics)
		found := false
		for _, m := range probe.Metrics {
			names = append(names, m.Name)
			found = found || m.Name == opts.Metric
		}
		if !found {
			return fmt.Errorf("--metric %s: unknown metric %q%s; %s has: %s", opts.Metric, opts.Metric, variants.Suggestion(opts.Metric, names),
				a.Definition.Name, strings.Join(names, ", "))
		}
	}
	if opts.SPRT != nil {
		return opts.SPRT.Validate()
	}
	return nil
}

// Run plays a and b (as Prepare left them) on the same seeds, game i of
// each forming a pair, and compares them. With a sequential test it stops
// at the first pair where the test decides; the games compared never
// depend on the number of workers. Without one, and with Out, it keeps
// the comparison as a study (runStudy).
func Run(ctx context.Context, a, b *variants.Config, opts Options) (*Result, error) {
	if opts.Out != "" && opts.SPRT == nil {
		return runStudy(ctx, a, b, opts)
	}
	learned, err := learnModels(ctx, [2]*variants.Config{a, b}, "", opts)
	if err != nil {
		return nil, err
	}
	a, b = learned[0], learned[1]
	jobA, err := rundir.Job(a)
	if err != nil {
		return nil, err
	}
	jobB, err := rundir.Job(b)
	if err != nil {
		return nil, err
	}
	t, err := newTally(a, b, opts)
	if err != nil {
		return nil, err
	}
	if err := sim.RunPair(ctx, jobA, jobB, sim.Options{Workers: opts.Workers}, t.add); err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = sim.DefaultWorkers()
	}
	return t.result(workers), nil
}

// learnModels gives each side's bots the model learned from opts.Learn
// games of its own variant (none without Learn), kept in dir/models/ as
// a.json and b.json if dir is set (and read from there again on a
// resume).
func learnModels(ctx context.Context, cfgs [2]*variants.Config, dir string, opts Options) ([2]*variants.Config, error) {
	if opts.Learn == 0 {
		return cfgs, nil
	}
	for i, cfg := range cfgs {
		if opts.OnLearn != nil {
			opts.OnLearn(cfg.Name)
		}
		var err error
		if cfgs[i], _, err = learn.ForVariant(ctx, cfg, learn.VariantOptions{Games: opts.Learn, Workers: opts.Workers, StudyDir: dir, Name: unitDirs[i]}); err != nil {
			return cfgs, fmt.Errorf("%s: %w", cfg.Name, err)
		}
	}
	return cfgs, nil
}

// tally compares the games of A and B pair by pair as they come.
type tally struct {
	res        *Result
	a, b       *variants.Config
	opts       Options
	aggA, aggB *reports.Aggregator
	// valueA and valueB read the metric from A's and B's games (a How it
	// plays figure through each variant's own model).
	valueA, valueB func(*sim.Record) (float64, bool)
	test           stats.SPRT
	diff           unitMeans
	sumA, sumB     float64
	penta          stats.Pentanomial
	scored         bool
}

func newTally(a, b *variants.Config, opts Options) (*tally, error) {
	ga, err := a.NewGame()
	if err != nil {
		return nil, err
	}
	gb, err := b.NewGame()
	if err != nil {
		return nil, err
	}
	t := &tally{
		res: &Result{Schema: SchemaV1, Game: a.Definition.Name, Seed: a.Seed, Requested: a.Games, Metric: opts.Metric},
		a:   a, b: b, opts: opts, scored: true, valueA: metricReader(opts.Metric, a), valueB: metricReader(opts.Metric, b),
		aggA: reports.NewAggregator(rundir.Info(a, ga)), aggB: reports.NewAggregator(rundir.Info(b, gb)),
	}
	if opts.SPRT != nil {
		t.test = opts.SPRT.test()
		t.res.SPRT = &SPRTResult{Hypotheses: *opts.SPRT}
		t.res.SPRT.Lower, t.res.SPRT.Upper = t.test.Bounds()
	}
	return t, nil
}

// metricReader reads the metric from a game of cfg: a How it plays figure
// (play.) through the model cfg's bots play, over the traced games only
// (a run's first sim.DefaultTrace), else reports.PerGame's.
func metricReader(metric string, cfg *variants.Config) func(*sim.Record) (float64, bool) {
	figure, ok := strings.CutPrefix(metric, reports.PlayPrefix)
	if !ok {
		return reports.PerGame(metric)
	}
	m := sim.TraceModel(cfg.Players)
	if m == nil {
		return func(*sim.Record) (float64, bool) { return 0, false }
	}
	return reports.PlayPerGame(figure, howplays.FromModel(m))
}

// add counts one pair of games, A's and B's on one seed; stop says the
// sequential test decided.
func (t *tally) add(ra, rb *sim.Record) (stop bool, err error) {
	res := t.res
	if err := cmp.Or(ra.Err, rb.Err); err != nil {
		return true, err
	}
	va, hasA := t.valueA(ra)
	vb, hasB := t.valueB(rb)
	t.aggA.Add(ra)
	t.aggB.Add(rb)
	res.Games++
	if !hasA || !hasB {
		return false, nil // a game that did not report the metric
	}
	t.sumA += va
	t.sumB += vb
	unit := ra.Index
	if t.a.Pairs {
		unit = ra.Deal
	}
	t.diff.add(unit, va, vb)
	if t.scored = t.scored && isScore(va) && isScore(vb); t.scored {
		t.penta.Add(va, 1-vb)
	}
	if res.SPRT != nil {
		if !t.scored {
			return true, fmt.Errorf("the sequential test needs a score or an event per game (0, ½ or 1), but %s is %g in game %d", t.opts.Metric, va, ra.Index)
		}
		res.SPRT.LLR = t.test.LLR(t.penta)
		res.SPRT.decision = t.test.Decide(res.SPRT.LLR)
	}
	if t.opts.OnGame != nil {
		var st *Standing
		if res.SPRT != nil {
			ps := t.penta.Score(stats.Z95)
			st = &Standing{Games: res.Games, Pairs: ps, DeltaValue: 2*ps.Score - 1,
				Delta: stats.Interval{Low: 2*ps.CI.Low - 1, High: 2*ps.CI.High - 1},
				LLR:   res.SPRT.LLR, Lower: res.SPRT.Lower, Upper: res.SPRT.Upper,
				Final: res.SPRT.decision != stats.Continue || res.Games == t.a.Games}
		}
		t.opts.OnGame(res.Games, st)
	}
	return res.SPRT != nil && res.SPRT.decision != stats.Continue, nil
}

// result is the comparison of the games counted, its summaries timed
// with the number of workers only.
func (t *tally) result(workers int) *Result {
	res := t.res
	if res.SPRT != nil {
		res.SPRT.Decision = res.SPRT.decision.String()
	}
	timing := reports.Timing{Workers: workers}
	res.A = side(t.a, t.aggA.Summary(timing), t.sumA, t.diff.n)
	res.B = side(t.b, t.aggB.Summary(timing), t.sumB, t.diff.n)
	res.Knobs = reports.KnobChanges(res.A.Summary, res.B.Summary)
	res.Diff = t.diff.estimate()
	if res.Metric == FairnessMetric {
		f := t.diff.furtherFromEven()
		res.FurtherFromEven = &f
	}
	if t.scored && t.penta.Pairs() > 0 {
		ps := t.penta.Score(stats.Z95)
		res.Pairs = &ps
	}
	return res
}

func side(cfg *variants.Config, s *reports.Summary, sum float64, n int) Side {
	mean := 0.0
	if n > 0 {
		mean = sum / float64(n)
	}
	return Side{Variant: cfg.Name, Label: s.Label, Source: cfg.Source, ConfigHash: cfg.Hash(), Summary: s, Mean: mean}
}

func isScore(v float64) bool { return v == 0 || v == 0.5 || v == 1 }

// unitMeans accumulates A's and B's values per unit of play (games of one
// deal average into one unit, arriving consecutively): the moments of the
// units' differences, and the sums behind the covariance of their means.
type unitMeans struct {
	moments       stats.Moments
	unit          int
	sumA, sumB    float64
	count         int
	n             int // games
	open          bool
	units         int
	sa, sb        float64 // Σ unit means of A and B
	saa, sbb, sab float64 // Σ their squares and products
}

func (u *unitMeans) add(unit int, a, b float64) {
	if u.open && unit != u.unit {
		u.flush()
	}
	u.unit, u.open = unit, true
	u.sumA += a
	u.sumB += b
	u.count++
	u.n++
}

func (u *unitMeans) flush() {
	if u.count > 0 {
		a, b := u.sumA/float64(u.count), u.sumB/float64(u.count)
		u.moments.Add(a - b)
		u.units++
		u.sa, u.sb = u.sa+a, u.sb+b
		u.saa, u.sbb, u.sab = u.saa+a*a, u.sbb+b*b, u.sab+a*b
	}
	u.sumA, u.sumB, u.count = 0, 0, 0
}

// estimate returns the mean difference with its normal 95% interval.
func (u *unitMeans) estimate() reports.MetricEstimate {
	u.flush()
	u.open = false
	iv := u.moments.MeanInterval(stats.Z95)
	return reports.MetricEstimate{Value: u.moments.Mean(), Low: iv.Low, High: iv.High, N: u.moments.N}
}

// furtherFromEven returns |B̄ − ½| − |Ā − ½|, how much further B's mean
// score lies from even than A's, with a normal 95% interval over the units
// by the delta method: the variance of s_B·b − s_A·a per unit, s the sign
// of each side's lean. Near an even score the interval is approximate (the
// absolute value bends there); it is paired, since A and B play the same
// deals.
func (u *unitMeans) furtherFromEven() reports.MetricEstimate {
	u.flush()
	u.open = false
	n := float64(u.units)
	if u.units < 2 {
		return reports.MetricEstimate{N: u.units}
	}
	ma, mb := u.sa/n, u.sb/n
	sign := func(x float64) float64 {
		if x < 0 {
			return -1
		}
		return 1
	}
	ra, rb := sign(ma-0.5), sign(mb-0.5)
	va := (u.saa - n*ma*ma) / (n - 1)
	vb := (u.sbb - n*mb*mb) / (n - 1)
	cab := (u.sab - n*ma*mb) / (n - 1)
	se := math.Sqrt(max(0, rb*rb*vb+ra*ra*va-2*ra*rb*cab) / n)
	d := math.Abs(mb-0.5) - math.Abs(ma-0.5)
	return reports.MetricEstimate{Value: d, Low: d - stats.Z95*se, High: d + stats.Z95*se, N: u.units}
}
