package check

import (
	"fmt"
	"io"
	"strings"

	"playtest/reports"
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
}

// Evaluate checks every expectation against the summary. An unknown metric
// is an error naming the file's line, with a suggestion.
func Evaluate(file string, s *reports.Summary, exps []variants.Expectation) ([]Verdict, error) {
	var out []Verdict
	for i, e := range exps {
		est, ok := s.Lookup(e.Metric, e.Stat)
		if !ok {
			names := s.MetricNames()
			return nil, &variants.Error{File: file, Line: e.Line, Key: fmt.Sprintf("expect[%d].metric", i),
				Message: fmt.Sprintf("unknown metric %q%s; this run has: %s", e.Metric, variants.Suggestion(e.Metric, names), strings.Join(names, ", "))}
		}
		v := Verdict{Expectation: e, Value: est.Value, Low: est.Low, High: est.High, N: est.N}
		lo, hi := -1e300, 1e300
		if e.Min != nil {
			lo = *e.Min
		}
		if e.Max != nil {
			hi = *e.Max
		}
		switch {
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

// ExitCode maps the verdicts to playtest check's exit code.
func ExitCode(vs []Verdict) int {
	switch Worst(vs) {
	case Fail:
		return ExitFail
	case Inconclusive:
		return ExitInconclusive
	}
	return ExitPass
}

// WriteMarkdown writes the verdicts as a Markdown table, fit for a CI job
// summary.
func WriteMarkdown(w io.Writer, s *reports.Summary, vs []Verdict) error {
	icon := map[Outcome]string{Pass: "✅ pass", Inconclusive: "⚠️ inconclusive", Fail: "❌ fail"}
	fmt.Fprintf(w, "### playtest check: %s (%s), %d games, seed %d: %s\n\n", s.Variant, s.Game, s.Games, s.Seed, Worst(vs))
	if s.Headline.Text != "" {
		fmt.Fprintf(w, "%s\n\n", s.Headline.Text)
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(w, "> ⚠ **%s**: %s\n\n", warn.Code, warn.Message)
	}
	fmt.Fprintln(w, "| metric | bound | value | 95% CI | n | verdict |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|")
	for _, v := range vs {
		e := v.Expectation
		name := e.Metric
		if e.Stat == "min" || e.Stat == "max" {
			name = e.Stat + " of " + name
		}
		_, err := fmt.Fprintf(w, "| %s | %s | %.3f | %.3f – %.3f | %d | %s |\n", name, bound(e), v.Value, v.Low, v.High, v.N, icon[v.Outcome])
		if err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "\nA bound passes when the 95% interval lies within it, fails when the interval lies wholly outside it, and is inconclusive otherwise: more games would decide.")
	return err
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
