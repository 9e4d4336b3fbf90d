package check

import (
	"fmt"
	"io"
	"strings"

	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/variants"
)

// Outcome is a bound's verdict.
type Outcome int

// The verdicts, in increasing order of what they say against the variant.
const (
	Pass Outcome = iota
	Inconclusive
	Fail
)

func (o Outcome) String() string { return [...]string{"pass", "inconclusive", "fail"}[o] }

// Exit codes of playtest check.
const (
	ExitPass         = 0
	ExitFail         = 1
	ExitBadInput     = 2
	ExitInconclusive = 3
)

// Verdict is one bound checked against the results.
type Verdict struct {
	Expectation variants.Expectation
	// Value is the metric's estimate, with its 95% interval [Low, High]
	// (equal to Value for a minimum or maximum over games) and sample size.
	Value, Low, High float64
	N                int
	Outcome          Outcome
	// Repeated says the run's games repeat (reports.Repetition.Repeated):
	// an interval over them overstates what is known, so a bound judged by
	// one is inconclusive whatever the interval says.
	Repeated bool
	// Proven says the value is the one perfect play gives, by a proven
	// forced win or the variant's proven value
	// (reports.Summary.ProvenValue): the bound is judged against it,
	// exactly, never inconclusive.
	Proven bool
	// EndsAt, for a bound with no sample in a run whose games are all
	// short (reports.Broken), is the ply by which every game ended.
	EndsAt int
}

// CheckBounds checks the bounds against what the summary knows of each
// metric (a probe's summary before a run, the run's after it): a rate's
// bounds must lie between 0 and 1 (a bound of 45 gets "did you mean
// 0.45?"), and stat min or max needs a value metric. Metrics the summary
// does not report are left for Evaluate. Every refused bound is reported,
// in file order.
func CheckBounds(file string, s *reports.Summary, exps []variants.Expectation) error {
	var problems variants.Errors
	for i, e := range exps {
		rate, known := s.IsRate(e.Metric)
		if !known || !rate {
			continue
		}
		path := fmt.Sprintf("expect[%d]", i)
		if e.Stat == "min" || e.Stat == "max" {
			problems = append(problems, &variants.Error{File: file, Line: e.Line, Key: path + ".stat",
				Message: fmt.Sprintf("%s is a rate (a share of games): stat %s applies only to a game's value metrics; bound the rate itself", e.Metric, e.Stat)})
			continue
		}
		for _, b := range []struct {
			key string
			v   *float64
		}{{"min", e.Min}, {"max", e.Max}} {
			if b.v == nil || *b.v >= 0 && *b.v <= 1 {
				continue
			}
			msg := fmt.Sprintf("%g is not a rate: %s is a share of games, between 0 and 1", *b.v, e.Metric)
			if *b.v > 1 && *b.v <= 100 {
				msg += fmt.Sprintf("; did you mean %g?", *b.v/100)
			}
			problems = append(problems, &variants.Error{File: file, Line: e.Line, Key: path + "." + b.key, Message: msg})
		}
	}
	switch len(problems) {
	case 0:
		return nil
	case 1:
		return problems[0]
	}
	return problems
}

// CheckMetrics refuses, before a run, a bound on a metric that neither the
// summary (a probe's) reports nor the game documents (known): a typo, named
// with its file and line and a suggestion. A metric the game documents but
// the probe's games never measured (the situation did not arise) is left
// for the run.
func CheckMetrics(file string, s *reports.Summary, exps []variants.Expectation, known func(string) bool) error {
	for i, e := range exps {
		if _, ok := s.Lookup(e.Metric, e.Stat); ok || known != nil && known(e.Metric) || isPlayFigure(e.Metric) {
			continue
		}
		names := s.MetricNames()
		return &variants.Error{File: file, Line: e.Line, Key: fmt.Sprintf("expect[%d].metric", i),
			Message: fmt.Sprintf("unknown metric %q%s; this run has: %s", e.Metric, variants.Suggestion(e.Metric, names), strings.Join(names, ", "))}
	}
	return nil
}

// isPlayFigure says metric names one of How it plays' figures
// (play.after_decided), which a probe's random games may not give (clarity
// needs a search bot).
func isPlayFigure(metric string) bool {
	name, ok := strings.CutPrefix(metric, reports.PlayPrefix)
	return ok && howplays.Describe(name) != ""
}

// Evaluate checks every expectation against the summary. A metric the
// summary lacks but known says the game reports had no sample (no game
// reached the situation it measures): its verdict is inconclusive with
// N 0. An unknown metric is an error naming the file's line, with a
// suggestion; so is a bound CheckBounds refuses.
func Evaluate(file string, s *reports.Summary, exps []variants.Expectation, known func(string) bool) ([]Verdict, error) {
	if err := CheckBounds(file, s, exps); err != nil {
		return nil, err
	}
	if err := CheckMetrics(file, s, exps, known); err != nil {
		return nil, err
	}
	var out []Verdict
	for _, e := range exps {
		est, ok := s.Lookup(e.Metric, e.Stat)
		proven, isProven := s.ProvenValue(e.Metric)
		if isProven && e.Stat == "" {
			est, ok = reports.MetricEstimate{Value: proven, Low: proven, High: proven, N: s.Games}, true
		}
		if !ok {
			v := Verdict{Expectation: e, Outcome: Inconclusive}
			if s.Broken != nil {
				v.EndsAt = s.Broken.LastPly
			}
			out = append(out, v)
			continue
		}
		v := Verdict{Expectation: e, Value: est.Value, Low: est.Low, High: est.High, N: est.N, Proven: isProven && e.Stat == ""}
		lo, hi := -1e300, 1e300
		if e.Min != nil {
			lo = *e.Min
		}
		if e.Max != nil {
			hi = *e.Max
		}
		switch {
		case v.Proven && (est.Value < lo || est.Value > hi):
			v.Outcome = Fail
		case v.Proven:
			v.Outcome = Pass
		case s.Repetition.Repeated(s.Games) && !isExtreme(v):
			v.Outcome, v.Repeated = Inconclusive, true
		case est.High < lo || est.Low > hi:
			v.Outcome = Fail
		case est.Low >= lo && est.High <= hi:
			v.Outcome = Pass
		default:
			v.Outcome = Inconclusive
		}
		out = append(out, v)
	}
	return out, nil
}

// Worst returns the most severe outcome (Pass for no verdicts).
func Worst(vs []Verdict) Outcome {
	w := Pass
	for _, v := range vs {
		w = max(w, v.Outcome)
	}
	return w
}

// ExitCode maps the verdicts to playtest check's exit code; an
// inconclusive bound fails (ExitFail) when inconclusiveFails.
func ExitCode(vs []Verdict, inconclusiveFails bool) int {
	switch Worst(vs) {
	case Fail:
		return ExitFail
	case Inconclusive:
		if inconclusiveFails {
			return ExitFail
		}
		return ExitInconclusive
	}
	return ExitPass
}

// WriteMarkdown writes the verdicts as a Markdown table, fit for a CI job
// summary. A bound on the minimum or maximum over games shows the extreme
// seen, without an interval: sampling can refute such a bound (one game
// beyond it) but never prove it.
func WriteMarkdown(w io.Writer, s *reports.Summary, vs []Verdict) error {
	// Text symbols that common fonts have (no emoji font needed in check.html).
	icon := map[Outcome]string{Pass: "✓ pass", Inconclusive: "⚠ inconclusive", Fail: "✗ fail"}
	md := reports.MarkdownEscape
	fmt.Fprintf(w, "### playtest check: %s (%s), %d games, seed %d: %s\n\n", md(s.VariantLabel()), md(s.Game), s.Games, s.Seed, Worst(vs))
	if s.Headline.Text != "" {
		fmt.Fprintf(w, "%s\n\n", reports.MarkdownText(s.Headline.Text))
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(w, "> ⚠ **%s**: %s\n\n", md(warn.Code), reports.MarkdownText(warn.Message))
	}
	fmt.Fprintln(w, "| metric | bound | value | 95% CI | n | verdict |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|")
	extremes := false
	for _, v := range vs {
		interval, verdict := fmt.Sprintf("%s – %s", formatValue(v.Low), formatValue(v.High)), icon[v.Outcome]
		value := formatValue(v.Value)
		switch {
		case v.N == 0 && v.EndsAt > 0:
			value, interval, verdict = "—", fmt.Sprintf("— (no game measured it: every game ends by ply %d)", v.EndsAt), icon[Inconclusive]+" (no sample)"
		case v.N == 0:
			value, interval, verdict = "—", "— (no game measured it)", icon[Inconclusive]+" (no sample)"
		case v.Proven:
			interval, verdict = "— ("+s.ProofText()+")", icon[v.Outcome]+" (proven)"
		case v.Repeated:
			verdict = icon[Inconclusive] + " (the games repeat)"
		case isExtreme(v):
			extremes = true
			interval = "— (seen in " + fmt.Sprint(v.N) + " games)"
			if v.Outcome == Pass {
				verdict = "✓ pass (not refuted)"
			}
		}
		_, err := fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %s |\n", md(boundName(v)), md(bound(v.Expectation)), value, interval, v.N, verdict)
		if err != nil {
			return err
		}
	}
	repeated := false
	for _, v := range vs {
		repeated = repeated || v.Repeated && v.Outcome == Inconclusive
	}
	if repeated {
		fmt.Fprintln(w, "\nA bound passes when the 95% interval lies within it, fails when the interval lies wholly outside it, and is inconclusive otherwise. "+RepeatedAdvice)
	} else {
		fmt.Fprintln(w, "\nA bound passes when the 95% interval lies within it, fails when the interval lies wholly outside it, and is inconclusive otherwise: more games would decide.")
	}
	for _, v := range vs {
		if v.Proven {
			fmt.Fprintln(w, "A bound marked proven is judged against perfect play's value, which no number of games and no other bots can change.")
			break
		}
	}
	if extremes {
		fmt.Fprintln(w, "A min or max is the extreme seen over the games played: one game beyond a bound refutes it, but no number of games can prove it, so a pass there means only that no game broke it.")
	}
	return reports.WriteMarkdownFooter(w)
}

// RepeatedAdvice says why a bound the repeated games leave inconclusive
// is not decided by more games, and what decides it.
const RepeatedAdvice = "A bound marked \"the games repeat\" is inconclusive whatever its interval says, and more games will not decide it: these bots replay a few lines of play, so more of their games add nothing new. What will: bots with variety, such as an opening book (`--set book=4`, where playtest solve proves the variant), alphabeta's noise with noise_moves, or a stochastic bot (mcts)."

// isExtreme says the verdict bounds a minimum or maximum over games.
func isExtreme(v Verdict) bool { return v.Expectation.Stat == "min" || v.Expectation.Stat == "max" }

// boundName names what a bound holds: the metric, or "min of" it.
func boundName(v Verdict) string {
	if isExtreme(v) {
		return v.Expectation.Stat + " of " + v.Expectation.Metric
	}
	return v.Expectation.Metric
}

// verdictLine states a verdict in one line.
func verdictLine(v Verdict) string {
	if v.N == 0 && v.EndsAt > 0 {
		return fmt.Sprintf("%s: no game measured it (no sample): every game ends by ply %d; bound %s: %s", boundName(v), v.EndsAt, bound(v.Expectation), v.Outcome)
	}
	if v.N == 0 {
		return fmt.Sprintf("%s: no game measured it (no sample); bound %s: %s", boundName(v), bound(v.Expectation), v.Outcome)
	}
	if v.Proven {
		return fmt.Sprintf("%s = %s with perfect play (proven); bound %s: %s (judged against the proof, not the games)", boundName(v), formatValue(v.Value), bound(v.Expectation), v.Outcome)
	}
	if isExtreme(v) {
		return fmt.Sprintf("%s = %s over %d games (the extreme seen); bound %s: %s", boundName(v), formatValue(v.Value), v.N, bound(v.Expectation), v.Outcome)
	}
	line := fmt.Sprintf("%s = %s, 95%% CI [%s, %s], n = %d; bound %s: %s", boundName(v), formatValue(v.Value), formatValue(v.Low), formatValue(v.High), v.N, bound(v.Expectation), v.Outcome)
	if v.Repeated {
		line += " (the games repeat themselves, so the interval overstates what is known: repeated-games)"
	}
	return line
}

// formatValue prints a figure for people: whole numbers as they are,
// others to three decimals.
func formatValue(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprint(int64(x))
	}
	return fmt.Sprintf("%.3f", x)
}

// SchemaV1 is the schema tag of check.json.
const SchemaV1 = "playtest/check/v1"

// Report is check.json: the run's identity, the overall outcome and each
// bound's verdict.
type Report struct {
	Schema     string          `json:"schema"`
	Game       string          `json:"game"`
	Variant    string          `json:"variant"`
	ConfigHash string          `json:"config_hash"`
	Games      int             `json:"games"`
	Seed       uint64          `json:"seed"`
	Outcome    string          `json:"outcome"`
	ExitCode   int             `json:"exit_code"`
	Verdicts   []VerdictRecord `json:"verdicts"`
}

// VerdictRecord is one bound's verdict in check.json.
type VerdictRecord struct {
	Metric  string   `json:"metric"`
	Stat    string   `json:"stat,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Value   float64  `json:"value"`
	Low     float64  `json:"low"`
	High    float64  `json:"high"`
	N       int      `json:"n"`
	Outcome string   `json:"outcome"`
	// Repeated: inconclusive because the run's games repeat.
	Repeated bool `json:"repeated,omitempty"`
	// Proven: judged against a proven forced win's value; EndsAt: no
	// sample, every game ending by that ply.
	Proven bool `json:"proven,omitempty"`
	EndsAt int  `json:"ends_at,omitempty"`
}

// NewReport gathers the verdicts for check.json, with the exit code they
// give (an inconclusive bound failing when inconclusiveFails).
func NewReport(s *reports.Summary, vs []Verdict, inconclusiveFails bool) *Report {
	r := &Report{Schema: SchemaV1, Game: s.Game, Variant: s.Variant, ConfigHash: s.ConfigHash, Games: s.Games, Seed: s.Seed,
		Outcome: Worst(vs).String(), ExitCode: ExitCode(vs, inconclusiveFails)}
	for _, v := range vs {
		e := v.Expectation
		r.Verdicts = append(r.Verdicts, VerdictRecord{Metric: e.Metric, Stat: e.Stat, Min: e.Min, Max: e.Max,
			Value: v.Value, Low: v.Low, High: v.High, N: v.N, Outcome: v.Outcome.String(), Repeated: v.Repeated,
			Proven: v.Proven, EndsAt: v.EndsAt})
	}
	return r
}

func bound(e variants.Expectation) string {
	switch {
	case e.Min != nil && e.Max != nil:
		return fmt.Sprintf("[%g, %g]", *e.Min, *e.Max)
	case e.Min != nil:
		return fmt.Sprintf("≥ %g", *e.Min)
	}
	return fmt.Sprintf("≤ %g", *e.Max)
}
