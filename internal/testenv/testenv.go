package testenv

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
