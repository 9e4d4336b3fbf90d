package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/publish"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/variants"
)

// Mapping is how game traces of cfg map to chances of winning: the run
// directory's (its summary's How it plays, when dir is a run directory
// whose summary has one), else the learned model's its bots play; nil when
// neither is known (a logistic can only be fitted over a run's games).
func Mapping(dir string, cfg *variants.Config) (*howplays.Mapping, error) {
	if dir != "" {
		f, err := os.Open(filepath.Join(dir, publish.SummaryFile))
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			defer f.Close()
			s, err := reports.ReadSummary(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", publish.SummaryFile, err)
			}
			if s.HowItPlays != nil {
				return &s.HowItPlays.Mapping, nil
			}
		}
	}
	if m := sim.TraceModel(cfg.Players); m != nil {
		mapping := howplays.FromModel(m)
		return &mapping, nil
	}
	return nil, nil
}

// Trace plays game index of cfg again, traced, and returns seat 0's chance
// of winning before each entry and at the end (mapped with m), and the
// entries that moved it by howplays.TurningStep or more.
func Trace(ctx context.Context, cfg *variants.Config, index int, m howplays.Mapping) (p []float64, turning []int, err error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	job.Trace = index + 1
	rec, err := sim.Replay(ctx, job, index, nil)
	if err != nil {
		return nil, nil, err
	}
	if rec.Err != nil || rec.Trace == nil {
		return nil, nil, nil
	}
	g := howplays.NewGame(rec, m)
	return g.P, g.TurningPoints(), nil
}

// WriteTrace writes a game's trace under its replay: seat 0's chance of
// winning before each entry, in percent, ten to a line, and the turning
// points.
func WriteTrace(w io.Writer, p []float64, turning []int, m howplays.Mapping) error {
	if len(p) == 0 {
		return nil
	}
	source := "the variant's learned model"
	if m.Source == howplays.MappingFitted || m.Source == howplays.MappingRefit {
		source = "the run's fitted logistic"
	}
	fmt.Fprintf(w, "\nseat 0's chance of winning before each entry, then the result (%s):\n", source)
	for k := 0; k < len(p); k += 10 {
		var cells []string
		for _, v := range p[k:min(k+10, len(p))] {
			cells = append(cells, fmt.Sprintf("%3.0f%%", 100*v))
		}
		fmt.Fprintf(w, "  %4d: %s\n", k, strings.Join(cells, " "))
	}
	if len(turning) == 0 {
		_, err := fmt.Fprintln(w, "no turning point (no entry moved it by 30 points)")
		return err
	}
	var parts []string
	for _, t := range turning {
		parts = append(parts, fmt.Sprintf("entry %d (%.0f%% → %.0f%%)", t+1, 100*p[t], 100*p[t+1]))
	}
	_, err := fmt.Fprintf(w, "turning points: %s\n", strings.Join(parts, ", "))
	return err
}
