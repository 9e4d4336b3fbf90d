package check

import (
	"encoding/xml"
	"fmt"
	"io"

	"playtest/reports"
)

// junitSuites is the root of a JUnit XML report.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the verdicts as JUnit XML, one test case per bound, for
// CI systems that read it: a failed bound is a failure, an inconclusive one
// is skipped (more games would decide; playtest check exits 3), or, when
// inconclusiveFails, a failure of type "inconclusive" (check exits 1): many
// CI systems show a suite of skipped tests as green.
func WriteJUnit(w io.Writer, s *reports.Summary, vs []Verdict, inconclusiveFails bool) error {
	suite := junitSuite{Name: s.VariantLabel(), Tests: len(vs), Time: fmt.Sprintf("%.3f", s.Timing.ElapsedSeconds),
		Properties: []junitProperty{
			{"game", s.Game}, {"games", fmt.Sprint(s.Games)}, {"seed", fmt.Sprint(s.Seed)},
			{"config_hash", s.ConfigHash}, {"headline", s.Headline.Text},
		}}
	for _, v := range vs {
		c := junitCase{ClassName: "playtest.check." + s.Variant, Name: boundName(v) + " " + bound(v.Expectation), Time: "0",
			SystemOut: verdictLine(v)}
		switch v.Outcome {
		case Fail:
			suite.Failures++
			c.Failure = &junitMessage{Message: "the 95% interval lies outside the bound", Type: "fail", Text: verdictLine(v)}
		case Inconclusive:
			suite.Skipped++
			msg := "inconclusive: the 95% interval straddles the bound; more games would decide"
			switch {
			case v.N == 0:
				msg = "inconclusive: no game measured it; more games (or other bots) may reach the situation it measures"
			case v.Repeated:
				msg = "inconclusive: the games repeat themselves, so the interval overstates what is known. " + RepeatedAdvice
			}
			if inconclusiveFails {
				suite.Skipped--
				suite.Failures++
				c.Failure = &junitMessage{Message: msg, Type: "inconclusive", Text: verdictLine(v)}
			} else {
				c.Skipped = &junitMessage{Message: msg, Text: verdictLine(v)}
			}
		}
		suite.Cases = append(suite.Cases, c)
	}
	root := junitSuites{Name: "playtest check", Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
