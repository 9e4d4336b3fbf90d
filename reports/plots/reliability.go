package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"playtest/reports"
)

// Reliability draws a calibration plot: for each bin of predicted chance,
// the mean result (with its 95% Wilson interval over the bin's positions)
// against the mean prediction, and the diagonal a calibrated model lies
// on. Bins with no positions are left out.
func Reliability(title string, predicted []float64, observed []reports.MetricEstimate) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "predicted chance of winning (mean of the bin)"
	p.Y.Label.Text = "result (mean of the bin, 95% intervals)"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	diag.Color = color.Gray{Y: 120}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	p.Legend.Add("calibrated", diag)
	p.Legend.Top, p.Legend.Left = true, true
	pts := errorPoints{}
	for i, o := range observed {
		if o.N == 0 {
			continue
		}
		pts.XYs = append(pts.XYs, plotter.XY{X: predicted[i], Y: o.Value})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{o.Value - o.Low, o.High - o.Value})
	}
	if len(pts.XYs) == 0 {
		return p, nil
	}
	sc, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return nil, err
	}
	sc.Color = barColor
	sc.Shape = draw.CircleGlyph{}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	eb.Color = errorColor
	p.Add(sc, eb)
	p.Legend.Add("held-out positions", sc)
	return p, nil
}
