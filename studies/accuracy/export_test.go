package accuracy

import (
	"context"

	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/variants"
)

// playOne plays game i of cfg's run and returns its entries.
func playOne(cfg *variants.Config, i int) ([]string, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, err
	}
	job.Moves = true
	rec, err := sim.Replay(context.Background(), job, i, nil)
	if err != nil {
		return nil, err
	}
	return rec.Moves, nil
}
