package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a Lines plot: Y[i] at the i-th of the plot's x
// labels, from the label First on (a line may start late or end early).
// A Faint series is drawn in grey and left out of the legend.
type Series struct {
	Name  string
	First int
	Y     []float64
	Faint bool
}

// Lines draws each series as a line with points against nominal x labels
// (rounds, say), the series that are not faint in colours named in a
// legend, the faint ones in grey behind them.
func Lines(title, xLabel, yLabel string, xLabels []string, series []Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	colours, err := brewer.GetPalette(brewer.TypeQualitative, "Dark2", 8)
	if err != nil {
		return nil, err
	}
	named := 0
	for pass := range 2 { // the faint ones first, underneath
		for _, s := range series {
			if s.Faint != (pass == 0) || len(s.Y) == 0 {
				continue
			}
			xys := make(plotter.XYs, len(s.Y))
			for i, y := range s.Y {
				xys[i] = plotter.XY{X: float64(s.First + i), Y: y}
			}
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			c := color.Color(color.Gray{Y: 190})
			if !s.Faint {
				c = colours.Colors()[named%len(colours.Colors())]
				named++
			}
			line.Color, points.Color = c, c
			line.Width = vg.Points(1.2)
			points.Shape = draw.CircleGlyph{}
			p.Add(line, points)
			if !s.Faint {
				p.Legend.Add(s.Name, line, points)
			}
		}
	}
	p.NominalX(xLabels...)
	p.X.Min, p.X.Max = -0.5, float64(len(xLabels))-0.5
	p.Legend.Top = true
	return p, nil
}
