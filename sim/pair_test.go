package sim

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestRunPair hands the two jobs' games over pair by pair in index order,
// the same pairs whatever the workers, and stops when asked or at an
// error.
func TestRunPair(t *testing.T) {
	a, b := job(t, 40, "random", "greedy"), job(t, 40, "greedy", "random")
	var seen [2]string
	for i, workers := range []int{1, 3} {
		n := 0
		err := RunPair(context.Background(), a, b, Options{Workers: workers}, func(ra, rb *Record) (bool, error) {
			if ra.Index != n || rb.Index != n {
				t.Fatalf("pair %d: games %d and %d", n, ra.Index, rb.Index)
			}
			n++
			seen[i] += fmt.Sprint(ra.Result, rb.Result, ra.Plies, rb.Plies)
			return false, nil
		})
		if err != nil || n != 40 {
			t.Fatalf("%d workers: %d pairs, %v", workers, n, err)
		}
	}
	if seen[0] != seen[1] {
		t.Error("1 and 3 workers hand over different pairs")
	}
	n := 0
	if err := RunPair(context.Background(), a, b, Options{Workers: 2}, func(*Record, *Record) (bool, error) { n++; return n == 5, nil }); err != nil || n != 5 {
		t.Errorf("stopped after %d pairs, %v", n, err)
	}
	boom := errors.New("boom")
	if err := RunPair(context.Background(), a, b, Options{Workers: 2}, func(*Record, *Record) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("the pair's error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := RunPair(ctx, a, b, Options{Workers: 2}, func(*Record, *Record) (bool, error) { return false, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}
