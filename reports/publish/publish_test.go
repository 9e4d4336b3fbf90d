package publish

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"playtest/reports"
	"testing"
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
