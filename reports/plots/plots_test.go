package plots

import (
	"bytes"
	"image/png"
	"math"
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
	length, note, err := Histogram("length", "plies", &h)
	if err != nil || note != "" {
		t.Fatal(err, note)
	}
	// Whole-number bars: one per value from 5 to 30.
	if bins := length.X.Tick.Marker.Ticks(4.5, 30.5); len(bins) == 0 || bins[0].Value != 5 {
		t.Errorf("ticks %v", bins)
	}
	for _, tick := range (wholeTicks{}).Ticks(-0.5, 30.5) {
		if tick.Value != math.Trunc(tick.Value) {
			t.Errorf("tick %v is not a whole number", tick.Value)
		}
	}
	if empty, note, err := Histogram("empty", "x", &stats.Histogram{}); empty != nil || note != "" || err != nil {
		t.Error("a histogram of nothing should be nil")
	}
	var fixed stats.Histogram
	for range 5 {
		fixed.Add(28)
	}
	if p, note, err := Histogram("Game length", "plies", &fixed); p != nil || err != nil || note != "Game length: every one of the 5 games had plies 28." {
		t.Errorf("one value: %v %q %v", p, note, err)
	}
	heat, err := HeatMap("h", "x", "y", []string{"a", "b"}, []string{"first", "second"}, [][]float64{{0.4, 0.5}, {0.6, 0.7}},
		[][]string{{"40%", "50%"}, {"60%", "70%\nseat 0 favoured"}}, Scale{0.3, 0.5, 0.7, "30%", "50%", "70%"})
	if err != nil {
		t.Fatal(err)
	}
	// Reading order: the first row (first) at the top, where y is largest.
	if ticks := heat.Y.Tick.Marker.Ticks(heat.Y.Min, heat.Y.Max); len(ticks) < 2 || ticks[len(ticks)-1].Label != "first" {
		t.Errorf("y ticks %v: the first row should be at the top", ticks)
	}
	dir := t.TempDir()
	for _, f := range []Figure{{Name: "outcomes", Plot: out}, {Name: "rates", Plot: rates}, {Name: "length", Plot: length}, {Name: "heat", Plot: heat}} {
		if err := Save(dir, f); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, f.Name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() < 1150 || img.Bounds().Dx() > 1300 {
			t.Errorf("%s.png: %v, want about 1,200 pixels wide", f.Name, err)
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
