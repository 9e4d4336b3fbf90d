package sim

import (
	"context"
	"errors"
	"sync"
)

// RunPair plays two jobs side by side, each with about half of
// opts.Workers, and hands pair their games i, in index order, one pair at
// a time from a single goroutine, until a job ends or pair asks to stop
// (stop, or an error, which RunPair returns). The games handed over never
// depend on the number of workers: a comparison of two variants on common
// seeds that may stop early (a sequential test).
func RunPair(ctx context.Context, a, b *Job, opts Options, pair func(ra, rb *Record) (stop bool, err error)) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers()
	}
	streams := [2]chan *Record{make(chan *Record, 16), make(chan *Record, 16)}
	errs := [2]error{}
	var wg sync.WaitGroup
	for i, job := range []*Job{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(streams[i])
			o := opts
			o.Workers = max(1, (workers+1-i)/2)
			errs[i] = Run(runCtx, job, o, func(r *Record) {
				select {
				case streams[i] <- r:
				case <-runCtx.Done():
				}
			})
		}()
	}
	pairErr := Zip(streams, pair)
	cancel()
	for range streams[0] {
	}
	for range streams[1] {
	}
	wg.Wait()
	if pairErr != nil {
		return pairErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, e := range errs {
		if e != nil && !errors.Is(e, context.Canceled) {
			return e
		}
	}
	return nil
}

// Zip takes one record from each stream at a time and hands the pair to
// pair, until a stream is closed or pair asks to stop (stop, or an error,
// which Zip returns). The streams' senders must stop once the caller no
// longer reads.
func Zip(streams [2]chan *Record, pair func(ra, rb *Record) (stop bool, err error)) error {
	for {
		ra, okA := <-streams[0]
		rb, okB := <-streams[1]
		if !okA || !okB {
			return nil
		}
		if stop, err := pair(ra, rb); stop || err != nil {
			return err
		}
	}
}
