package check

import (
	"bytes"
	"encoding/xml"
	"errors"
	"strings"
	"testing"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/variants"
)

func TestEvaluate(t *testing.T) {
	s := &reports.Summary{Games: 100, Variant: "v", Game: "g",
		Rates:   reports.OutcomeRates{Seat0: reports.NewRate(55, 100), Seat1: reports.NewRate(45, 100), Draw: reports.NewRate(0, 100)},
		Stalled: reports.NewRate(0, 100),
		Metrics: []reports.Metric{{Name: "full_stacks", Kind: "value", Mean: &reports.Mean{N: 100, Mean: 7.5, Low: 7.3, High: 7.7, Min: 6, Max: 9,
			Bootstrap: &stats.Interval{Low: 7.2, High: 7.8}}}},
	}
	f := func(x float64) *float64 { return &x }
	exps := []variants.Expectation{
		{Metric: "seat0_wins", Min: f(0.3), Max: f(0.8)}, // [0.45, 0.64]: pass
		{Metric: "seat0_wins", Max: f(0.5)},              // inconclusive
		{Metric: "seat1_wins", Min: f(0.6)},              // fail
		{Metric: "full_stacks", Stat: "min", Min: f(6)},  // 6 ≥ 6: pass
		{Metric: "full_stacks", Min: f(7.5)},             // bootstrap [7.2, 7.8]: inconclusive
		{Metric: "stalled", Max: f(0.05)},                // [0, 0.037]: pass
		{Metric: "rare.wins", Max: f(0.5)},               // documented, no game measured it: inconclusive
	}
	known := func(m string) bool { return m == "rare.wins" }
	vs, err := Evaluate("v.yaml", s, exps, known)
	if err != nil {
		t.Fatal(err)
	}
	want := []Outcome{Pass, Inconclusive, Fail, Pass, Inconclusive, Pass, Inconclusive}
	for i, v := range vs {
		if v.Outcome != want[i] {
			t.Errorf("bound %d (%+v): %v, want %v (value %v [%v, %v])", i, exps[i], v.Outcome, want[i], v.Value, v.Low, v.High)
		}
	}
	if ExitCode(vs, false) != ExitFail || ExitCode(vs[:2], false) != ExitInconclusive || ExitCode(vs[:1], false) != ExitPass || ExitCode(vs[:2], true) != ExitFail || ExitCode(vs[:1], true) != ExitPass {
		t.Error("exit codes")
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, s, vs); err != nil || !strings.Contains(b.String(), "| min of full\\_stacks | ≥ 6 |") ||
		!strings.Contains(b.String(), "| rare.wins | ≤ 0.5 | — | — (no game measured it) | 0 | ⚠ inconclusive (no sample) |") {
		t.Errorf("markdown %v:\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteJUnit(&b, s, vs, false); err != nil || !strings.Contains(b.String(), "no game measured it") {
		t.Errorf("junit %v:\n%s", err, b.String())
	}
	// Games that repeat themselves decide no interval bound; an extreme
	// seen still refutes or passes.
	s.Repetition = &reports.Repetition{Distinct: 12, MostPlayed: 30}
	vs, err = Evaluate("v.yaml", s, exps, known)
	if err != nil {
		t.Fatal(err)
	}
	want = []Outcome{Inconclusive, Inconclusive, Inconclusive, Pass, Inconclusive, Inconclusive, Inconclusive}
	for i, v := range vs {
		if v.Outcome != want[i] || v.Repeated != (i != 3 && v.N > 0) {
			t.Errorf("repeated games, bound %d: %v (repeated %v), want %v", i, v.Outcome, v.Repeated, want[i])
		}
	}
	b.Reset()
	if err := WriteMarkdown(&b, s, vs); err != nil || !strings.Contains(b.String(), "⚠ inconclusive (the games repeat)") ||
		strings.Contains(b.String(), "more games would decide") || !strings.Contains(b.String(), "more games will not decide it") || !strings.Contains(b.String(), "--set book=4") {
		t.Errorf("markdown %v:\n%s", err, b.String())
	}
	s.Repetition = nil
	_, err = Evaluate("v.yaml", s, []variants.Expectation{{Metric: "full_stack", Min: f(1), Line: 7}}, known)
	var ve *variants.Error
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `v.yaml:7: expect[0].metric: unknown metric "full_stack" (did you mean "full_stacks"?)`) {
		t.Errorf("unknown metric: %v", err)
	}
}

// TestJUnitInconclusive (issue 43): every bound inconclusive reads
// failures="0" skipped="N" by default (documented: green in many CI
// systems), and failures="N" skipped="0" with inconclusive failing.
func TestJUnitInconclusive(t *testing.T) {
	s := &reports.Summary{Game: "g", Variant: "v", Games: 10}
	half := 0.5
	e := variants.Expectation{Metric: "seat0_wins", Max: &half}
	vs := []Verdict{{Expectation: e, Outcome: Inconclusive, N: 10}, {Expectation: e, Outcome: Inconclusive, N: 10}, {Expectation: e, Outcome: Pass, N: 10}}
	for _, c := range []struct {
		fails             bool
		failures, skipped int
		code              int
	}{{false, 0, 2, ExitInconclusive}, {true, 2, 0, ExitFail}} {
		var b bytes.Buffer
		if err := WriteJUnit(&b, s, vs, c.fails); err != nil {
			t.Fatal(err)
		}
		var root struct {
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
			Suites   []struct {
				Failures int `xml:"failures,attr"`
				Skipped  int `xml:"skipped,attr"`
				Cases    []struct {
					Failure *struct {
						Type string `xml:"type,attr"`
					} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(b.Bytes(), &root); err != nil {
			t.Fatal(err)
		}
		suite := root.Suites[0]
		if root.Failures != c.failures || root.Skipped != c.skipped || suite.Failures != c.failures || suite.Skipped != c.skipped {
			t.Errorf("inconclusive fails %v: failures %d/%d skipped %d/%d, want %d and %d", c.fails, root.Failures, suite.Failures, root.Skipped, suite.Skipped, c.failures, c.skipped)
		}
		if c.fails && (suite.Cases[0].Failure == nil || suite.Cases[0].Failure.Type != "inconclusive") {
			t.Errorf("an inconclusive bound that fails is not a failure of type inconclusive: %s", b.String())
		}
		if got := ExitCode(vs, c.fails); got != c.code || NewReport(s, vs, c.fails).ExitCode != c.code {
			t.Errorf("inconclusive fails %v: exit %d, want %d", c.fails, got, c.code)
		}
	}
}
