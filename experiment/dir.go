package experiment

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"playtest/reports"
	"playtest/reports/publish"
	"playtest/sim"
	"playtest/variants"
)

// RunToDir plays the variant and writes its results to dir: games.csv (one
// row per game, streamed to a temporary file while the games finish),
// summary.json, and the reports (report.md, report.html, plots/). Nothing
// is left half-written: on an error or cancellation no result file is
// created or replaced.
func RunToDir(ctx context.Context, cfg *variants.Config, opts Options, dir string) (*reports.Summary, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, "."+publish.GamesFile+".*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	job, err := Job(cfg)
	if err != nil {
		return nil, err
	}
	rows, err := reports.NewGamesWriter(tmp, Info(cfg, job.Game))
	if err != nil {
		return nil, err
	}
	var writeErr error
	inner := opts.OnRecord
	opts.OnRecord = func(r *sim.Record) {
		if writeErr == nil {
			writeErr = rows.Write(r)
		}
		if inner != nil {
			inner(r)
		}
	}
	summary, err := Run(ctx, cfg, opts)
	if err != nil {
		return summary, err
	}
	if err := errors.Join(writeErr, rows.Flush(), tmp.Chmod(0o644), tmp.Close()); err != nil {
		return summary, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, publish.GamesFile)); err != nil {
		return summary, err
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, publish.SummaryFile), summary.WriteJSON); err != nil {
		return summary, err
	}
	return summary, publish.Write(dir)
}
