package publish

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/reports"
)

func TestCodeSpans(t *testing.T) {
	tests := map[string]string{
		"run `playtest skill a<b>` now": "run <code>playtest skill a&lt;b&gt;</code> now",
		"no code & more":                "no code &amp; more",
		"odd ` quote":                   "odd ` quote",
		"`a` and `b`":                   "<code>a</code> and <code>b</code>",
	}
	for in, want := range tests {
		if got := string(codeSpans(in)); got != want {
			t.Errorf("codeSpans(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzReportFromSummary: a summary.json playtest report accepts (it may
// have been edited) always renders report.md and report.html; one it
// cannot render is refused as read, never a template error or a panic
// (issue 31).
func FuzzReportFromSummary(f *testing.F) {
	good, err := os.ReadFile(filepath.Join("testdata", "summary.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"mean": {`), []byte(`"meen": {`), 1))
	f.Add(bytes.Replace(good, []byte(`"kind": "rate"`), []byte(`"kind": "value"`), 1))
	f.Add(bytes.Replace(good, []byte(`"pair_stats": {`), []byte(`"pair_stats": null, "x": {`), 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := reports.ReadSummary(bytes.NewReader(b))
		if err != nil {
			return
		}
		r := &Report{Summary: s}
		if err := r.WriteMarkdown(io.Discard); err != nil {
			t.Fatalf("report.md: %v", err)
		}
		if err := r.WriteHTML(io.Discard); err != nil {
			t.Fatalf("report.html: %v", err)
		}
	})
}

// TestBookBotInReports: report.md and report.html say, under their
// header, that a book bot chose the openings and that they are not
// proven; a run without one says nothing of it.
func TestBookBotInReports(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bookBot := range []string{"alphabeta, 2,000 nodes (noise 0.5)", ""} {
		s, err := reports.ReadSummary(bytes.NewReader(good))
		if err != nil {
			t.Fatal(err)
		}
		s.Book, s.BookBot = 14, bookBot
		r := &Report{Summary: s}
		var md, html bytes.Buffer
		if err := r.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteHTML(&html); err != nil {
			t.Fatal(err)
		}
		want := bookBot != ""
		for name, doc := range map[string]string{"report.md": md.String(), "report.html": html.String()} {
			if said := strings.Contains(doc, "first 14 decisions were chosen by the book bot alphabeta, 2,000 nodes (noise 0.5) (not proven"); said != want {
				t.Errorf("%s with book bot %q: said %v", name, bookBot, said)
			}
		}
	}
}
