package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/studies/learn"
	"playtest/studies/study"
	"playtest/variants"
)

// SchemaV1 is the schema tag of sweep.json.
const SchemaV1 = "playtest/sweep/v2"

// Corrections for multiple comparisons.
const (
	Holm = "holm"
	BH   = "bh"
)

// Options tune a sweep's run.
type Options struct {
	// Workers is the number of worker goroutines per variant (0: all cores).
	Workers int
	// Metric, if set, replaces the sweep's metric.
	Metric string
	// Correction is Holm (default) or BH.
	Correction string
	// Alpha is the level at which seat bias is flagged (default 0.05).
	Alpha float64
	// Out, if set, is the directory each variant's results are written to,
	// under variants/.
	Out string
	// Resume continues the variants an interrupted sweep left in Out (and
	// reuses the finished ones) instead of starting afresh.
	Resume bool
	// Shard, with Out, plays that slice of every variant's games (no
	// reports per variant): the sweep's result comes from playtest merge.
	Shard runlog.Shard
	// Command is the command line that started the sweep, recorded in
	// Out's study manifest.
	Command string
	// Learn, if above 0, gives each variant's bots a model learned from
	// that many games of its own (learn.ForVariant) before they play it;
	// with Out the models are kept under models/.
	Learn int
	// MaxVariants refuses a sweep of more variants (0: DefaultMaxVariants).
	MaxVariants int
	// Skipped is set by Prepare: the points the sweep left out.
	Skipped Skipped
	// Start, if set, is called before variant i of n plays, with its
	// label, the games already done (resumed) and its games in all.
	Start func(i, n int, label string, done, total int)
	// OnGame, if set, is called after each game.
	OnGame func()
	// Done, if set, is called after each variant.
	Done func(i, n int, cfg *variants.Config, s *reports.Summary)
}

// DefaultMaxVariants is the most variants a sweep may cross unless
// Options.MaxVariants (--max-variants) allows more.
const DefaultMaxVariants = 1000

// TooManyError refuses a sweep that crosses more variants than allowed.
type TooManyError struct {
	Sweep      *Sweep
	Count, Max int
}

func (e *TooManyError) Error() string {
	sizes := make([]string, len(e.Sweep.Axes))
	for i, a := range e.Sweep.Axes {
		sizes[i] = strconv.Itoa(len(a.Labels))
	}
	count := bots.Thousands(e.Count)
	if e.Count == math.MaxInt {
		count = "more than " + count
	}
	return fmt.Sprintf("%s: the sweep crosses %s variants (%d axes: %s), more than --max-variants %s: cut axes or values, or raise --max-variants",
		e.Sweep.Source, count, len(e.Sweep.Axes), strings.Join(sizes, " × "), bots.Thousands(e.Max))
}

// MemoryError refuses a sweep whose variants may not fit in the memory
// playtest may use: every variant's configuration is built before the
// first game, and each keeps a row of results.
type MemoryError struct {
	Sweep  *Sweep
	Count  int
	Need   int64
	Usable int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%s: the sweep's %s variants may take %s (about %s each with %d axes), more than the %s playtest may use on this machine (3/4 of its memory; %s sets it): cut axes or values",
		e.Sweep.Source, bots.Thousands(e.Count), sim.Bytes(e.Need), sim.Bytes(variantBytes(len(e.Sweep.Axes))), len(e.Sweep.Axes), sim.Bytes(e.Usable), sim.MemoryEnv)
}

// BadInput marks the error as the user's sweep.
func (e *MemoryError) BadInput() bool { return true }

// variantBytes bounds the memory one variant of a sweep with axes axes
// keeps: its configuration, its point and its row of results. Measured:
// 13.4 KB a variant (maximum resident size over 16,384 variants of 14
// axes); 8 KiB plus 1 KiB an axis leaves a margin.
func variantBytes(axes int) int64 { return 8<<10 + int64(axes)<<10 }

// Row is one variant's results.
type Row struct {
	Label      string   `json:"label"`
	Values     []string `json:"values"`
	Variant    string   `json:"variant"`
	ConfigHash string   `json:"config_hash"`
	Games      int      `json:"games"`
	reports.RatesAndLength
	Metric reports.MetricEstimate `json:"metric"`
	// SeatBiasP is the p-value of the variant's seat-bias test (the exact
	// sign-flip test over seat-swapped pairs, or with pairs off the exact
	// binomial test that seat 0 wins half the decisive games), which
	// SeatBiasTest names; AdjustedP the same corrected for the number of
	// variants; SeatBias says AdjustedP ≤ α.
	SeatBiasP    float64 `json:"seat_bias_p"`
	SeatBiasTest string  `json:"seat_bias_test"`
	AdjustedP    float64 `json:"adjusted_p"`
	SeatBias     bool    `json:"seat_bias"`
	// Warnings are the variant's warnings (reports.Warning).
	Warnings []reports.Warning `json:"warnings,omitempty"`
	// Broken is the variant's reports.Broken text when its rules, not its
	// bots, decide the games (its cells are marked).
	Broken string `json:"broken,omitempty"`
	// AfterDecided and LeadChanges are two of How it plays' figures: the
	// share of a decisive game played after it was decided, and the lead
	// changes a game (nil when the variant traced no game).
	AfterDecided *reports.MetricEstimate `json:"after_decided,omitempty"`
	LeadChanges  *reports.MetricEstimate `json:"lead_changes,omitempty"`
	// Dir is the variant's result directory, relative to the sweep's.
	Dir string `json:"dir,omitempty"`
}

// AxisInfo is an axis's name and value labels.
type AxisInfo struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
}

// Result is a finished sweep, as written to sweep.json.
type Result struct {
	Schema      string     `json:"schema"`
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Source      string     `json:"source"`
	Axes        []AxisInfo `json:"axes"`
	Metric      string     `json:"metric"`
	// MetricRate says the metric is a share between 0 and 1.
	MetricRate bool    `json:"metric_rate"`
	Correction string  `json:"correction"`
	Alpha      float64 `json:"alpha"`
	Games      int     `json:"games_per_variant"`
	Seed       uint64  `json:"seed"`
	Pairs      bool    `json:"pairs"`
	// Learn is the games each variant's model was learned from (0: the
	// variants' bots play their own evaluation).
	Learn int `json:"learn,omitempty"`
	// Skipped tells the points of the sweep left out (nil: none).
	Skipped *Skipped `json:"skipped,omitempty"`
	Rows    []Row    `json:"variants"`
}

// Prepare builds every variant of the sweep and checks the options, so
// that bad input is reported before any game is played.
func Prepare(s *Sweep, extra []variants.Override, opts *Options) ([]*variants.Config, []Point, error) {
	origin := "--metric"
	if opts.Metric == "" {
		opts.Metric, origin = s.Metric, ""
	}
	opts.Metric = reports.CanonicalMetric(opts.Metric)
	if opts.Correction == "" {
		opts.Correction = Holm
	}
	if opts.Correction != Holm && opts.Correction != BH {
		return nil, nil, fmt.Errorf("correction %q: want %s (Holm, family-wise error) or %s (Benjamini–Hochberg, false discovery rate)", opts.Correction, Holm, BH)
	}
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	if !(opts.Alpha > 0 && opts.Alpha < 1) { // NaN too
		return nil, nil, fmt.Errorf("alpha %g: want a level between 0 and 1", opts.Alpha)
	}
	if opts.MaxVariants <= 0 {
		opts.MaxVariants = DefaultMaxVariants
	}
	n := s.Count()
	if n > opts.MaxVariants {
		return nil, nil, &TooManyError{Sweep: s, Count: n, Max: opts.MaxVariants}
	}
	if usable, need := sim.Usable(), int64(n)*variantBytes(len(s.Axes)); usable > 0 && need > usable {
		return nil, nil, &MemoryError{Sweep: s, Count: n, Need: need, Usable: usable}
	}
	cfgs, points, skipped, err := s.Variants(extra)
	if err != nil {
		return nil, nil, err
	}
	opts.Skipped = skipped
	if err := checkMetric(s, cfgs[0], opts.Metric, origin); err != nil {
		return nil, nil, err
	}
	return cfgs, points, nil
}

// checkMetric makes sure the first variant reports the metric, playing a
// few quick games with random bots to learn its game's metrics. origin
// names the flag that gave the metric ("" for the sweep file's metric:),
// so the error says where to fix it.
func checkMetric(s *Sweep, cfg *variants.Config, metric, origin string) error {
	summary, err := rundir.Probe(cfg)
	if err != nil {
		return err
	}
	if _, ok := summary.Lookup(metric, ""); ok {
		return nil
	}
	names := summary.MetricNames()
	msg := fmt.Sprintf("unknown metric %q%s; %s has: %s", metric, variants.Suggestion(metric, names), cfg.Definition.Name, strings.Join(names, ", "))
	if origin != "" {
		return &variants.Error{File: origin + " " + metric, Message: msg}
	}
	return &variants.Error{File: s.Source, Key: "metric", Message: msg}
}

// Kind is the study kind of a sweep (study.Manifest.Kind).
const Kind = "sweep"

// design is what a sweep's study manifest records beside its units: the
// result's header (no rows) and each variant's axis values.
type design struct {
	Result
	Values [][]string `json:"values"`
}

// Run plays every variant (as Prepare built them) one after the other on
// the same seeds and returns the sweep's result. With Out it keeps the
// sweep as a study (package study): each variant a run directory under
// variants/, and study.json. With a Shard it plays that slice of every
// variant and returns no result (nil): playtest merge assembles the
// sweep from its shards.
func Run(ctx context.Context, s *Sweep, cfgs []*variants.Config, points []Point, opts Options) (*Result, error) {
	res := &Result{
		Schema: SchemaV1, Name: s.Name, Description: s.Description, Source: s.Source,
		Metric: opts.Metric, Correction: opts.Correction, Alpha: opts.Alpha,
		Games: cfgs[0].Games, Seed: cfgs[0].Seed, Pairs: cfgs[0].Pairs, Learn: opts.Learn,
	}
	if opts.Skipped.Count() > 0 {
		res.Skipped = &opts.Skipped
	}
	for _, a := range s.Axes {
		res.Axes = append(res.Axes, AxisInfo{Name: a.Name, Labels: a.Labels})
	}
	for i := range cfgs {
		row := Row{Label: s.Label(points[i]), Values: points[i].Labels}
		if opts.Out != "" {
			row.Dir = unitDir(i, row.Label)
		}
		res.Rows = append(res.Rows, row)
	}
	var m *study.Manifest
	if opts.Out != "" {
		d := design{Result: *res}
		d.Rows = nil
		units := make([]study.Unit, len(cfgs))
		for i, cfg := range cfgs {
			units[i] = study.NewUnit(res.Rows[i].Label, res.Rows[i].Dir, cfg)
			d.Values = append(d.Values, res.Rows[i].Values)
		}
		var err error
		if m, err = study.New(Kind, s.Name, opts.Command, opts.Shard, units, d); err != nil {
			return nil, err
		}
	}
	return play(ctx, res, cfgs, m, opts)
}

// Resume continues the sweep kept in out from its study manifest alone,
// with its shard: no sweep file is read again.
func Resume(ctx context.Context, out string, opts Options) (*Result, error) {
	m, err := study.Read(out)
	if err != nil {
		return nil, err
	}
	res, cfgs, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	opts.Out, opts.Resume, opts.Shard = out, true, m.Shard
	opts.Metric, opts.Correction, opts.Alpha, opts.Learn = res.Metric, res.Correction, res.Alpha, res.Learn
	return play(ctx, res, cfgs, m, opts)
}

// unitDir is the run directory of the i-th variant, labelled label, in a
// sweep's directory.
func unitDir(i int, label string) string {
	return filepath.Join("variants", fmt.Sprintf("%02d-%s", i+1, slug(label)))
}

// label is the label of the point with values (one of each axis's
// labels), as Sweep.Label makes it; false when values are not the axes'.
func (r *Result) label(values []string) (string, bool) {
	if len(values) != len(r.Axes) {
		return "", false
	}
	for i, v := range values {
		if !slices.Contains(r.Axes[i].Labels, v) {
			return "", false
		}
	}
	return pointLabel(func(i int) string { return r.Axes[i].Name }, values), true
}

// fromManifest rebuilds a sweep's result (rows without results) and its
// variants from its study manifest.
func fromManifest(m *study.Manifest) (*Result, []*variants.Config, error) {
	if m.Kind != Kind {
		return nil, nil, fmt.Errorf("%s is a %s, not a sweep", study.ManifestFile, m.Kind)
	}
	var d design
	if err := json.Unmarshal(m.Design, &d); err != nil || len(d.Values) != len(m.Units) || d.Schema != SchemaV1 {
		return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("its sweep design does not match its %d units (%v)", len(m.Units), err)}
	}
	res := d.Result
	cfgs := make([]*variants.Config, len(m.Units))
	for i, u := range m.Units {
		cfg, err := u.Config()
		if err != nil {
			return nil, nil, err
		}
		label, ok := res.label(d.Values[i])
		if !ok {
			return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("changed or damaged: unit %d's values %v are not its axes'", i+1, d.Values[i])}
		}
		if err := m.CheckUnit(i, label, unitDir(i, label)); err != nil {
			return nil, nil, err
		}
		if want := res.Name + ": " + label; u.Variant != want {
			return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("changed or damaged: unit %d plays %q, but its values make it %q", i+1, u.Variant, want)}
		}
		cfgs[i] = cfg
		res.Rows = append(res.Rows, Row{Label: u.Name, Values: d.Values[i], Dir: u.Dir})
	}
	return &res, cfgs, nil
}

// play plays the variants of res's rows, each into its directory under
// opts.Out (kept by the study manifest m) or in memory.
func play(ctx context.Context, res *Result, cfgs []*variants.Config, m *study.Manifest, opts Options) (*Result, error) {
	if opts.Out != "" {
		var err error
		if m, err = study.Begin(opts.Out, m, opts.Resume); err != nil {
			return nil, err
		}
		// The sweep's own results are written once every variant is done:
		// an earlier sweep's must not stand beside this one's variants
		// if it is stopped.
		if err := removeResults(opts.Out); err != nil {
			return nil, err
		}
		// An earlier sweep's learned models must not be taken for this
		// one's (a resume reads its own).
		if !opts.Resume {
			if err := learn.RemoveModels(opts.Out); err != nil {
				return nil, err
			}
		}
	}
	summaries := make([]*reports.Summary, len(cfgs))
	for i, cfg := range cfgs {
		var summary *reports.Summary
		var err error
		row := &res.Rows[i]
		eopts := rundir.Options{Workers: opts.Workers}
		if opts.OnGame != nil {
			eopts.OnRecord = func(*sim.Record) { opts.OnGame() }
		}
		start := func(done, total int) {
			if opts.Start != nil {
				opts.Start(i, len(cfgs), row.Label, done, total)
			}
		}
		if opts.Learn > 0 {
			if cfg, err = learnFor(ctx, cfg, i, len(cfgs), row.Label, opts); err != nil {
				return nil, fmt.Errorf("variant %s: %w", row.Label, err)
			}
		}
		if opts.Out != "" {
			dir := filepath.Join(opts.Out, row.Dir)
			_, logged := runlog.ReadManifest(dir)
			dopts := rundir.DirOptions{Options: eopts, Resume: opts.Resume && logged == nil, Replace: true, Start: start,
				Shard: m.Shard, NoReports: m.Shard.Count > 0}
			summary, err = rundir.RunToDir(ctx, cfg, dopts, dir)
		} else {
			start(0, cfg.Games)
			summary, err = rundir.Run(ctx, cfg, eopts)
		}
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", row.Label, err)
		}
		summaries[i] = summary
		if opts.Done != nil {
			opts.Done(i, len(cfgs), cfg, summary)
		}
	}
	if m != nil && m.Shard.Count > 0 {
		return nil, study.Finish(opts.Out, m) // a slice of every variant: merge assembles the sweep
	}
	res.fill(summaries)
	return res, nil
}

// learnFor gives the bots of cfg, the i-th of n variants labelled label,
// the model learned from opts.Learn games of its own (kept in, and with a
// resume read from, the sweep's models/).
func learnFor(ctx context.Context, cfg *variants.Config, i, n int, label string, opts Options) (*variants.Config, error) {
	if opts.Start != nil {
		opts.Start(i, n, label+" (learning its model)", 0, opts.Learn)
	}
	cfg, _, err := learn.ForVariant(ctx, cfg, learn.VariantOptions{Games: opts.Learn, Workers: opts.Workers, OnGame: opts.OnGame,
		StudyDir: opts.Out, Name: filepath.Base(unitDir(i, label))})
	return cfg, err
}

// Merge assembles the sweep whose shard directories are dirs into out
// (study.Merge), writes its results there and returns it: the same result
// as one process playing the whole sweep.
func Merge(ctx context.Context, dirs []string, out string) (*Result, error) {
	m, summaries, err := study.Merge(ctx, dirs, out)
	if err != nil {
		return nil, err
	}
	res, _, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	res.fill(summaries)
	if err := res.WriteDir(out); err != nil {
		return nil, err
	}
	return res, nil
}

// fill completes the rows from their variants' summaries and corrects the
// seat-bias p-values for the number of variants.
func (r *Result) fill(summaries []*reports.Summary) {
	for i, s := range summaries {
		r.Rows[i].fill(s, r.Metric)
	}
	r.MetricRate, _ = summaries[0].IsRate(r.Metric)
	r.adjust()
}

func (r *Row) fill(s *reports.Summary, metric string) {
	r.Variant, r.ConfigHash, r.Games = s.Variant, s.ConfigHash, s.Games
	r.RatesAndLength = s.RatesAndLength()
	r.Metric, _ = s.Lookup(metric, "")
	r.SeatBiasP, r.SeatBiasTest = s.Balance.SeatBiasP, s.Balance.SeatBiasTest
	r.Warnings = s.Warnings
	if s.Broken != nil {
		r.Broken = s.Broken.Text
	}
	r.AfterDecided, r.LeadChanges = playEstimate(s, "after_decided"), playEstimate(s, "lead_changes")
}

// playEstimate is one of How it plays' figures, nil when the run has none.
func playEstimate(s *reports.Summary, name string) *reports.MetricEstimate {
	if e, ok := s.Lookup(reports.PlayPrefix+name, ""); ok {
		return &e
	}
	return nil
}

// adjust corrects the seat-bias p-values for the number of variants.
func (r *Result) adjust() {
	p := make([]float64, len(r.Rows))
	for i, row := range r.Rows {
		p[i] = row.SeatBiasP
	}
	adj := stats.Holm(p)
	if r.Correction == BH {
		adj = stats.BenjaminiHochberg(p)
	}
	for i := range r.Rows {
		r.Rows[i].AdjustedP = adj[i]
		r.Rows[i].SeatBias = adj[i] <= r.Alpha
	}
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9._=+-]+`)

// slug makes a label fit for a directory name.
func slug(label string) string {
	s := strings.Trim(unsafe.ReplaceAllString(strings.ReplaceAll(label, ", ", "_"), "-"), "-")
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}
