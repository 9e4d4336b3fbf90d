package rundiff

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"playtest/internal/bounded"
	"playtest/internal/knobs"
	"playtest/reports"
	"playtest/reports/stats"
	"playtest/variants"
)

// SchemaV1 is the schema tag of a diff's JSON.
const SchemaV1 = "playtest/diff/v1"

// Alpha is the level at which a change is called significant, after Holm's
// correction over the figures compared.
const Alpha = 0.05

// MinSample is the fewest games (or pairs) a figure needs on each side for
// its change to get an interval and a test: below it a normal interval
// means nothing (one game's length has no spread), and the figure reads
// "too few games".
const MinSample = 10

// Run is one side of the diff: a saved run's identity.
type Run struct {
	Dir     string `json:"dir"`
	Variant string `json:"variant"`
	// Label names the variant with what --set changed in its rules.
	Label      string `json:"label,omitempty"`
	ConfigHash string `json:"config_hash"`
	Games      int    `json:"games"`
	Seed       uint64 `json:"seed"`
}

// Change is how one figure moved.
type Change struct {
	Metric string `json:"metric"`
	// Rate says the figure is a share between 0 and 1.
	Rate bool                   `json:"rate"`
	Old  reports.MetricEstimate `json:"old"`
	New  reports.MetricEstimate `json:"new"`
	// Delta is New − Old with its 95% interval; P the two-sided p-value of
	// no change, Adjusted after Holm's correction over every figure
	// compared; Significant says Adjusted < Alpha.
	Delta       float64        `json:"delta"`
	Interval    stats.Interval `json:"interval"`
	P           float64        `json:"p"`
	Adjusted    float64        `json:"p_adjusted"`
	Significant bool           `json:"significant"`
	// TooFew says a side has fewer than MinSample games for this figure:
	// no interval and no test (P and Adjusted 1), not counted in Holm's
	// correction.
	TooFew bool `json:"too_few,omitempty"`
}

// Result is a finished diff.
type Result struct {
	Schema string `json:"schema"`
	Game   string `json:"game"`
	Old    Run    `json:"old"`
	New    Run    `json:"new"`
	// Knobs are the rule knobs and bots that differ between the runs.
	Knobs []knobs.Change `json:"knobs,omitempty"`
	// Changes are the figures both runs report, builtin ones first.
	Changes []Change `json:"changes"`
	// OnlyOld and OnlyNew name the figures one run reports and the other
	// does not.
	OnlyOld []string `json:"only_old,omitempty"`
	OnlyNew []string `json:"only_new,omitempty"`
	// Notes say what limits the comparison (shared seeds, identical
	// configurations, different games).
	Notes []string `json:"notes,omitempty"`
}

// AnyFigure in a list of figures to gate on stands for every figure.
const AnyFigure = "any"

// Moved returns the changes of the named figures (AnyFigure: every one)
// that moved: significant after Holm's correction. A figure with too few
// games moved nowhere that can be shown. A name that is not a figure both
// runs report is an error, with a suggestion for a typo.
func (r *Result) Moved(figures []string) ([]Change, error) {
	names := make([]string, len(r.Changes))
	for i, c := range r.Changes {
		names[i] = c.Metric
	}
	want := map[string]bool{}
	for _, f := range figures {
		switch {
		case f == AnyFigure:
			for _, n := range names {
				want[n] = true
			}
		case slices.Contains(names, f):
			want[f] = true
		case slices.Contains(r.OnlyOld, f) || slices.Contains(r.OnlyNew, f):
			return nil, fmt.Errorf("--fail-on %s: only one of the runs reports %s, so it cannot have moved", f, f)
		default:
			return nil, fmt.Errorf("--fail-on %s: not a figure of these runs%s; they report %s, or give %s", f, variants.Suggestion(f, names), strings.Join(names, ", "), AnyFigure)
		}
	}
	var moved []Change
	for _, c := range r.Changes {
		if want[c.Metric] && c.Significant {
			moved = append(moved, c)
		}
	}
	return moved, nil
}

// Load reads DIR/summary.json.
func Load(dir string) (*reports.Summary, error) {
	path := filepath.Join(dir, "summary.json")
	f, err := bounded.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: no saved run here (want summary.json, from playtest run --out or check --out): %w", dir, err)
	}
	defer f.Close()
	s, err := reports.ReadSummary(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Compare diffs two runs' summaries. The runs are taken as independent
// samples: each figure's change gets a MOVER interval from the two runs'
// own intervals (which already account for each run's pairs) and a
// two-sided p-value; the p-values are adjusted by Holm over the figures.
func Compare(oldDir string, old *reports.Summary, newDir string, cur *reports.Summary) (*Result, error) {
	if old.Game != cur.Game {
		return nil, fmt.Errorf("%s plays %s and %s plays %s: diff compares two runs of one game", oldDir, old.Game, newDir, cur.Game)
	}
	res := &Result{Schema: SchemaV1, Game: old.Game, Old: run(oldDir, old), New: run(newDir, cur), Knobs: reports.KnobChanges(old, cur)}
	share := func(name string) bool { rate, _ := cur.IsRate(name); return rate }
	names := order(old.MetricNames())
	newNames := order(cur.MetricNames())
	for _, name := range names {
		if !slices.Contains(newNames, name) {
			res.OnlyOld = append(res.OnlyOld, name)
			continue
		}
		o, _ := old.Lookup(name, "")
		n, _ := cur.Lookup(name, "")
		if o.N < MinSample || n.N < MinSample {
			res.Changes = append(res.Changes, Change{Metric: name, Rate: share(name), Old: o, New: n, Delta: n.Value - o.Value, P: 1, Adjusted: 1, TooFew: true})
			continue
		}
		res.Changes = append(res.Changes, change(name, o, n, share(name)))
	}
	for _, name := range newNames {
		if !slices.Contains(names, name) {
			res.OnlyNew = append(res.OnlyNew, name)
		}
	}
	var ps []float64
	var tested []int
	for i, c := range res.Changes {
		if !c.TooFew {
			ps, tested = append(ps, c.P), append(tested, i)
		}
	}
	for k, adj := range stats.Holm(ps) {
		res.Changes[tested[k]].Adjusted = adj
		res.Changes[tested[k]].Significant = adj < Alpha
	}
	if old.ConfigHash == cur.ConfigHash {
		res.Notes = append(res.Notes, "both runs have the same configuration (config hash): any change is noise, or a change in playtest itself")
	}
	if old.Seed == cur.Seed && old.ConfigHash != cur.ConfigHash {
		res.Notes = append(res.Notes, "both runs use the same seed, so their games share deals and bot streams: the test treats them as independent, which overstates the noise of a change (a paired playtest compare is tighter)")
	}
	return res, nil
}

func run(dir string, s *reports.Summary) Run {
	return Run{Dir: dir, Variant: s.Variant, Label: s.Label, ConfigHash: s.ConfigHash, Games: s.Games, Seed: s.Seed}
}

// name is the run's variant for people: its label, else its name.
func (r Run) name() string {
	if r.Label != "" {
		return r.Label
	}
	return r.Variant
}

// order puts the builtin figures first, in BuiltinMetrics order, then the
// game's own by name.
func order(names []string) []string {
	var out []string
	for _, b := range reports.BuiltinMetrics {
		if slices.Contains(names, b) {
			out = append(out, b)
		}
	}
	for _, n := range names {
		if !slices.Contains(reports.BuiltinMetrics, n) {
			out = append(out, n)
		}
	}
	return out
}

// change compares two estimates, each with its 95% interval, by MOVER
// (the method of variance estimates recovery; Newcombe's hybrid score
// interval when both are Wilson intervals of rates): the change's interval
// combines the distances from each value to the ends of its own interval,
// so asymmetric intervals near 0 or 1 keep their shape. The p-value is the
// normal test whose 95% interval is the MOVER one on the side of 0, so it
// is below 0.05 exactly when the interval excludes 0.
func change(name string, o, n reports.MetricEstimate, rate bool) Change {
	d := n.Value - o.Value
	c := Change{Metric: name, Rate: rate, Old: o, New: n, Delta: d, P: 1}
	c.Interval = stats.Interval{
		Low:  d - math.Hypot(n.Value-n.Low, o.High-o.Value),
		High: d + math.Hypot(n.High-n.Value, o.Value-o.Low),
	}
	if rate {
		c.Interval.Low, c.Interval.High = max(c.Interval.Low, -1), min(c.Interval.High, 1)
	}
	toward := d - c.Interval.Low // the half-width on the side of 0
	if d < 0 {
		toward = c.Interval.High - d
	}
	switch se := toward / stats.Z95; {
	case se > 0:
		c.P = math.Erfc(math.Abs(d) / se / math.Sqrt2)
	case d != 0:
		c.P = 0 // both figures exact (no spread) and different
	}
	return c
}

// WriteText prints the diff as a table.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: old %s (%s, %d games, seed %d) → new %s (%s, %d games, seed %d)\n",
		r.Game, r.Old.Dir, r.Old.name(), r.Old.Games, r.Old.Seed, r.New.Dir, r.New.name(), r.New.Games, r.New.Seed)
	if err := reports.WriteKnobTable(w, "old", "new", r.Knobs); err != nil {
		return err
	}
	rows := r.rows()
	t := reports.NewTable(w, reports.Cells(header)...)
	for _, row := range rows {
		_ = t.Append(reports.Cells(row)...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, r.footer())
	return err
}

// WriteMarkdown writes the diff as Markdown, for a CI job summary.
func (r *Result) WriteMarkdown(w io.Writer) error {
	md := reports.MarkdownEscape
	fmt.Fprintf(w, "### playtest diff: %s\n\nOld: %s (%s, %d games, seed %d). New: %s (%s, %d games, seed %d).\n\n",
		md(r.Game), reports.MarkdownCode(r.Old.Dir), md(r.Old.name()), r.Old.Games, r.Old.Seed, reports.MarkdownCode(r.New.Dir), md(r.New.name()), r.New.Games, r.New.Seed)
	if err := reports.WriteKnobMarkdown(w, "old", "new", r.Knobs); err != nil {
		return err
	}
	if err := reports.WriteMarkdownTable(w, header, r.rows()); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\n%s\n", reports.MarkdownText(r.footer())); err != nil {
		return err
	}
	return reports.WriteMarkdownFooter(w)
}

var header = []string{"figure", "old (95% CI)", "new (95% CI)", "change (95% CI)", "p", "p adjusted", "moved"}

func (r *Result) rows() [][]string {
	var out [][]string
	for _, c := range r.Changes {
		if c.TooFew {
			out = append(out, []string{c.Metric, estimate(c.Old, c.Rate), estimate(c.New, c.Rate), "—", "—", "—",
				fmt.Sprintf("too few games (n = %d and %d; %d each needed)", c.Old.N, c.New.N, MinSample)})
			continue
		}
		moved := ""
		if c.Significant {
			moved = "yes"
		}
		out = append(out, []string{c.Metric, estimate(c.Old, c.Rate), estimate(c.New, c.Rate),
			changeText(c),
			reports.FormatP(c.P), reports.FormatP(c.Adjusted), moved})
	}
	return out
}

func (r *Result) footer() string {
	tested := 0
	for _, c := range r.Changes {
		if !c.TooFew {
			tested++
		}
	}
	text := fmt.Sprintf("A figure moved when its change is significant at %g after Holm's correction over the %s tested; the runs are taken as independent samples.", Alpha, reports.Count(tested, "figure"))
	if tested < len(r.Changes) {
		few := len(r.Changes) - tested
		verb := "have"
		if few == 1 {
			verb = "has"
		}
		text += fmt.Sprintf(" %s %s fewer than %d games on a side: too few for an interval or a test.", reports.Count(few, "figure"), verb, MinSample)
	}
	if len(r.OnlyOld) > 0 {
		text += fmt.Sprintf("\nOnly in the old run: %s.", strings.Join(r.OnlyOld, ", "))
	}
	if len(r.OnlyNew) > 0 {
		text += fmt.Sprintf("\nOnly in the new run: %s.", strings.Join(r.OnlyNew, ", "))
	}
	for _, n := range r.Notes {
		text += "\nNote: " + n + "."
	}
	return text
}

// estimate writes a figure with its interval: rates as percentages, other
// values to three significant digits.
func estimate(e reports.MetricEstimate, rate bool) string {
	if rate {
		return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*e.Value, 100*e.Low, 100*e.High)
	}
	return fmt.Sprintf("%.3g [%.3g, %.3g]", e.Value, e.Low, e.High)
}

// changeText writes a change with its interval: percentage points for a
// rate.
func changeText(c Change) string {
	if c.Rate {
		return fmt.Sprintf("%+.1f pts [%+.1f, %+.1f]", 100*c.Delta, 100*c.Interval.Low, 100*c.Interval.High)
	}
	return fmt.Sprintf("%+.3g [%+.3g, %+.3g]", c.Delta, c.Interval.Low, c.Interval.High)
}
