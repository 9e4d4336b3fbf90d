package reports

import (
	"slices"
	"strings"

	"playtest/reports/howplays"

	"playtest/reports/stats"
)

// MetricEstimate is a metric's value with its 95% interval [Low, High] and
// its sample size N.
type MetricEstimate struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	N     int     `json:"n"`
}

// builtinRates are the built-in metrics that are shares between 0 and 1.
var builtinRates = []string{"seat0_wins", "seat1_wins", "draws", "stalled", "balance", Seat0Score}

// Seat0Score is the name of seat 0's score (a win 1, a draw ½, a loss 0)
// in every command: over seat-swapped pairs when the run plays them, else
// over games.
const Seat0Score = "seat0_score"

// MetricAliases are older names of metrics, still accepted wherever a
// metric is named (so files written before keep working) and read as the
// name they map to.
var MetricAliases = map[string]string{"seat0_pair_score": Seat0Score}

// CanonicalMetric is the metric's name, an alias read as its metric.
func CanonicalMetric(name string) string {
	if m, ok := MetricAliases[name]; ok {
		return m
	}
	return name
}

// IsRate reports whether the summary reports metric as a share between 0
// and 1 (a rate), and whether it knows the metric at all.
func (s *Summary) IsRate(metric string) (rate, known bool) {
	metric = CanonicalMetric(metric)
	if slices.Contains(builtinRates, metric) {
		return true, true
	}
	if slices.Contains(BuiltinMetrics, metric) {
		return false, true
	}
	for _, m := range s.Metrics {
		if m.Name == metric {
			return m.Rate != nil, true
		}
	}
	if name, ok := strings.CutPrefix(metric, PlayPrefix); ok {
		if f, found := s.HowItPlays.Find(name); found {
			return f.Unit == howplays.UnitShare, true
		}
	}
	return false, false
}

// BuiltinMetrics names the metrics every summary has, for Lookup.
var BuiltinMetrics = []string{"seat0_wins", "seat1_wins", "draws", "stalled", "balance", "plies", Seat0Score}

func rateEstimate(r Rate) MetricEstimate { return MetricEstimate{r.Rate, r.Low, r.High, r.N} }

// Lookup returns a metric of the summary by name: a builtin one (see
// BuiltinMetrics) or a game-specific one. For a game's value metric, stat
// "min" or "max" gives its extreme over all games (the interval is the
// value itself); otherwise its mean with the bootstrap interval when there
// is one. ok is false for a metric the summary does not have.
func (s *Summary) Lookup(metric, stat string) (e MetricEstimate, ok bool) {
	switch metric = CanonicalMetric(metric); metric {
	case "seat0_wins":
		return rateEstimate(s.Rates.Seat0), true
	case "seat1_wins":
		return rateEstimate(s.Rates.Seat1), true
	case "draws":
		return rateEstimate(s.Rates.Draw), true
	case "stalled":
		return rateEstimate(s.Stalled), true
	case "balance":
		b := s.Balance.Balance
		return MetricEstimate{b.Value, b.Low, b.High, s.Games}, true
	case "plies":
		d := s.Balance.DurationTurns
		return MetricEstimate{d.Value, d.Low, d.High, s.Games}, true
	case Seat0Score:
		if p := s.PairStats; p != nil {
			return MetricEstimate{p.Seat0.Score, p.Seat0.CI.Low, p.Seat0.CI.High, p.Seat0.Pairs}, true
		}
		o := s.Outcomes
		n := o.Seat0 + o.Seat1 + o.Draw
		if n == 0 {
			return e, false
		}
		// Without pairs, over games: a Wilson interval for a mean of values
		// in [0, 1], whose variance is at most that of a 0/1 rate.
		mean := (float64(o.Seat0) + float64(o.Draw)/2) / float64(n)
		iv := stats.WilsonMean(mean, n, stats.Z95)
		return MetricEstimate{mean, iv.Low, iv.High, n}, true
	}
	if name, ok := strings.CutPrefix(metric, PlayPrefix); ok {
		f, found := s.HowItPlays.Find(name)
		if !found || stat != "" {
			return e, false
		}
		return MetricEstimate{f.Value, f.Low, f.High, f.N}, true
	}
	for _, m := range s.Metrics {
		if m.Name != metric {
			continue
		}
		switch mean := m.Mean; {
		case m.Rate != nil:
			return rateEstimate(*m.Rate), true
		case stat == "min":
			return MetricEstimate{mean.Min, mean.Min, mean.Min, mean.N}, true
		case stat == "max":
			return MetricEstimate{mean.Max, mean.Max, mean.Max, mean.N}, true
		case mean.Bootstrap != nil:
			return MetricEstimate{mean.Mean, mean.Bootstrap.Low, mean.Bootstrap.High, mean.N}, true
		default:
			return MetricEstimate{mean.Mean, mean.Low, mean.High, mean.N}, true
		}
	}
	return e, false
}

// MetricNames lists, sorted, the metrics Lookup finds in this summary.
func (s *Summary) MetricNames() []string {
	var names []string
	for _, name := range BuiltinMetrics {
		if _, ok := s.Lookup(name, ""); ok {
			names = append(names, name)
		}
	}
	for _, m := range s.Metrics {
		names = append(names, m.Name)
	}
	if s.HowItPlays != nil {
		for _, f := range s.HowItPlays.Figures {
			names = append(names, PlayPrefix+f.Name)
		}
	}
	slices.Sort(names)
	return names
}

// PlayPrefix names How it plays' figures as metrics, wherever a metric is
// named (check bounds, sweep and tune metrics): play.after_decided.
const PlayPrefix = "play."

// RatesAndLength are a run's seat, draw and stall rates and its mean length: the
// columns sweeps (per variant) and skill ladders (per rung) show.
type RatesAndLength struct {
	Seat0   Rate     `json:"seat0_wins"`
	Seat1   Rate     `json:"seat1_wins"`
	Draws   Rate     `json:"draws"`
	Stalled Rate     `json:"stalled"`
	Plies   Estimate `json:"plies"`
}

// RatesAndLength returns the summary's rates and mean length.
func (s *Summary) RatesAndLength() RatesAndLength {
	return RatesAndLength{Seat0: s.Rates.Seat0, Seat1: s.Rates.Seat1, Draws: s.Rates.Draw, Stalled: s.Stalled, Plies: s.Balance.DurationTurns}
}
