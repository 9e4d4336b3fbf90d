package testenv

import (
	"fmt"
	"testing"
)

// Scale divides the sizes of slow pure-logic tests: the race detector makes
// them many times slower and finds nothing in single-goroutine code, so
// under -race they run as a smoke test and `make test` runs them in full
// without it.
func Scale(n int) int {
	if RaceEnabled {
		return max(1, n/10)
	}
	return n
}

// SkipUnderRace skips t under the race detector (go test -race ./cmd). It
// is for the heavy end-to-end tests of what a command writes (reports,
// messages, files): their concurrency is the runner's workers, the signal
// watch and the progress bars, whose own packages' tests run under -race
// in make test, and the rest is single-goroutine code where the detector
// finds nothing. make test runs them in full, without -race.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if RaceEnabled {
		t.Skip("end-to-end test of single-goroutine output code: runs without -race (make test's second stage)")
	}
}

// MCTS is the mcts the Stacktics presets played before they moved to
// alphabeta (rollouts cut at 6, eval_scale 6) at the given iterations, as
// a YAML bot: the cheap search bot whose behaviour at tiny budgets tests
// know.
func MCTS(iterations int) string {
	return fmt.Sprintf("{bot: mcts, iterations: %d, rollout_cap: 6, eval_scale: 6}", iterations)
}
