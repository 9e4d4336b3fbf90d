package rundir

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"playtest/games"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/reports/publish"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/variants"
)

// DirOptions tune a run written to a directory.
type DirOptions struct {
	Options
	// Shard is the slice of the run's games to play (zero: all).
	Shard runlog.Shard
	// Records is runlog.RecordsSummary (default) or runlog.RecordsFull.
	Records string
	// Resume continues the run the directory holds instead of starting
	// afresh; the variant must be the one in its manifest.
	Resume bool
	// Extend lets Resume grow the run the directory holds to cfg's games,
	// when cfg is that run's variant with more games
	// (runlog.Manifest.Extended): the games logged are kept and the new
	// ones played.
	Extend bool
	// Replace lets a fresh run replace a finished one the directory holds
	// (playtest run --force; a study's own unit directories); without it
	// that is refused (*FinishedError), so that no saved run (a CI
	// baseline) is lost by a repeated command.
	Replace bool
	// Start, if set, is told how many of the directory's games are already
	// done and how many it has in all, before any game is played.
	Start func(done, total int)
	// Notice, if set, is told what a resume did that the user should know
	// (a torn last line dropped).
	Notice func(string)
	// NoReports leaves out report.md, report.html and plots/ (summary.json,
	// games.csv and examples.json are written as ever; playtest report DIR
	// draws the reports later): a shard's reports are seldom read, and
	// drawing the plots is most of the work of finishing a small run.
	NoReports bool
}

// UnfinishedError is returned when a directory holds an unfinished run and
// Resume is off.
type UnfinishedError struct {
	Dir         string
	Done, Total int
}

func (e *UnfinishedError) Error() string {
	return fmt.Sprintf("%s holds an unfinished run (%d of %d games): continue it with --resume, or remove it", e.Dir, e.Done, e.Total)
}

// FinishedError refuses to start a run in a directory that holds a
// finished one, without DirOptions.Replace.
type FinishedError struct {
	Dir     string
	Variant string
	Games   int
}

func (e *FinishedError) Error() string {
	return fmt.Sprintf("%s holds a finished run of %s (%d games): a new run there would replace it; give --force to replace it, or another --out", e.Dir, e.Variant, e.Games)
}

// BadInput marks the error as the user's (exit 2).
func (e *FinishedError) BadInput() bool { return true }

// StudyManifest is the file a study directory holds (studies/study's
// manifest; a run is not started over one).
const StudyManifest = "study.json"

// BadInputError is a merge's or a resume's input that cannot be used (shards
// of different runs, a missing shard, an unfinished one): bad input (exit
// 2), where a failure to write (a full disk) is not.
type BadInputError struct{ Err error }

func (e *BadInputError) Error() string { return e.Err.Error() }
func (e *BadInputError) Unwrap() error { return e.Err }

// BadInput marks the error as the user's input.
func (e *BadInputError) BadInput() bool { return true }

func badInputf(format string, args ...any) error {
	return &BadInputError{fmt.Errorf(format, args...)}
}

// BadInput marks an unfinished directory as bad input for a command that
// would overwrite it (exit 2).
func (e *UnfinishedError) BadInput() bool { return true }

// InterruptedError is returned when a directory run is cancelled: the games
// finished so far are in its log, ready to resume.
type InterruptedError struct {
	Dir         string
	Done, Total int
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted after %d of %d games; the finished games are kept in %s", e.Done, e.Total, filepath.Join(e.Dir, runlog.GamesFile))
}

func (e *InterruptedError) Unwrap() error { return context.Canceled }

// WriteError is returned when a run cannot write its log (a full disk):
// it stops at once, keeping the games saved so far, ready to resume.
type WriteError struct {
	Dir         string
	Done, Total int
	Err         error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("cannot save the games in %s: %v; the run stopped with %d of %d games saved: free the space, then continue with playtest run --resume --out %s",
		e.Dir, e.Err, e.Done, e.Total, shell.Quote(e.Dir))
}

func (e *WriteError) Unwrap() error { return e.Err }

// gameLog is where a directory run appends its games.
type gameLog interface {
	Add(*sim.Record) error
	Close() error
}

// openLog opens a directory's game log; tests replace it to make writing
// fail.
var openLog = func(dir string) (gameLog, error) { return runlog.OpenWriter(dir) }

// RunToDir plays the variant (or a shard of it) into dir. Games are appended
// to dir's log (manifest.json, games.jsonl, errors.jsonl) as they finish;
// when all are done it writes games.csv, summary.json and the reports
// (report.md, report.html, plots/), each atomically. Interrupted, it leaves
// the log for Resume, which replays it and plays the rest: the summary is
// then the same, byte for byte apart from timing, as an uninterrupted run's.
func RunToDir(ctx context.Context, cfg *variants.Config, opts DirOptions, dir string) (*reports.Summary, error) {
	if opts.Records == "" {
		opts.Records = runlog.RecordsSummary
	}
	job, err := Job(cfg)
	if err != nil {
		return nil, err
	}
	if err := sim.CheckMemory(job, opts.Workers); err != nil {
		return nil, err // before anything is written
	}
	_, statErr := os.Stat(dir)
	existed := statErr == nil
	if _, err := os.Stat(filepath.Join(dir, StudyManifest)); err == nil {
		return nil, badInputf("%s holds a study (%s): a run there would leave its files beside the study's; give another --out", dir, StudyManifest)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// A fresh run whose rules fail (a script's error: every game would)
	// leaves nothing behind: it is removed once the lock is released.
	var failedRules bool
	defer func() {
		if failedRules {
			removeRun(dir, existed)
		}
	}()
	unlock, err := runlog.Lock(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m := runlog.NewManifest(cfg, opts.Shard, opts.Records)
	fresh := false // the run starts here (not resumed)
	grown := false // the run is resumed with more games (DirOptions.Extend)
	old, err := runlog.ReadManifest(dir)
	switch {
	case opts.Resume && err != nil:
		return nil, fmt.Errorf("nothing to resume: %w", err)
	case opts.Resume:
		if opts.Extend && old.ConfigHash != m.ConfigHash && old.Games < cfg.Games {
			g, _, err := old.Extended(cfg.Games)
			if err != nil {
				return nil, &BadInputError{fmt.Errorf("%s: %w", dir, err)}
			}
			if g.ConfigHash == m.ConfigHash {
				old, grown = g, true
			}
		}
		if old.ConfigHash != m.ConfigHash || old.Shard != m.Shard {
			return nil, fmt.Errorf("%s holds a run of %s (%v, config %s), not of %s (%v, config %s)",
				dir, old.Variant, old.Shard, old.ConfigHash, m.Variant, m.Shard, m.ConfigHash)
		}
		if old.From != m.From || old.To != m.To {
			return nil, &runlog.ManifestError{Path: filepath.Join(dir, runlog.ManifestFile),
				Err: fmt.Errorf("games [%d, %d), but the run plays games [%d, %d)", old.From, old.To, m.From, m.To)}
		}
		if old.Playtest != m.Playtest {
			old.ResumedBy = m.Playtest // written with the run's next manifest
		}
		m = old
		if err := reports.RemoveTemps(dir); err != nil {
			return nil, err
		}

	case err == nil && !old.Finished:
		done, _ := runlog.Scan(dir, old.From, old.To, nil, func(*sim.Record) error { return nil })
		return nil, &UnfinishedError{Dir: dir, Done: done - old.From, Total: old.To - old.From}
	case err == nil && !opts.Replace:
		return nil, &FinishedError{Dir: dir, Variant: old.Variant, Games: old.To - old.From}
	default:
		if err := clear(dir); err != nil {
			return nil, err
		}
		if err := m.Write(dir); err != nil {
			return nil, err
		}
		fresh = true
	}
	if err := keepScript(dir, cfg); err != nil {
		return nil, err
	}

	info := Info(cfg, job.Game)
	agg := reports.NewAggregator(info)
	next, torn, err := runlog.ScanTorn(dir, m.From, m.To, info.CheckRecord, func(r *sim.Record) error {
		agg.Add(r)
		return nil
	})
	if err != nil {
		return nil, err // a damaged log is refused before anything changes
	}
	if m.Finished || grown { // rewritten from here on: unfinished until finish
		m.Finished = false
		if err := m.Write(dir); err != nil {
			return nil, err
		}
	}
	for _, t := range torn {
		if err := t.Cut(); err != nil {
			return nil, err
		}
		if opts.Notice != nil {
			opts.Notice(t.String())
		}
	}
	if opts.Start != nil {
		opts.Start(next-m.From, m.To-m.From)
	}
	log, err := openLog(dir)
	if err != nil {
		return nil, err
	}
	job.Sliced, job.From, job.To, job.Moves = true, next, m.To, m.Records == runlog.RecordsFull
	var logErr error
	start, plies, played := time.Now(), 0, 0
	run, stop := context.WithCancel(ctx)
	defer stop()
	err = sim.Run(run, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if logErr != nil {
			return // stopping: a game that cannot be saved is not counted
		}
		if logErr = log.Add(r); logErr != nil {
			stop() // no point playing games that cannot be saved
			return
		}
		agg.Add(r)
		plies += r.Plies
		played++
		if opts.OnRecord != nil {
			opts.OnRecord(r)
		}
	})
	if closeErr := log.Close(); logErr != nil || closeErr != nil {
		return nil, &WriteError{Dir: dir, Done: next - m.From + played, Total: m.To - m.From, Err: cmp.Or(logErr, closeErr)}
	}
	if errors.Is(err, context.Canceled) {
		return nil, &InterruptedError{Dir: dir, Done: next - m.From + played, Total: m.To - m.From}
	}
	var rulesErr games.RulesError
	failedRules = fresh && errors.As(err, &rulesErr)
	if err != nil {
		return nil, err
	}
	summary := agg.Summary(timing(opts.Workers, time.Since(start), played, plies))
	if err := finish(ctx, dir, cfg, m, summary, info, !opts.NoReports); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, &InterruptedError{Dir: dir, Done: m.To - m.From, Total: m.To - m.From}
		}
		return nil, err
	}
	return summary, nil
}

// clear removes a finished run's files from dir before a new run.
func clear(dir string) error {
	errs := []error{runlog.Reset(dir), reports.RemoveTemps(dir)}
	for _, name := range []string{publish.SummaryFile, publish.GamesFile, publish.MarkdownFile, publish.HTMLFile, publish.ExamplesFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// finish writes games.csv from the log, then summary.json and the reports,
// and last marks the manifest finished.
func finish(ctx context.Context, dir string, cfg *variants.Config, m *runlog.Manifest, summary *reports.Summary, info reports.RunInfo, withReports bool) error {
	examples, err := examplesSelection(cfg)
	if err != nil {
		return err
	}
	if err := writeGames(dir, summary, info, m.From, m.To, examples); err != nil {
		return err
	}
	if examples != nil {
		if err := writeExamples(ctx, dir, cfg, examples, summary); err != nil {
			return err
		}
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, publish.SummaryFile), summary.WriteJSON); err != nil {
		return err
	}
	if withReports {
		if err := publish.Write(dir); err != nil {
			return err
		}
	}
	m.Finished = true
	return m.Write(dir)
}

// writeGames writes games.csv from the log, the one pass over it that
// finishing a run takes, showing every finished game to examples (unless
// nil) on the way.
func writeGames(dir string, summary *reports.Summary, info reports.RunInfo, from, to int, examples *selection) error {
	return reports.WriteFileAtomic(filepath.Join(dir, publish.GamesFile), func(w io.Writer) error {
		names := make([]string, len(summary.Metrics))
		for i, m := range summary.Metrics {
			names[i] = m.Name
		}
		rows, err := reports.NewGamesWriter(w, info, names)
		if err != nil {
			return err
		}
		if _, err := runlog.Scan(dir, from, to, nil, func(r *sim.Record) error {
			if r.Err != nil {
				return nil
			}
			if examples != nil {
				examples.see(r)
			}
			return rows.Write(r)
		}); err != nil {
			return err
		}
		return rows.Flush()
	})
}

// timing describes this invocation's share of the work.
func timing(workers int, elapsed time.Duration, games, plies int) reports.Timing {
	if workers <= 0 {
		workers = sim.DefaultWorkers()
	}
	t := reports.Timing{Workers: workers, ElapsedSeconds: elapsed.Seconds()}
	if s := elapsed.Seconds(); s > 0 {
		t.GamesPerSecond = float64(games) / s
		t.PliesPerSecond = float64(plies) / s
	}
	return t
}

// Merge combines the shard directories of one run into dir (ctx stops the
// example games' replays, leaving dir unfinished), which then holds
// exactly what a single run of all the games would have written (the
// summary is the same byte for byte apart from timing). Every shard must be
// of the same run and finished, and together they must cover every game.
func Merge(ctx context.Context, dirs []string, dir string) (*reports.Summary, error) {
	if len(dirs) == 0 {
		return nil, badInputf("merge needs at least one shard directory")
	}
	shards := make([]*runlog.Manifest, len(dirs))
	byIndex := map[int]string{}
	for i, d := range dirs {
		m, err := runlog.ReadManifest(d)
		if err != nil {
			return nil, &BadInputError{err}
		}
		first := shards[0]
		if i == 0 {
			first = m
		}
		switch {
		case m.ConfigHash != first.ConfigHash:
			return nil, badInputf("%s is a run of %s (config %s), %s of %s (config %s): shards must come from one run",
				d, m.Variant, m.ConfigHash, dirs[0], first.Variant, first.ConfigHash)
		case m.Shard.Count != first.Shard.Count:
			return nil, badInputf("%s is %v, %s %v: shards must split the run the same way", d, m.Shard, dirs[0], first.Shard)
		}
		if other, dup := byIndex[m.Shard.Index]; dup {
			return nil, badInputf("%s and %s are both %v", other, d, m.Shard)
		}
		if Inside(dir, d) {
			return nil, badInputf("the merged directory %s is the shard directory %s or inside it (links followed): merging would destroy the shard", dir, d)
		}
		byIndex[m.Shard.Index] = d
		shards[i] = m
	}
	n := max(shards[0].Shard.Count, 1)
	if missing := runlog.MissingShards(byIndex, n); missing != "" {
		return nil, badInputf("%s", missing)
	}
	cfg, err := shards[0].Config()
	if err != nil {
		return nil, err
	}
	records := shards[0].Records
	for _, m := range shards {
		if m.Records != records {
			records = runlog.RecordsSummary
		}
	}
	if old, err := runlog.ReadManifest(dir); err == nil && !old.Finished {
		done, _ := runlog.Scan(dir, old.From, old.To, nil, func(*sim.Record) error { return nil })
		return nil, &UnfinishedError{Dir: dir, Done: done - old.From, Total: old.To - old.From}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := runlog.Lock(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := clear(dir); err != nil {
		return nil, err
	}
	m := runlog.NewManifest(cfg, runlog.Shard{}, records)
	if err := m.Write(dir); err != nil {
		return nil, err
	}
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	info := Info(cfg, g)
	agg := reports.NewAggregator(info)
	log, err := runlog.OpenWriter(dir)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	for i := range n {
		d := byIndex[i]
		sm, _ := runlog.ReadManifest(d)
		next, err := runlog.Scan(d, sm.From, sm.To, info.CheckRecord, func(r *sim.Record) error {
			agg.Add(r)
			if records == runlog.RecordsSummary {
				r.Moves = nil
			}
			return log.Add(r)
		})
		if err == nil && next < sm.To {
			err = badInputf("%s (%v) is unfinished (%d of its %d games): finish it with playtest run --resume --out %s",
				d, sm.Shard, next-sm.From, sm.To-sm.From, shell.Quote(d))
			if sm.Finished {
				err = badInputf("%s (%v) is marked finished, but its log holds %d of its %d games (its last line is torn): play the missing ones again with playtest run --resume --out %s",
					d, sm.Shard, next-sm.From, sm.To-sm.From, shell.Quote(d))
			}
		}
		if err != nil {
			log.Close()
			return nil, err
		}
	}
	if err := log.Close(); err != nil {
		return nil, err
	}
	summary := agg.Summary(timing(1, time.Since(start), 0, 0))
	if err := finish(ctx, dir, cfg, m, summary, info, true); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("interrupted while writing the reports of %s; its log is complete: finish it with playtest run --resume --out %s: %w", dir, shell.Quote(dir), err)
		}
		return nil, err
	}
	return summary, nil
}

// resolvedPath is p made absolute with every symbolic link resolved; a
// path that does not exist yet is resolved through its nearest existing
// ancestor.
func resolvedPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r
	}
	parent := filepath.Dir(a)
	if parent == a {
		return a
	}
	return filepath.Join(resolvedPath(parent), filepath.Base(a))
}

// Inside reports whether path is dir or lies inside it, every symbolic
// link followed (a path that does not exist yet through its nearest
// existing ancestor).
func Inside(path, dir string) bool { return within(resolvedPath(path), resolvedPath(dir)) }

// within reports whether path is dir or lies inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ScriptFile is the copy of its rules script a run of a scripted game
// keeps: what the games were played under (the config hash covers it, so
// replay, resume and merge refuse an edited script).
const ScriptFile = "rules.star"

// keepScript copies a scripted variant's script into the run directory.
func keepScript(dir string, cfg *variants.Config) error {
	s := cfg.ScriptOf()
	if s == nil {
		return nil
	}
	return reports.WriteFileAtomic(filepath.Join(dir, ScriptFile), func(w io.Writer) error {
		_, err := w.Write(s.Source)
		return err
	})
}

// RemoveRun removes a run's files from dir (its log and manifest, games,
// summary, reports, plots and kept script), and nothing else: what
// playtest learn --force does before learning where a run was.
func RemoveRun(dir string) error {
	return errors.Join(clear(dir), os.RemoveAll(filepath.Join(dir, "plots")), removeIfThere(filepath.Join(dir, ScriptFile)))
}

func removeIfThere(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// removeRun removes what a fresh run wrote to dir, and dir itself when
// the run made it.
func removeRun(dir string, existed bool) {
	_ = clear(dir)
	_ = os.Remove(filepath.Join(dir, ScriptFile))
	_ = os.Remove(filepath.Join(dir, runlog.LockFile))
	if !existed {
		_ = os.Remove(dir)
	}
}
