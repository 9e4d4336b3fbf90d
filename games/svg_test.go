package games

import (
	"math"
	"strconv"
	"testing"

	"playtest/games/pcg"
)

// TestAppendNum: appendNum writes what strconv.FormatFloat writes of the
// value rounded to one decimal, for the edge cases and a million values
// drawn across magnitudes.
func TestAppendNum(t *testing.T) {
	want := func(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }
	values := []float64{0, math.Copysign(0, -1), -0.04, 0.04, 0.05, -0.05, 0.25, -0.25, 1, -1, 9.95, 99.99, 1e14 - 0.1, 1e14, 1e15, -1e15, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), 0.1 + 0.2}
	rng := pcg.New(7, 8)
	for range 1_000_000 {
		x := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(18)-2))
		values = append(values, x)
	}
	for _, x := range values {
		if got := string(appendNum(nil, x)); got != want(x) {
			t.Fatalf("appendNum(%v) = %q, want %q", x, got, want(x))
		}
	}
}
