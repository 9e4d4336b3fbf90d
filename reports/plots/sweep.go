package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"playtest/reports"
)

// Against draws a metric against the values of one knob, each point with
// its 95% interval as an error bar, and a dashed reference line at ref when
// ref is not nil (½ for a win rate).
func Against(title, knob, metric string, labels []string, est []reports.MetricEstimate, ref *float64) (*plot.Plot, error) {
	return against(title, knob, metric, labels, est, ref, true)
}

// Estimates draws estimates of unrelated things (each knob's values, say)
// side by side, each point with its 95% interval: Against without the
// line joining the points.
func Estimates(title, xLabel, metric string, labels []string, est []reports.MetricEstimate) (*plot.Plot, error) {
	return against(title, xLabel, metric, labels, est, nil, false)
}

// EstimatesAgainst is Estimates with a dashed reference line at ref (0:
// no effect).
func EstimatesAgainst(title, xLabel, metric string, labels []string, est []reports.MetricEstimate, ref float64) (*plot.Plot, error) {
	return against(title, xLabel, metric, labels, est, &ref, false)
}

func against(title, knob, metric string, labels []string, est []reports.MetricEstimate, ref *float64, joined bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = knob
	p.Y.Label.Text = metric + " (95% intervals)"
	pts := errorPoints{XYs: make(plotter.XYs, len(est)), YErrors: make(plotter.YErrors, len(est))}
	for i, e := range est {
		pts.XYs[i] = plotter.XY{X: float64(i), Y: e.Value}
		pts.YErrors[i].Low, pts.YErrors[i].High = e.Value-e.Low, e.High-e.Value
	}
	line, scatter, err := plotter.NewLinePoints(pts.XYs)
	if err != nil {
		return nil, err
	}
	line.Color, scatter.Color = barColor, barColor
	scatter.Shape = draw.CircleGlyph{}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	eb.Color = errorColor
	eb.Width = vg.Points(1.2)
	if joined {
		p.Add(line)
	}
	p.Add(scatter, eb)
	if ref != nil {
		r, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: *ref}, {X: float64(len(est)) - 0.5, Y: *ref}})
		if err != nil {
			return nil, err
		}
		r.Color = color.Gray{Y: 120}
		r.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(r)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(est))-0.5
	if share(est) {
		p.Y.Min, p.Y.Max = 0, 1
	} else {
		headroom(p)
	}
	if len(labels) > 6 {
		p.X.Tick.Label.Rotation = 0.5
		p.X.Tick.Label.XAlign = draw.XRight
	}
	return p, nil
}

// grid is a matrix of cell values for a heat map: values[row][col].
type grid [][]float64

func (g grid) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g grid) Z(c, r int) float64 { return g[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// Scale is a heat map's colour legend: the value at each end of the
// diverging scale and in its middle, with what each means.
type Scale struct {
	Lo, Mid, Hi             float64
	LoText, MidText, HiText string
}

// HeatMap draws values[row][col] for two knobs (columns along x, rows along
// y, the first row at the top as a table reads) on a diverging scale, each
// cell labelled with its text, and a legend of the scale's colours.
func HeatMap(title, xKnob, yKnob string, xLabels, yLabels []string, values [][]float64, cells [][]string, scale Scale) (*plot.Plot, error) {
	if len(values) == 0 || len(values[0]) == 0 {
		return nil, fmt.Errorf("heat map %q has no cells", title)
	}
	n := len(values)
	flip := func(r int) int { return n - 1 - r } // gonum's y grows upward
	flipped := make([][]float64, n)
	ys := make([]string, n)
	for r := range values {
		flipped[flip(r)] = values[r]
		ys[flip(r)] = yLabels[r]
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xKnob
	p.Y.Label.Text = yKnob
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(scale.Lo)
	cmap.SetMax(scale.Hi)
	h := plotter.NewHeatMap(grid(flipped), cmap.Palette(255))
	h.Min, h.Max = scale.Lo, scale.Hi
	p.Add(h)
	for _, e := range []struct {
		v    float64
		text string
	}{{scale.Hi, scale.HiText}, {scale.Mid, scale.MidText}, {scale.Lo, scale.LoText}} {
		c, err := cmap.At(e.v)
		if err != nil {
			return nil, err
		}
		p.Legend.Add(e.text, swatch{c})
	}
	p.Legend.Top = true
	p.Legend.Left = false
	var labels plotter.XYLabels
	for r, row := range cells {
		for c, s := range row {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(c), Y: float64(flip(r))})
			labels.Labels = append(labels.Labels, s)
		}
	}
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = text.XCenter
		l.TextStyle[i].YAlign = text.YCenter
	}
	p.Add(l)
	p.NominalX(xLabels...)
	p.NominalY(ys...)
	p.X.Min, p.X.Max = -0.5, float64(len(xLabels))-0.5
	// Room above the cells for the legend.
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5+0.25*float64(max(1, len(ys)))
	return p, nil
}

// swatch is a legend thumbnail filled with one colour.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.c, []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	})
}

// share says every estimate lies in [0, 1], as rates and scores do.
func share(est []reports.MetricEstimate) bool {
	for _, e := range est {
		if e.Low < 0 || e.High > 1 {
			return false
		}
	}
	return true
}
