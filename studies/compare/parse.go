package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseHypotheses reads a --sprt value: comma-separated key=value pairs,
// delta0 and delta1 (the difference A − B of the metric's mean per game
// under H0 and H1) or elo0 and elo1 (the same as the Elo of a pair's
// score, as fishtest writes bounds), alpha and beta (default 0.05 each),
// and model: logistic (default; elo0 and elo1 are logistic Elo) or
// normalized (elo0 and elo1 are normalized Elo, as fishtest's and
// fastchess's defaults are today; delta0 and delta1 do not apply).
func ParseHypotheses(text string) (Hypotheses, error) {
	h := Hypotheses{Alpha: 0.05, Beta: 0.05, Model: ModelLogistic}
	seen := map[string]bool{}
	var elo0, elo1 float64
	for _, part := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.TrimSpace(key)
		if key == "model" && ok {
			h.Model = strings.TrimSpace(value)
			if h.Model != ModelLogistic && h.Model != ModelNormalized {
				return h, fmt.Errorf("model %q: want %s or %s", h.Model, ModelLogistic, ModelNormalized)
			}
			if seen[key] {
				return h, fmt.Errorf("model is given twice")
			}
			seen[key] = true
			continue
		}
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
			elo0 = x
		case "elo1":
			elo1 = x
		case "alpha":
			h.Alpha = x
		case "beta":
			h.Beta = x
		default:
			return h, fmt.Errorf("unknown key %q; known keys: delta0, delta1, elo0, elo1, alpha, beta, model", key)
		}
	}
	if (seen["delta0"] || seen["delta1"]) && (seen["elo0"] || seen["elo1"]) {
		return h, fmt.Errorf("give the hypotheses as delta0 and delta1 or as elo0 and elo1, not both")
	}
	if !(seen["delta0"] && seen["delta1"]) && !(seen["elo0"] && seen["elo1"]) {
		return h, fmt.Errorf("want both hypotheses: delta0 and delta1, or elo0 and elo1")
	}
	if h.Model == ModelNormalized && !seen["elo0"] {
		return h, fmt.Errorf("model=normalized takes its hypotheses as normalized Elo: give elo0 and elo1, e.g. elo0=0,elo1=5,model=normalized")
	}
	if seen["elo0"] {
		h.Elo0, h.Elo1 = &elo0, &elo1
		if h.Model == ModelLogistic {
			h.Delta0, h.Delta1 = eloDelta(elo0), eloDelta(elo1)
		}
	}
	return h, h.Validate()
}

// eloDelta is the difference Δ whose pair score ½ + Δ/2 has logistic Elo e.
func eloDelta(e float64) float64 { return 2/(1+math.Pow(10, -e/400)) - 1 }
