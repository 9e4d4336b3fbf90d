package compare

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/studies/learn"
	"playtest/studies/study"
	"playtest/variants"
)

// Kind is the study kind of a comparison (study.Manifest.Kind).
const Kind = "compare"

// design is what a comparison's study manifest records beside its two
// units (A's run, then B's): the metric and the games asked for.
type design struct {
	Schema    string `json:"schema"`
	Metric    string `json:"metric"`
	Requested int    `json:"games_requested"`
	// Learn is the games each side's model is learned from (--learn).
	Learn int `json:"learn,omitempty"`
}

// runStudy plays A and B, each a run directory under opts.Out (a/ and
// b/), then compares them game by game from their logs. A comparison
// without a sequential test is a fixed design: it resumes and shards as
// any run. (A sequential test decides when to stop from the games as they
// come, so it runs on one machine.)
func runStudy(ctx context.Context, a, b *variants.Config, opts Options) (*Result, error) {
	// B plays A's games, seed and pairs (Prepare): recorded as overrides,
	// so that B's run rebuilds it.
	rb, err := b.With(variants.Override{Path: "games", Value: fmt.Sprint(a.Games), Origin: "compare"},
		variants.Override{Path: "seed", Value: fmt.Sprint(a.Seed), Origin: "compare"},
		variants.Override{Path: "pairs", Value: fmt.Sprint(a.Pairs), Origin: "compare"})
	if err != nil {
		return nil, err
	}
	if rb.Hash() != b.Hash() {
		return nil, fmt.Errorf("%s does not rebuild with A's games, seed and pairs", b.Name)
	}
	rb.Name = b.Name
	units := []study.Unit{study.NewUnit(unitNames[0]+a.Name, unitDirs[0], a), study.NewUnit(unitNames[1]+b.Name, unitDirs[1], rb)}
	m, err := study.New(Kind, a.Name+" vs "+b.Name, opts.Command, opts.Shard, units, design{Schema: SchemaV1, Metric: opts.Metric, Requested: a.Games, Learn: opts.Learn})
	if err != nil {
		return nil, err
	}
	return playStudy(ctx, [2]*variants.Config{a, rb}, m, opts)
}

// Resume continues the comparison kept in out from its study manifest
// alone, with its shard.
func Resume(ctx context.Context, out string, opts Options) (*Result, error) {
	m, err := study.Read(out)
	if err != nil {
		return nil, err
	}
	cfgs, d, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	opts.Out, opts.Resume, opts.Shard, opts.Metric, opts.SPRT, opts.Learn = out, true, m.Shard, d.Metric, nil, d.Learn
	return playStudy(ctx, cfgs, m, opts)
}

// unitNames and unitDirs are the prefixes of A's and B's unit names (then
// their variants' names) and their run directories in a comparison's.
var (
	unitNames = [2]string{"A: ", "B: "}
	unitDirs  = [2]string{"a", "b"}
)

// fromManifest rebuilds a comparison's two variants and design from its
// study manifest.
func fromManifest(m *study.Manifest) ([2]*variants.Config, design, error) {
	var d design
	var cfgs [2]*variants.Config
	if m.Kind != Kind {
		return cfgs, d, fmt.Errorf("%s is a %s, not a comparison", study.ManifestFile, m.Kind)
	}
	if err := json.Unmarshal(m.Design, &d); err != nil || d.Schema != SchemaV1 || len(m.Units) != 2 {
		return cfgs, d, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("its comparison design does not match its %d units (%v)", len(m.Units), err)}
	}
	for i := range cfgs {
		cfg, err := m.Units[i].Config()
		if err != nil {
			return cfgs, d, err
		}
		if err := m.CheckUnit(i, unitNames[i]+cfg.Name, unitDirs[i]); err != nil {
			return cfgs, d, err
		}
		cfgs[i] = cfg
	}
	return cfgs, d, nil
}

// playStudy plays A's and B's runs into opts.Out (kept by the study
// manifest m), then compares their logs. A shard returns no result (nil).
func playStudy(ctx context.Context, cfgs [2]*variants.Config, m *study.Manifest, opts Options) (*Result, error) {
	m, err := study.Begin(opts.Out, m, opts.Resume)
	if err != nil {
		return nil, err
	}
	if !opts.Resume {
		// An earlier comparison's models must not be taken for this one's.
		if err := learn.RemoveModels(opts.Out); err != nil {
			return nil, err
		}
	}
	if cfgs, err = learnModels(ctx, cfgs, opts.Out, opts); err != nil {
		return nil, err
	}
	played := 0
	for i, cfg := range cfgs {
		dir := filepath.Join(opts.Out, m.Units[i].Dir)
		_, logged := runlog.ReadManifest(dir)
		dopts := rundir.DirOptions{Options: rundir.Options{Workers: opts.Workers}, Resume: opts.Resume && logged == nil, Replace: true, Shard: m.Shard, NoReports: m.Shard.Count > 0}
		if opts.OnGame != nil && i == 1 { // progress counts B's games, each completing a pair
			dopts.OnRecord = func(*sim.Record) { played++; opts.OnGame(played, nil) }
		}
		if _, err := rundir.RunToDir(ctx, cfg, dopts, dir); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Units[i].Name, err)
		}
	}
	if m.Shard.Count > 0 {
		return nil, study.Finish(opts.Out, m) // a slice of A's and B's games: merge assembles the comparison
	}
	return compareLogs(ctx, cfgs, opts.Out, m, opts)
}

// compareLogs compares the games A's and B's runs logged under dir, pair
// by pair in index order.
func compareLogs(ctx context.Context, cfgs [2]*variants.Config, dir string, m *study.Manifest, opts Options) (*Result, error) {
	opts.OnGame = nil // the games were counted as they were played
	t, err := newTally(cfgs[0], cfgs[1], opts)
	if err != nil {
		return nil, err
	}
	dirs := [2]string{filepath.Join(dir, m.Units[0].Dir), filepath.Join(dir, m.Units[1].Dir)}
	if err := runlog.ScanPair(dirs, [2]int{cfgs[0].Games, cfgs[1].Games}, t.add); err != nil {
		return nil, err
	}
	if t.res.Games != cfgs[0].Games {
		return nil, fmt.Errorf("%s holds %d compared games of %d", dir, t.res.Games, cfgs[0].Games)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = sim.DefaultWorkers()
	}
	return t.result(workers), ctx.Err()
}

// Merge assembles the comparison whose shard directories are dirs into
// out (study.Merge) and returns it: the same result as one process
// playing the whole comparison (its summaries' timing apart).
func Merge(ctx context.Context, dirs []string, out string) (*Result, error) {
	m, _, err := study.Merge(ctx, dirs, out)
	if err != nil {
		return nil, err
	}
	cfgs, d, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	if d.Learn > 0 {
		// The sides' bots played their learned models: the variants their
		// runs recorded, not the study's units before learning.
		for i := range cfgs {
			rm, err := runlog.ReadManifest(filepath.Join(out, m.Units[i].Dir))
			if err != nil {
				return nil, err
			}
			if cfgs[i], err = rm.Config(); err != nil {
				return nil, err
			}
		}
	}
	return compareLogs(ctx, cfgs, out, m, Options{Metric: d.Metric})
}
