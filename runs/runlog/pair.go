package runlog

import (
	"errors"
	"sync"

	"playtest/sim"
)

// errStopped ends a scan whose reader left.
var errStopped = errors.New("the pair's reader stopped")

// ScanPair reads the logs of two run directories side by side, games
// [0, to) of each, and hands pair their games i together, in index order,
// from one goroutine (sim.Zip), until a log ends or pair asks to stop
// (stop, or an error, which ScanPair returns).
func ScanPair(dirs [2]string, to [2]int, pair func(ra, rb *sim.Record) (stop bool, err error)) error {
	streams := [2]chan *sim.Record{make(chan *sim.Record, 64), make(chan *sim.Record, 64)}
	errs := [2]error{}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(streams[i])
			_, errs[i] = Scan(dirs[i], 0, to[i], nil, func(r *sim.Record) error {
				select {
				case streams[i] <- r:
					return nil
				case <-done:
					return errStopped
				}
			})
		}()
	}
	err := sim.Zip(streams, pair)
	close(done)
	for range streams[0] {
	}
	for range streams[1] {
	}
	wg.Wait()
	if err != nil {
		return err
	}
	for _, e := range errs {
		if e != nil && !errors.Is(e, errStopped) {
			return e
		}
	}
	return nil
}
