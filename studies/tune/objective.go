package tune

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/variants"
)

// Objective is what a race minimises: Balance times the seat imbalance,
// |seat 0's score − ½|, plus each soft target's weight times how far its
// figure lies outside the target's range; hard targets (no weight) are
// constraints, and a candidate shown to break one leaves the race.
type Objective struct {
	Balance float64  `json:"balance"`
	Targets []Target `json:"targets,omitempty"`
}

// Target bounds a figure of the games: a per-game metric's mean (plies,
// draws, stalled, decisions, seat0_wins, seat1_wins, or a game's own).
type Target struct {
	Metric string   `json:"metric"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	// Weight prices a unit of distance outside [Min, Max] in the
	// objective; 0 makes the target a hard constraint.
	Weight float64 `json:"weight,omitempty"`
	// Unit says the figure is a share between 0 and 1 (its interval's
	// variance is bounded as a share's is).
	Unit bool `json:"share,omitempty"`
}

// BalanceOnly is the default objective: the seat imbalance alone.
var BalanceOnly = Objective{Balance: 1}

// Hard reports whether the target is a constraint.
func (t Target) Hard() bool { return t.Weight == 0 }

// distance is how far x lies outside the target's range.
func (t Target) distance(x float64) float64 {
	d := 0.0
	if t.Min != nil {
		d = max(d, *t.Min-x)
	}
	if t.Max != nil {
		d = max(d, x-*t.Max)
	}
	return d
}

// distanceRange is the range of the distance over the interval iv.
func (t Target) distanceRange(iv stats.Interval) (low, high float64) {
	high = max(t.distance(iv.Low), t.distance(iv.High))
	switch {
	case t.Min != nil && iv.High < *t.Min:
		low = *t.Min - iv.High
	case t.Max != nil && iv.Low > *t.Max:
		low = iv.Low - *t.Max
	}
	return low, high
}

// Range writes the target's bounds: "20 ≤ plies ≤ 60", "draws ≤ 0.05".
func (t Target) Range() string {
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'g', -1, 64) }
	switch {
	case t.Min != nil && t.Max != nil:
		return num(t.Min) + " ≤ " + t.Metric + " ≤ " + num(t.Max)
	case t.Min != nil:
		return t.Metric + " ≥ " + num(t.Min)
	}
	return t.Metric + " ≤ " + num(t.Max)
}

// IsBalanceOnly reports whether the objective is the seat imbalance alone
// (its values then read as points of seat 0's score).
func (o Objective) IsBalanceOnly() bool {
	return o.Balance == 1 && !slices.ContainsFunc(o.Targets, func(t Target) bool { return !t.Hard() })
}

// String describes the objective in words.
func (o Objective) String() string {
	var terms, hard []string
	switch o.Balance {
	case 0:
	case 1:
		terms = append(terms, "|seat 0's score over seat-swapped pairs − 50%|")
	default:
		terms = append(terms, fmt.Sprintf("%g × |seat 0's score over seat-swapped pairs − 50%%|", o.Balance))
	}
	for _, t := range o.Targets {
		if t.Hard() {
			hard = append(hard, t.Range())
		} else {
			terms = append(terms, fmt.Sprintf("%g × the distance of %s outside %s", t.Weight, t.Metric, t.Range()))
		}
	}
	text := strings.Join(terms, " + ")
	if hard != nil {
		text += ", subject to " + strings.Join(hard, " and ")
	}
	return text
}

// intervals is how many one-sided intervals a candidate's tests take in a
// round: two for the paired balance tests, two for each target (a soft
// target's for the candidate and the leader, a hard one's for each side
// of its range).
func (o Objective) intervals() int {
	n := 2 * len(o.Targets)
	if o.Balance > 0 {
		n += 2
	}
	return max(n, 1)
}

// figures names the per-game values a candidate tallies: seat 0's score,
// draws and plies (always shown), then each target's metric.
func (o Objective) figures() []string {
	names := []string{"seat0_score", "draws", "plies"}
	for _, t := range o.Targets {
		names = append(names, t.Metric)
	}
	return names
}

// plays reports whether a target is one of How it plays' figures
// (play.after_decided): the games must then be traced, and read with the
// candidate's model.
func (o Objective) plays() bool {
	return slices.ContainsFunc(o.Targets, func(t Target) bool { return strings.HasPrefix(t.Metric, reports.PlayPrefix) })
}

// Figures' places in a candidate's tally.
const (
	figScore = iota
	figDraws
	figPlies
	figTargets
)

// MaxWeight and MaxBound bound an objective's weights and its targets'
// ranges, so that a weight times a distance stays finite (a weight of
// 1e308 made the objective +Inf, which no state file can hold): a million
// already makes one figure outweigh every other.
const (
	MaxWeight = 1e6
	MaxBound  = 1e12
)

// objectiveKeys are the keys of a space's objective:.
var objectiveKeys = []string{"balance", "targets"}

// targetKeys are the keys of one target.
var targetKeys = []string{"metric", "min", "max", "weight"}

// shares are the per-game metrics that are shares between 0 and 1.
var shares = []string{"seat0_score", "seat0_wins", "seat1_wins", "draws", "stalled"}

// ParseObjective decodes a space's objective: (n nil gives BalanceOnly)
// and checks its metrics against cfg's game (a few quick random games
// tell which metrics it reports). Errors name the file, line and key.
func ParseObjective(file string, n *yaml.Node, cfg *variants.Config) (Objective, error) {
	if n == nil {
		return BalanceOnly, nil
	}
	errorf := func(at *yaml.Node, key, format string, args ...any) error {
		return &variants.Error{File: file, Line: at.Line, Key: key, Message: fmt.Sprintf(format, args...)}
	}
	number := func(v *yaml.Node, key string) (float64, error) {
		x, err := strconv.ParseFloat(v.Value, 64)
		if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, errorf(v, key, "want a number, got %s", variants.Describe(v))
		}
		return x, nil
	}
	mapping := func(m *yaml.Node, path string, known []string, f func(key string, v *yaml.Node) error) error {
		if m.Kind != yaml.MappingNode {
			return errorf(m, path, "want a mapping, got %s", variants.Describe(m))
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			if !slices.Contains(known, k.Value) {
				return errorf(k, path+"."+k.Value, "unknown key%s; known keys: %s", variants.Suggestion(k.Value, known), strings.Join(known, ", "))
			}
			if seen[k.Value] {
				return errorf(k, path+"."+k.Value, "appears twice")
			}
			seen[k.Value] = true
			if err := f(k.Value, m.Content[i+1]); err != nil {
				return err
			}
		}
		return nil
	}
	o := Objective{Balance: 1}
	var metrics []string
	var rates []string
	err := mapping(n, "objective", objectiveKeys, func(key string, v *yaml.Node) error {
		var err error
		switch key {
		case "balance":
			if o.Balance, err = number(v, "objective.balance"); err == nil && !(o.Balance >= 0 && o.Balance <= MaxWeight) {
				err = errorf(v, "objective.balance", "want a weight from 0 to %g, got %g", MaxWeight, o.Balance)
			}
			return err
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return errorf(v, "objective.targets", "want a list of targets, each {metric: NAME, min: X, max: Y, weight: W}")
		}
		for i, item := range v.Content {
			path := fmt.Sprintf("objective.targets[%d]", i)
			var t Target
			err := mapping(item, path, targetKeys, func(key string, v *yaml.Node) error {
				if key == "metric" {
					t.Metric = v.Value
					if v.Kind != yaml.ScalarNode || t.Metric == "" {
						return errorf(v, path+".metric", "want a metric's name, got %s", variants.Describe(v))
					}
					if metrics == nil {
						probe, err := rundir.Probe(cfg)
						if err != nil {
							return err
						}
						metrics = slices.Clone(reports.PerGameMetrics)
						for _, m := range probe.Metrics {
							metrics = append(metrics, m.Name)
							if m.Rate != nil {
								rates = append(rates, m.Name)
							}
						}
						for _, name := range howplays.PerGameNames() {
							metrics = append(metrics, reports.PlayPrefix+name)
							if _, share, _ := howplays.PerGame(name); share {
								rates = append(rates, reports.PlayPrefix+name)
							}
						}
					}
					t.Metric = reports.CanonicalMetric(t.Metric)
					if !slices.Contains(metrics, t.Metric) {
						return errorf(v, path+".metric", "unknown metric %q%s; %s has: %s", t.Metric, variants.Suggestion(t.Metric, metrics), cfg.Definition.Name, strings.Join(metrics, ", "))
					}
					return nil
				}
				x, err := number(v, path+"."+key)
				switch key {
				case "min", "max":
					if err == nil && !(math.Abs(x) <= MaxBound) {
						err = errorf(v, path+"."+key, "want a bound between -%g and %g, got %g", MaxBound, MaxBound, x)
					}
					if key == "min" {
						t.Min = &x
					} else {
						t.Max = &x
					}
				case "weight":
					if t.Weight = x; err == nil && !(x > 0 && x <= MaxWeight) {
						err = errorf(v, path+".weight", "want a weight above 0 and at most %g (leave weight out for a hard constraint), got %g", MaxWeight, x)
					}
				}
				return err
			})
			switch {
			case err != nil:
				return err
			case t.Metric == "":
				return errorf(item, path+".metric", "is required")
			case t.Min == nil && t.Max == nil:
				return errorf(item, path, "want min:, max: or both")
			case t.Min != nil && t.Max != nil && *t.Min > *t.Max:
				return errorf(item, path, "min %g is above max %g", *t.Min, *t.Max)
			}
			t.Unit = slices.Contains(shares, t.Metric) || slices.Contains(rates, t.Metric)
			o.Targets = append(o.Targets, t)
		}
		return nil
	})
	if err != nil {
		return o, err
	}
	if o.Balance == 0 && !slices.ContainsFunc(o.Targets, func(t Target) bool { return !t.Hard() }) {
		return o, errorf(n, "objective", "minimises nothing: give balance a weight above 0 or a target a weight")
	}
	return o, nil
}
