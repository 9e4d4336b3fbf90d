package plots

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"playtest/reports"
	"playtest/reports/stats"
)

func TestFigures(t *testing.T) {
	s := &reports.Summary{Games: 10,
		Rates:   reports.OutcomeRates{Seat0: reports.NewRate(6, 10), Seat1: reports.NewRate(3, 10), Draw: reports.NewRate(1, 10)},
		Stalled: reports.NewRate(1, 10),
		Metrics: []reports.Metric{{Name: "pie.swap", Kind: "rate", Rate: new(reports.NewRate(2, 5))}},
	}
	out, err := Outcomes(s)
	if err != nil {
		t.Fatal(err)
	}
	rates, err := Rates(s)
	if err != nil || rates == nil {
		t.Fatalf("rates: %v", err)
	}
	var h stats.Histogram
	for _, v := range []int{5, 7, 7, 9, 30} {
		h.Add(v)
	}
	length, err := Histogram("length", "plies", &h)
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := Histogram("empty", "x", &stats.Histogram{}); empty != nil || err != nil {
		t.Error("a histogram of nothing should be nil")
	}
	dir := t.TempDir()
	for _, f := range []Figure{{Name: "outcomes", Plot: out}, {Name: "rates", Plot: rates}, {Name: "length", Plot: length}} {
		if err := Save(dir, f); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, f.Name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() < 100 {
			t.Errorf("%s.png: %v", f.Name, err)
		}
		svg, _ := os.ReadFile(filepath.Join(dir, f.Name+".svg"))
		if !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s.svg is not SVG", f.Name)
		}
	}
	s.Metrics = nil
	if p, _ := Rates(s); p != nil {
		t.Error("rates plot without rate metrics")
	}
}
