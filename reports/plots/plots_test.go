package plots

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"playtest/reports"
	"playtest/reports/howplays"
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

// TestFiguresKeepTheirRoom (issue 53): the tallest bar and the highest
// whisker stand below the top of their plot, and the traces' legend,
// drawn in the top corner at the saved size, stays above every curve,
// however many examples it names.
func TestFiguresKeepTheirRoom(t *testing.T) {
	r := &howplays.Report{Games: 100, AfterDecided: []int{5, 40, 12, 3, 0, 0, 0, 0, 0, 1}}
	for n := 1; n <= 6; n++ {
		ex := howplays.Example{Label: "a long label to make the legend wide", Index: n, Winner: "seat 0", P: []float64{0.5, 0.97, 1, 0.99, 1}}
		r.Examples = append(r.Examples, ex)
		p, err := Traces(r)
		if err != nil {
			t.Fatal(err)
		}
		da := p.DataCanvas(draw.New(vgimg.New(Width, Height)))
		legend := p.Legend.Rectangle(da)
		// The data top (100%) in the canvas, against the legend's bottom.
		top := da.Min.Y + vg.Length((1-p.Y.Min)/(p.Y.Max-p.Y.Min))*(da.Max.Y-da.Min.Y)
		if top > legend.Min.Y {
			t.Errorf("%d examples: 100%% is drawn at %v, above the legend's bottom %v: the legend covers the curves", n, top, legend.Min.Y)
		}
	}
	after, err := AfterDecided(r)
	if err != nil {
		t.Fatal(err)
	}
	if after.Y.Max <= 40 {
		t.Errorf("the decided-share histogram ends at %v, its tallest bar's height: the frame cuts it", after.Y.Max)
	}
	var h stats.Histogram
	for _, v := range []int{5, 7, 7, 7, 9} {
		h.Add(v)
	}
	length, _, err := Histogram("length", "plies", &h)
	if err != nil {
		t.Fatal(err)
	}
	if length.Y.Max <= 3 {
		t.Errorf("the length histogram ends at %v, its tallest bar's height", length.Y.Max)
	}
	worth, err := EstimatesAgainst("worth", "mechanic", "points", []string{"a", "b"}, []reports.MetricEstimate{{Value: 3.5, Low: -4.5, High: 11.2}, {Value: 46, Low: 41, High: 48.3}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if worth.Y.Max <= 48.3 || worth.Y.Min >= -4.5 {
		t.Errorf("the worth plot spans [%v, %v]: a whisker touches its edge", worth.Y.Min, worth.Y.Max)
	}
	for _, tick := range worth.Y.Tick.Marker.Ticks(worth.Y.Min, worth.Y.Max) {
		if tick.Label == "-0" || strings.Contains(tick.Label, ".00") {
			t.Errorf("a tick written %q", tick.Label)
		}
	}
}
