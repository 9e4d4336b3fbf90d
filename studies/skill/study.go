package skill

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/studies/study"
	"playtest/variants"
)

// A fixed ladder (Budgets, without UntilSettled) kept in Options.Out is a
// study: each rung's self-play and head-to-head is an ordinary run
// directory under rungs/, played, resumed and sharded as any run, and the
// rungs' figures come from the games those directories log. A ladder
// whose design depends on what it finds (the default ladder, which stops
// at --max-time; UntilSettled, which adds games and rungs as the verdict
// asks) is played on one machine and written at the end.

// pendingUnit is the one unit of a pending ladder's manifest: the
// variant, played in no directory.
const pendingUnit = "variant"

// recordPending writes the ladder's pending manifest (design.Pending): its
// variant and settings, before anything else is done.
func recordPending(cfg *variants.Config, opts Options) error {
	d := design{Result: Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(),
		Tolerance: opts.Tolerance, MaxGain: opts.MaxGain}, Budgets: opts.Budgets, Pending: true, NoBook: opts.NoBook}
	m, err := study.New(Kind, d.Result.Name(), opts.Command, opts.Shard, []study.Unit{study.NewUnit(cfg.Label(), pendingUnit, cfg)}, d)
	if err != nil {
		return err
	}
	_, err = study.Begin(opts.Out, m, false)
	return err
}

// runStudy plays the fixed ladder of res into opts.Out.
func runStudy(ctx context.Context, cfg *variants.Config, res *Result, opts Options) (*Result, error) {
	rungs, err := ladderRungs(cfg, opts.Budgets)
	if err != nil {
		return nil, err
	}
	d := design{Result: *res, Budgets: opts.Budgets}
	units, presets, err := studyUnits(rungs)
	if err != nil {
		return nil, err
	}
	d.Presets = presets
	m, err := study.New(Kind, res.Name(), opts.Command, opts.Shard, units, d)
	if err != nil {
		return nil, err
	}
	if !opts.Resume {
		// The pending manifest written before the proof gives way to the
		// ladder's own.
		if err := study.Discard(opts.Out); err != nil {
			return nil, err
		}
	}
	return playStudy(ctx, res, rungs, m, opts)
}

// studyUnits are the runs of the ladder's rungs as a study's units, in
// order (each rung's self-play, then its head-to-head), and which rungs
// play the variant's own budget.
func studyUnits(rungs []Rung) ([]study.Unit, []bool, error) {
	var units []study.Unit
	var presets []bool
	for k, r := range rungs {
		presets = append(presets, r.Preset)
		for _, s := range r.series() {
			u := study.NewUnit(s.name, unitDir(k, s), &s.cfg)
			if _, err := u.Config(); err != nil {
				return nil, nil, fmt.Errorf("this ladder cannot be kept in a directory (%s: %v): play it without --out, or set its bots in the variant", s.name, err)
			}
			units = append(units, u)
		}
	}
	return units, presets, nil
}

// ladderRungs are the rungs of a fixed ladder, not yet played.
func ladderRungs(cfg *variants.Config, ladder []int) ([]Rung, error) {
	var rungs []Rung
	for _, b := range ladder {
		r, err := newRung(cfg, rungs, b)
		if err != nil {
			return nil, err
		}
		_, own, _ := budgets(cfg)
		r.Preset = b == own && cfg.Players[0].Same(cfg.Players[1])
		rungs = append(rungs, *r)
	}
	return rungs, nil
}

// series lists the rung's runs: self-play, then the head-to-head.
func (r *Rung) series() []*series {
	if r.headToHead == nil {
		return []*series{r.self}
	}
	return []*series{r.self, r.headToHead}
}

// unitDir is a run's directory in a ladder's.
func unitDir(k int, s *series) string {
	if s.headToHead {
		return fmt.Sprintf("rungs/%02d-%d-vs-below", k+1, s.budget)
	}
	return fmt.Sprintf("rungs/%02d-%d", k+1, s.budget)
}

// Resume continues the ladder kept in out from its study manifest alone,
// with its shard.
func Resume(ctx context.Context, out string, opts Options) (*Result, error) {
	m, err := study.Read(out)
	if err != nil {
		return nil, err
	}
	if d, ok := pending(m); ok {
		// Stopped before its first run: start it again from its record.
		if opts.Budgets != nil {
			if err := extends(d.Budgets, opts.Budgets); err != nil {
				return nil, err
			}
			d.Budgets = opts.Budgets
		}
		cfg, err := m.Units[0].Config()
		if err == nil && opts.Games > 0 {
			_, cfg, err = m.Units[0].Recipe.Grown(m.Units[0].Variant, m.Units[0].ConfigHash, study.ManifestFile, opts.Games)
		}
		if err != nil {
			return nil, err
		}
		opts.Budgets, opts.NoBook, opts.Tolerance, opts.MaxGain = d.Budgets, d.NoBook, d.Tolerance, d.MaxGain
		opts.Out, opts.Resume, opts.Shard, opts.Command = out, false, m.Shard, m.Command
		if err := study.Discard(out); err != nil {
			return nil, err
		}
		return Run(ctx, cfg, opts)
	}
	if opts.Budgets != nil {
		if m, err = climbKept(m, opts.Budgets, out); err != nil {
			return nil, err
		}
	}
	if opts.Games > 0 {
		if m, err = grow(m, opts.Games, out); err != nil {
			return nil, err
		}
	}
	res, rungs, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	opts.Out, opts.Resume, opts.Shard = out, true, m.Shard
	return playStudy(ctx, res, rungs, m, opts)
}

// grow grows the ladder kept in out under m to games games a run, and
// records it there (study.Grow).
func grow(m *study.Manifest, games int, out string) (*study.Manifest, error) {
	return study.Grow(out, m, Kind, games, func(raw json.RawMessage) (any, error) {
		var d design
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, err
		}
		d.Games = games
		return d, nil
	})
}

// extends checks that budgets are the kept ladder's budgets with rungs
// added at the top: a rung added lower down would change the head-to-head
// of the rung above it, which has been played.
func extends(kept, budgets []int) error {
	if len(budgets) < len(kept) || !slices.Equal(budgets[:len(kept)], kept) {
		return study.BadInputf("--budgets %s: a kept ladder climbs only at the top, so give its budgets %s first, then the rungs to add above %d (each rung's head-to-head is against the rung below it, already played)",
			joinBudgets(budgets), joinBudgets(kept), kept[len(kept)-1])
	}
	return nil
}

// joinBudgets writes budgets as --budgets takes them.
func joinBudgets(budgets []int) string {
	s := make([]string, len(budgets))
	for i, b := range budgets {
		s[i] = strconv.Itoa(b)
	}
	return strings.Join(s, ",")
}

// climbKept adds rungs at the top of the ladder kept in out under m, up
// to budgets (the kept budgets, then higher ones), and records it there:
// a resume then plays only the new rungs' runs, and the ladder is the one
// a study of all those budgets from the start gives (its kept runs are
// that study's first ones, checked by their config hashes). Budgets the
// ladder has already leave it as it is. Only a whole study climbs, as
// only a whole study grows.
func climbKept(m *study.Manifest, ladder []int, out string) (*study.Manifest, error) {
	if m.Kind != Kind {
		return nil, study.BadInputf("%s holds a %s, not a skill ladder", filepath.Join(out, study.ManifestFile), m.Kind)
	}
	var d design
	if err := json.Unmarshal(m.Design, &d); err != nil || len(d.Budgets) < 2 {
		return nil, &study.Error{Path: filepath.Join(out, study.ManifestFile), Err: fmt.Errorf("its ladder design is damaged (%v)", err)}
	}
	if err := extends(d.Budgets, ladder); err != nil {
		return nil, err
	}
	if len(ladder) == len(d.Budgets) {
		return m, nil
	}
	if m.Shard.Count > 0 {
		return nil, study.BadInputf("this directory holds %v of the ladder %q: a shard climbs only with the others, so merge the shards first (playtest merge), then add rungs to the merged ladder", m.Shard, m.Name)
	}
	cfg, err := ladderBase(m.Units[0])
	if err != nil {
		return nil, err
	}
	if err := Validate(cfg, Options{Budgets: ladder, Tolerance: d.Tolerance, MaxGain: d.MaxGain}); err != nil {
		return nil, study.BadInputf("%v", err)
	}
	rungs, err := ladderRungs(cfg, ladder)
	if err != nil {
		return nil, err
	}
	units, presets, err := studyUnits(rungs)
	if err != nil {
		return nil, err
	}
	for i, u := range m.Units {
		if units[i].Name != u.Name || units[i].Dir != u.Dir || units[i].ConfigHash != u.ConfigHash {
			return nil, &study.Error{Path: filepath.Join(out, study.ManifestFile), Err: fmt.Errorf("unit %q does not rebuild as the first runs of the higher ladder (%s in %s, config hash %s): was it written by another version of playtest?", u.Name, units[i].Name, units[i].Dir, units[i].ConfigHash)}
		}
	}
	_, own, _ := budgets(cfg)
	d.Budgets, d.Presets = ladder, presets
	d.Bots = describeBots(cfg.Players, own, ladder)
	c := *m
	c.Units = append(slices.Clone(m.Units), units[len(m.Units):]...)
	if c.Design, err = json.Marshal(d); err != nil {
		return nil, err
	}
	c.Command = climbedCommand(m.Command, d.Budgets)
	return &c, c.Write(out)
}

// ladderBase is the variant a kept ladder climbs, as its first run was
// built from it: that run's recipe without the overrides the ladder set
// for its budgets (withBudgets: pairs and each seat's budget). Growing
// moves the games' override last, so they are found by what they set.
func ladderBase(u study.Unit) (*variants.Config, error) {
	r := u.Recipe
	set := func(o variants.Override) bool {
		return o.Origin == origin && (o.Path == "pairs" || strings.HasPrefix(o.Path, "players.0.") || strings.HasPrefix(o.Path, "players.1."))
	}
	base := slices.DeleteFunc(slices.Clone(r.Overrides), set)
	if len(r.Overrides)-len(base) != 3 {
		return nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("unit %q does not record the budgets its ladder gave it: was it written by another version of playtest?", u.Name)}
	}
	cfg, err := variants.Parse(r.Source, r.DefaultName, []byte(r.Text), base)
	if err != nil {
		return nil, err
	}
	cfg.Name = u.Variant
	return cfg, nil
}

// climbedCommand is a kept ladder's command once it has climbed to
// ladder: its --budgets replaced, as the command that plays the ladder
// from the start would read (or a note of the climb, where the command
// names no --budgets).
func climbedCommand(command string, ladder []int) string {
	const flag = "--budgets="
	if command == "" {
		return ""
	}
	fields := strings.Split(command, " ")
	for i, f := range fields {
		if strings.HasPrefix(f, flag) {
			fields[i] = flag + joinBudgets(ladder)
			return strings.Join(fields, " ")
		}
	}
	return fmt.Sprintf("%s (climbed to %s%s)", command, flag, joinBudgets(ladder))
}

// pending reports whether m is a ladder's pending manifest, with its
// design.
func pending(m *study.Manifest) (design, bool) {
	var d design
	if m.Kind != Kind || json.Unmarshal(m.Design, &d) != nil || !d.Pending || len(m.Units) != 1 || m.Units[0].Dir != pendingUnit {
		return d, false
	}
	return d, true
}

// fromManifest rebuilds a ladder (rungs not yet played) from its study
// manifest: the header and budgets from its design, each run's variant
// from its unit.
func fromManifest(m *study.Manifest) (*Result, []Rung, error) {
	if m.Kind != Kind {
		return nil, nil, fmt.Errorf("%s is a %s, not a skill ladder", study.ManifestFile, m.Kind)
	}
	var d design
	if err := json.Unmarshal(m.Design, &d); err != nil || d.Schema != Schema || len(d.Budgets) < 2 || len(m.Units) != 2*len(d.Budgets)-1 {
		return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("its ladder design does not match its %d units (%v)", len(m.Units), err)}
	}
	res := d.Result
	res.Rungs = nil
	var rungs []Rung
	i := 0
	for k, b := range d.Budgets {
		r := Rung{Budget: b}
		for _, headToHead := range []bool{false, true} {
			if headToHead && k == 0 {
				continue
			}
			cfg, err := m.Units[i].Config()
			if err != nil {
				return nil, nil, err
			}
			below := 0
			if k > 0 {
				below = d.Budgets[k-1]
			}
			s, err := newSeries(cfg, seriesName(b, below, headToHead), k, b, headToHead)
			if err != nil {
				return nil, nil, err
			}
			if _, b0, ok0 := cfg.Players[0].Budget(); !ok0 || b0 != b {
				return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("changed or damaged: unit %q plays seat 0 at another budget than %d", m.Units[i].Name, b)}
			}
			if err := m.CheckUnit(i, s.name, unitDir(k, s)); err != nil {
				return nil, nil, err
			}
			if headToHead {
				r.headToHead = s
			} else {
				r.self = s
			}
			i++
		}
		rungs = append(rungs, r)
	}
	for k := range rungs {
		rungs[k].Preset = k < len(d.Presets) && d.Presets[k]
	}
	return &res, rungs, nil
}

// playStudy plays every run of the ladder into its directory under
// opts.Out (kept by the study manifest m), then computes the rungs and
// the verdict from their logs. A shard returns no result (nil).
func playStudy(ctx context.Context, res *Result, rungs []Rung, m *study.Manifest, opts Options) (*Result, error) {
	m, err := study.Begin(opts.Out, m, opts.Resume)
	if err != nil {
		return nil, err
	}
	i := 0
	for k := range rungs {
		begin := time.Now()
		for _, s := range rungs[k].series() {
			dir := filepath.Join(opts.Out, m.Units[i].Dir)
			i++
			_, logged := runlog.ReadManifest(dir)
			dopts := rundir.DirOptions{Options: rundir.Options{Workers: opts.Workers}, Resume: opts.Resume && logged == nil, Extend: true, Replace: true, Shard: m.Shard, NoReports: true}
			if opts.OnGame != nil {
				dopts.OnRecord = func(*sim.Record) { opts.OnGame() }
			}
			dopts.Start = func(done, total int) {
				if opts.Started != nil {
					opts.Started(k, s.budget, s.headToHead, total-done)
				}
			}
			if _, err := rundir.RunToDir(ctx, &s.cfg, dopts, dir); err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
		}
		rungs[k].Seconds = time.Since(begin).Seconds()
	}
	if m.Shard.Count > 0 {
		return nil, study.Finish(opts.Out, m) // a slice of every run: merge assembles the ladder
	}
	if err := res.tallyLogs(opts.Out, rungs, m); err != nil {
		return nil, err
	}
	if err := res.finish(ctx, &rungs[0].self.cfg, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// tallyLogs computes every rung from the games its runs logged in dir,
// then the verdict.
func (r *Result) tallyLogs(dir string, rungs []Rung, m *study.Manifest) error {
	i := 0
	for k := range rungs {
		for _, s := range rungs[k].series() {
			if err := s.load(filepath.Join(dir, m.Units[i].Dir)); err != nil {
				return err
			}
			i++
		}
		if err := rungs[k].refresh(); err != nil {
			return err
		}
		if k > 0 {
			rungs[k].Shift = shift(rungs[k].self, rungs[k-1].self)
		}
	}
	r.Rungs = rungs
	if len(rungs) > 0 && r.Proven == nil {
		r.Proven = prove(context.Background(), &rungs[0].self.cfg)
	}
	r.judge()
	r.agreeWithProof()
	return nil
}

// readKept is the ladder kept in dir under its manifest m, every run
// played: its rungs and verdict from the games the runs logged.
func readKept(dir string, m *study.Manifest) (*Result, error) {
	res, rungs, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	if err := res.tallyLogs(dir, rungs, m); err != nil {
		return nil, err
	}
	return res, nil
}

// Merge assembles the ladder whose shard directories are dirs into out
// (study.Merge) and returns it: the same result as one process playing
// the whole ladder, apart from each rung's seconds.
func Merge(ctx context.Context, dirs []string, out string) (*Result, error) {
	m, _, err := study.Merge(ctx, dirs, out)
	if err != nil {
		return nil, err
	}
	res, err := readKept(out, m)
	if err != nil {
		return nil, err
	}
	// The judgement one process would have made (by default).
	if err := res.judgeAccuracy(ctx, Options{Accuracy: AutoAccuracy}); err != nil {
		return nil, err
	}
	return res, nil
}
