package learn

import (
	"sync"

	"playtest/sim"
)

// fitWorkers is the goroutines a pass over n positions runs on: workers,
// or for 0 one a core (sim.DefaultWorkers), never more than n nor fewer
// than 1.
func fitWorkers(workers, n int) int {
	if workers <= 0 {
		workers = sim.DefaultWorkers()
	}
	return max(1, min(workers, n))
}

// inWorkers runs work(w) for w from 0 to workers−1, each on its own
// goroutine (worker w takes the positions w, w + workers, …, so that what
// each position gets does not depend on the count), and returns the first
// worker's error, by worker.
func inWorkers(workers int, work func(w int) error) error {
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = work(w)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
