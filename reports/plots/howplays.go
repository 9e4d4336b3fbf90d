package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"playtest/reports/howplays"
)

// Traces draws the example games' win-probability traces: seat 0's chance
// of winning before each decision and the result, the 50% line, and each
// game's turning points as larger marks. Nil when there is no example.
func Traces(r *howplays.Report) (*plot.Plot, error) {
	if r == nil || len(r.Examples) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Seat 0's chance of winning, decision by decision (%d traced games; %s mapping)", r.Games, r.Mapping.Source)
	p.X.Label.Text = "decision"
	p.Y.Label.Text = "seat 0's chance of winning"
	// Ticks only from 0% to 100%; the room above it for the legend is set
	// once its entries are known (roomForLegend).
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0%"}, {Value: 0.25, Label: "25%"}, {Value: 0.5, Label: "50%"}, {Value: 0.75, Label: "75%"}, {Value: 1, Label: "100%"}})
	colours, err := brewer.GetPalette(brewer.TypeQualitative, "Dark2", 8)
	if err != nil {
		return nil, err
	}
	last := 0
	for _, ex := range r.Examples {
		last = max(last, len(ex.P)-1)
	}
	even, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0.5}, {X: float64(last), Y: 0.5}})
	if err != nil {
		return nil, err
	}
	even.Color, even.Dashes = color.Gray{Y: 150}, []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(even)
	for i, ex := range r.Examples {
		c := colours.Colors()[i%len(colours.Colors())]
		xys := make(plotter.XYs, len(ex.P))
		for t, v := range ex.P {
			xys[t] = plotter.XY{X: float64(t), Y: v}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = c, vg.Points(1.4)
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("game %d: %s, %s won", ex.Index, ex.Label, ex.Winner), line)
		if len(ex.Turning) > 0 {
			marks := make(plotter.XYs, len(ex.Turning))
			for k, t := range ex.Turning {
				marks[k] = plotter.XY{X: float64(t + 1), Y: ex.P[t+1]}
			}
			sc, err := plotter.NewScatter(marks)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.RingGlyph{}}
			p.Add(sc)
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	roomForLegend(p, 1)
	return p, nil
}

// AfterDecided draws how much of each decisive game was played after it
// was decided: games by the share of their decisions, in tenths. Nil when
// no game was decisive.
func AfterDecided(r *howplays.Report) (*plot.Plot, error) {
	if r == nil {
		return nil, nil
	}
	total := 0
	values := make(plotter.Values, len(r.AfterDecided))
	for i, n := range r.AfterDecided {
		values[i] = float64(n)
		total += n
	}
	if total == 0 {
		return nil, nil
	}
	bars, err := plotter.NewBarChart(values, vg.Points(22))
	if err != nil {
		return nil, err
	}
	bars.Color, bars.LineStyle.Color = barColor, color.White
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Share of the game played after it was decided (%d decisive games)", total)
	p.X.Label.Text = "share of the decisions after the winner's chance stayed above 90%"
	p.Y.Label.Text = "games"
	labels := make([]string, len(values))
	for i := range labels {
		labels[i] = fmt.Sprintf("%d–%d%%", 10*i, 10*i+10)
	}
	p.NominalX(labels...)
	p.Add(bars)
	headroom(p)
	return p, nil
}
