package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseHypotheses reads a --sprt value: comma-separated key=value pairs,
// delta0 and delta1 (the difference A − B of the metric's mean per game
// under H0 and H1) or elo0 and elo1 (the same as the logistic Elo of a
// pair's score, as fishtest writes bounds), and alpha and beta (default
// 0.05 each).
func ParseHypotheses(text string) (Hypotheses, error) {
	h := Hypotheses{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, part := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.TrimSpace(key)
		x, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if !ok || err != nil {
			return h, fmt.Errorf("%q: want key=number, e.g. delta0=0,delta1=0.1,alpha=0.05,beta=0.05", part)
		}
		if seen[key] {
			return h, fmt.Errorf("%s is given twice", key)
		}
		seen[key] = true
		switch key {
		case "delta0":
			h.Delta0 = x
		case "delta1":
			h.Delta1 = x
		case "elo0":
			h.Delta0 = eloDelta(x)
		case "elo1":
			h.Delta1 = eloDelta(x)
		case "alpha":
			h.Alpha = x
		case "beta":
			h.Beta = x
		default:
			return h, fmt.Errorf("unknown key %q; known keys: delta0, delta1, elo0, elo1, alpha, beta", key)
		}
	}
	if (seen["delta0"] || seen["delta1"]) && (seen["elo0"] || seen["elo1"]) {
		return h, fmt.Errorf("give the hypotheses as delta0 and delta1 or as elo0 and elo1, not both")
	}
	if !(seen["delta0"] && seen["delta1"]) && !(seen["elo0"] && seen["elo1"]) {
		return h, fmt.Errorf("want both hypotheses: delta0 and delta1, or elo0 and elo1")
	}
	return h, h.Validate()
}

// eloDelta is the difference Δ whose pair score ½ + Δ/2 has logistic Elo e.
func eloDelta(e float64) float64 { return 2/(1+math.Pow(10, -e/400)) - 1 }
