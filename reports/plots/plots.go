package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"playtest/reports"
	"playtest/reports/stats"
)

// Figure is one plot with its file name (without extension) and caption.
type Figure struct {
	Name    string
	Caption string
	Plot    *plot.Plot
}

// Size of the saved figures: 16 cm by 10 cm (SVGs scale as they are).
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// PNGDPI is the resolution of the saved PNGs: at 192 dots per inch a
// figure is about 1,200 pixels wide, sharp on a high-density screen.
// Tests of commands, which read no pixels, lower it: drawing and encoding
// a PNG costs its pixels, and is most of what writing a report costs.
var PNGDPI = 192

var (
	barColor   = color.RGBA{R: 70, G: 120, B: 180, A: 255}
	scoreColor = color.RGBA{R: 200, G: 120, B: 40, A: 255}
	errorColor = color.RGBA{R: 20, G: 20, B: 20, A: 255}
)

// Outcomes draws seat 0's score as the headline measures it (over pairs, a
// draw counting ½; without pairs its share of decisive games) beside the
// seat 0 and seat 1 win rates and the draw rate, each with its 95%
// interval as an error bar. The dashed 50% line (no seat advantage) runs
// under the score bar only: with draws, 50% of wins is not even.
func Outcomes(s *reports.Summary) (*plot.Plot, error) {
	h := s.Headline
	score := "seat 0 score"
	if h.Unit != "pairs" {
		score = "seat 0 of decisive"
	}
	labels := []string{score, "seat 0 wins", "seat 1 wins", "draws"}
	rates := []reports.Rate{{Rate: h.Value, Low: h.Low, High: h.High, N: h.N}, s.Rates.Seat0, s.Rates.Seat1, s.Rates.Draw}
	if s.Stalled.Count > 0 {
		labels = append(labels, "stalled")
		rates = append(rates, s.Stalled)
	}
	colours := make([]color.Color, len(rates))
	colours[0] = scoreColor
	for i := 1; i < len(colours); i++ {
		colours[i] = barColor
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Outcomes of %d games (95%% intervals)", s.Games)
	p.Y.Label.Text = "share of games (score: of points)"
	p.Y.Min, p.Y.Max = 0, 1
	if err := rateBars(p, labels, rates, colours); err != nil {
		return nil, err
	}
	legend := "50% of " + h.Measure + ": no seat advantage"
	if h.Unit == "pairs" {
		legend = "50% of seat 0's score (a draw ½): no seat advantage"
	}
	if err := addReference(p, 0.5, 1, legend); err != nil {
		return nil, err
	}
	return p, nil
}

// addReference draws a dashed horizontal line at y across n nominal x
// positions, named in the legend.
func addReference(p *plot.Plot, y, n float64, name string) error {
	r, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: y}, {X: n - 0.5, Y: y}})
	if err != nil {
		return err
	}
	r.Color = color.Gray{Y: 110}
	r.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(r)
	if name != "" {
		p.Legend.Add(name, r)
		p.Legend.Top = true
	}
	return nil
}

// Rates draws the game-specific rates with their intervals, or returns nil
// when the run has none. Related rates (one family: the same name before
// its first dot, such as pie.*) share a colour and stand together.
func Rates(s *reports.Summary) (*plot.Plot, error) {
	var labels []string
	var rates []reports.Rate
	var family []int
	last := ""
	for _, m := range s.Metrics { // sorted by name, so families are adjacent
		if m.Rate == nil {
			continue
		}
		prefix, _, _ := strings.Cut(m.Name, ".")
		if len(family) == 0 || prefix != last {
			family = append(family, 0)
		}
		family[len(family)-1]++
		last = prefix
		labels = append(labels, m.Name)
		rates = append(rates, *m.Rate)
	}
	if len(rates) == 0 {
		return nil, nil
	}
	colours := make([]color.Color, 0, len(rates))
	for f, n := range family {
		for range n {
			colours = append(colours, familyColors[f%len(familyColors)])
		}
	}
	p := plot.New()
	p.Title.Text = "Game-specific rates (95% intervals)"
	p.Y.Label.Text = "share of the games where the rate applies"
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Tick.Label.Rotation = 0.5
	p.X.Tick.Label.XAlign = draw.XRight
	if err := rateBars(p, labels, rates, colours); err != nil {
		return nil, err
	}
	return p, nil
}

// familyColors tell the families of rates apart.
var familyColors = []color.Color{
	barColor,
	color.RGBA{R: 225, G: 130, B: 40, A: 255},
	color.RGBA{R: 80, G: 160, B: 90, A: 255},
	color.RGBA{R: 150, G: 100, B: 180, A: 255},
}

// rateBars adds bars for rates with error bars for their intervals, each
// bar in its colour (barColor when colours is nil).
func rateBars(p *plot.Plot, labels []string, rates []reports.Rate, colours []color.Color) error {
	bars := errorPoints{XYs: make(plotter.XYs, len(rates)), YErrors: make(plotter.YErrors, len(rates))}
	for i, r := range rates {
		values := make(plotter.Values, len(rates))
		values[i] = r.Rate
		bc, err := plotter.NewBarChart(values, vg.Points(28))
		if err != nil {
			return err
		}
		bc.Color = barColor
		if colours != nil {
			bc.Color = colours[i]
		}
		bc.LineStyle.Width = 0
		p.Add(bc)
		bars.XYs[i] = plotter.XY{X: float64(i), Y: r.Rate}
		bars.YErrors[i].Low, bars.YErrors[i].High = r.Rate-r.Low, r.High-r.Rate
	}
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return err
	}
	eb.Color = errorColor
	eb.Width = vg.Points(1.2)
	p.Add(eb)
	p.NominalX(labels...)
	// Half a slot of room either side, so the end bars are not cut at the
	// plot's edges.
	p.X.Min, p.X.Max = -0.5, float64(len(rates))-0.5
	return nil
}

type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// MaxBins is the most bars a histogram draws; wider ranges group whole
// numbers into bars of equal width.
const MaxBins = 40

// Histogram draws the distribution of integer values kept in h (for
// instance game length or score margin): bars on whole-number boundaries
// (one value each, or an equal run of values when the range is wide) and
// whole-number ticks. It returns nil when h is empty and, with a note
// instead, when every game had the same value (one solid bar says less
// than the sentence).
func Histogram(title, xLabel string, h *stats.Histogram) (p *plot.Plot, note string, err error) {
	values := h.Values()
	if len(values) == 0 {
		return nil, "", nil
	}
	lo, hi := values[0], values[len(values)-1]
	if lo == hi {
		return nil, fmt.Sprintf("%s: every one of the %d games had %s %d.", title, h.N(), xLabel, lo), nil
	}
	width := (hi - lo + MaxBins) / MaxBins // whole numbers per bar
	bins := make([]plotter.HistogramBin, (hi-lo)/width+1)
	for i := range bins {
		start := lo + i*width
		bins[i] = plotter.HistogramBin{Min: float64(start) - 0.5, Max: float64(start+width) - 0.5}
	}
	for _, v := range values {
		bins[(v-lo)/width].Weight += float64(h.Count(v))
	}
	hist := &plotter.Histogram{Bins: bins, Width: float64(width), FillColor: barColor,
		LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}}
	p = plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "games"
	p.X.Tick.Marker = wholeTicks{}
	p.Y.Tick.Marker = wholeTicks{}
	p.Add(hist)
	headroom(p)
	return p, "", nil
}

// headroomShare is the room left above the highest bar or whisker of a
// plot whose range follows its data, as a share of the range: the frame
// does not cut the tallest bar, and a whisker does not touch the top.
const headroomShare = 0.06

// headroom widens p's y range by headroomShare of it above its data, and
// below it when the data go below zero. Call it once every plotter is
// added.
func headroom(p *plot.Plot) {
	span := p.Y.Max - p.Y.Min
	if !(span > 0) {
		return
	}
	p.Y.Max += headroomShare * span
	if p.Y.Min < 0 {
		p.Y.Min -= headroomShare * span
	}
	if _, dflt := p.Y.Tick.Marker.(plot.DefaultTicks); dflt && span >= 8 {
		p.Y.Tick.Marker = wholeTicks{} // the default would write 50.00 on an odd range
	}
}

// roomForLegend sets p's y maximum so that data no higher than top stay
// under the legend drawn in the plot's top corner, at the saved figures'
// size: the legend never covers a curve. Call it once the legend's
// entries are added.
func roomForLegend(p *plot.Plot, top float64) {
	c := draw.New(vgimg.New(Width, Height))
	da := p.DataCanvas(c)
	h := float64(da.Max.Y - da.Min.Y)
	legend := p.Legend.Rectangle(da)
	band := (float64(legend.Max.Y-legend.Min.Y) + 2*float64(p.Legend.Padding)) / h
	if band >= 0.8 {
		band = 0.8 // a legend of very many lines: the plot keeps a fifth
	}
	p.Y.Max = p.Y.Min + (top-p.Y.Min)/(1-band)
}

// wholeTicks marks whole numbers only, at a step of 1, 2 or 5 times a power
// of ten that gives at most about eight labels.
type wholeTicks struct{}

func (wholeTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Ceil(min), math.Floor(max)
	if hi < lo {
		return nil
	}
	step := 1.0
	for mult := 0; (hi-lo)/step > 8; mult++ {
		step = []float64{1, 2, 5}[mult%3] * math.Pow(10, float64(mult/3))
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		v = math.Round(v) + 0 // no "-0" from the sum of the steps
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// Save writes the figure as NAME.svg and NAME.png in dir, each through a
// temporary file.
func Save(dir string, f Figure) error {
	for _, format := range []string{"svg", "png"} {
		data, err := Render(f.Plot, format)
		if err != nil {
			return fmt.Errorf("plot %s: %w", f.Name, err)
		}
		path := filepath.Join(dir, f.Name+"."+format)
		if err := reports.WriteFileAtomic(path, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// Render draws a plot in a format ("svg" or "png") at the standard size;
// PNGs at PNGDPI.
func Render(p *plot.Plot, format string) ([]byte, error) {
	var b bytes.Buffer
	if format == "png" {
		c := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(PNGDPI))
		p.Draw(draw.New(c))
		// The fastest compression: a plot's flat colours compress well
		// at any level, and the default level takes most of the time a
		// report spends on its figures.
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&b, c.Image()); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	wt, err := p.WriterTo(Width, Height, format)
	if err != nil {
		return nil, err
	}
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
