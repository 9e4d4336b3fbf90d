package study

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"playtest/internal/bounded"
	"playtest/internal/buildinfo"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/variants"
)

// ManifestFile is a study directory's manifest (runs/rundir names it
// too, to refuse a run over a study).
const ManifestFile = rundir.StudyManifest

// Schema is the schema tag of study.json.
const Schema = "playtest/study/v1"

// Unit is one run of a study: its name in the study, its directory
// (relative to the study's) and how its variant is built.
type Unit struct {
	Name       string `json:"name"`
	Dir        string `json:"dir"`
	Variant    string `json:"variant"`
	ConfigHash string `json:"config_hash"`
	runlog.Recipe
}

// NewUnit is the unit named name that plays cfg in dir.
func NewUnit(name, dir string, cfg *variants.Config) Unit {
	return Unit{Name: name, Dir: dir, Variant: cfg.Name, ConfigHash: cfg.Hash(), Recipe: runlog.NewRecipe(cfg)}
}

// Config rebuilds the unit's variant and checks it is the one recorded.
func (u *Unit) Config() (*variants.Config, error) {
	return u.Recipe.Rebuild(u.Variant, u.ConfigHash, ManifestFile)
}

// Manifest says what a study directory holds.
type Manifest struct {
	Schema string `json:"schema"`
	// Kind is the command that plays the study: sweep, tournament, skill
	// or compare.
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Command is the command line that started it, for people.
	Command string `json:"command"`
	// Shard is the slice of every unit's games the directory plays.
	Shard runlog.Shard `json:"shard"`
	Units []Unit       `json:"units"`
	// Design is the kind's own description of the study: what it needs,
	// beside the units' results, to write its results.
	Design json.RawMessage `json:"design"`
	// Finished is set once every unit and the study's own results are
	// written.
	Finished  bool   `json:"finished,omitempty"`
	Playtest  string `json:"playtest,omitempty"`
	ResumedBy string `json:"resumed_by,omitempty"`
}

// New describes a study of kind with its units and design.
func New(kind, name, command string, shard runlog.Shard, units []Unit, design any) (*Manifest, error) {
	d, err := json.Marshal(design)
	if err != nil {
		return nil, err
	}
	return &Manifest{Schema: Schema, Kind: kind, Name: name, Command: command, Shard: shard, Units: units, Design: d, Playtest: buildinfo.Get().Short()}, nil
}

// Identity is a hash of what decides the study's results: its kind,
// design and units. Two directories of one study, whatever their shard,
// have the same identity.
func (m *Manifest) Identity() string {
	h := sha256.New()
	// The design compacted: the same whatever the file's indentation.
	fmt.Fprintf(h, "%s\n%s\n", m.Kind, reports.CompactJSON(m.Design))
	for _, u := range m.Units {
		fmt.Fprintf(h, "%s\n%s\n%s\n", u.Name, u.Dir, u.ConfigHash)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Write writes the manifest to dir atomically.
func (m *Manifest) Write(dir string) error {
	return reports.WriteJSONFileAtomic(filepath.Join(dir, ManifestFile), m)
}

// grownNote begins what Grown adds to a study's command: " (grown to N
// games)".
const grownNote = " (grown to "

// Grown is the study m with every unit grown to games games
// (runlog.Recipe.Grown): each unit's first games are the ones it had, so
// that a resume (with rundir.DirOptions.Extend) plays only the new ones.
// The kind's design, which may count the games too, is the caller's to
// change. Only a whole study grows: a shard's slice of each unit depends
// on the unit's size.
func (m *Manifest) Grown(games int) (*Manifest, error) {
	if m.Shard.Count > 0 {
		return nil, badInputf("this directory holds %v of %s %q: the slice a shard plays depends on the games in all, so only a whole study grows; merge the shards first (playtest merge), then add games to the merged study", m.Shard, m.Kind, m.Name)
	}
	g := *m
	g.Units = make([]Unit, len(m.Units))
	for i, u := range m.Units {
		r, cfg, err := u.Recipe.Grown(u.Variant, u.ConfigHash, ManifestFile, games)
		if err != nil {
			return nil, badInput{fmt.Errorf("%s: %w", u.Name, err)}
		}
		g.Units[i] = NewUnit(u.Name, u.Dir, cfg)
		g.Units[i].Recipe = r
	}
	// The command as first given, then the games grown to, once.
	first, _, _ := strings.Cut(m.Command, grownNote)
	g.Command = fmt.Sprintf("%s%s%d games)", first, grownNote, games)
	return &g, nil
}

// Grow grows the study of kind kept in dir under m to games games a unit
// (Grown), its design rewritten by redesign (from m's; a design that
// counts the games takes the new count), and records it in dir: each
// unit's run then grows when the study is resumed (its runs resumed with
// rundir.DirOptions.Extend). A study whose units have those games
// already is left as it is.
func Grow(dir string, m *Manifest, kind string, games int, redesign func(design json.RawMessage) (any, error)) (*Manifest, error) {
	if m.Kind != kind {
		return nil, badInputf("%s holds a %s, not a %s", filepath.Join(dir, ManifestFile), m.Kind, kind)
	}
	g, err := m.Grown(games)
	if err != nil {
		return nil, err
	}
	if slices.EqualFunc(g.Units, m.Units, func(a, b Unit) bool { return a.ConfigHash == b.ConfigHash }) {
		return m, nil
	}
	d, err := redesign(m.Design)
	if err != nil {
		return nil, &Error{Path: filepath.Join(dir, ManifestFile), Err: err}
	}
	if g.Design, err = json.Marshal(d); err != nil {
		return nil, err
	}
	return g, g.Write(dir)
}

// ErrNoManifest is returned by Read for a directory without a study.
var ErrNoManifest = errors.New("no " + ManifestFile)

// Read reads dir's study manifest.
func Read(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := bounded.ReadFile(path, 256<<20) // a unit's recipe is a few KB; a study has at most a few thousand
	if errors.Is(err, os.ErrNotExist) {
		if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
			return nil, badInput{fmt.Errorf("%s: %w: the directory is empty, so the study was stopped before it began (before any game): start it again, the same command without --resume", dir, ErrNoManifest)}
		}
		return nil, badInput{fmt.Errorf("%s: %w: not a study directory (playtest sweep, tune, tournament, skill --budgets or compare with --out write one)", dir, ErrNoManifest)}
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	if err := m.check(); err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	return &m, nil
}

// check tests that a manifest read from a file can describe a study.
func (m *Manifest) check() error {
	switch {
	case m.Schema != Schema:
		return fmt.Errorf("schema %q, want %q", m.Schema, Schema)
	case m.Kind == "":
		return fmt.Errorf("no kind")
	case len(m.Units) == 0:
		return fmt.Errorf("no units")
	case m.Shard.Check() != nil:
		return m.Shard.Check()
	}
	// Each unit's directory lies inside the study's, apart from every
	// other's: none is the study's own, another's, or inside another's.
	var dirs []string
	for _, u := range m.Units {
		d := filepath.Clean(u.Dir)
		if !filepath.IsLocal(d) || d == "." {
			return fmt.Errorf("unit %q: directory %q is not inside the study's", u.Name, u.Dir)
		}
		for _, other := range dirs {
			if d == other || strings.HasPrefix(d, other+string(filepath.Separator)) || strings.HasPrefix(other, d+string(filepath.Separator)) {
				return fmt.Errorf("unit %q: directory %q is not apart from %q", u.Name, u.Dir, other)
			}
		}
		dirs = append(dirs, d)
	}
	return nil
}

// CheckUnit returns a *Error when the i-th unit of m is not named name in
// directory dir, as its design and recipe make it: a study.json whose
// units were swapped or renamed by hand would mislabel its rows.
func (m *Manifest) CheckUnit(i int, name, dir string) error {
	u := m.Units[i]
	if u.Name != name || filepath.Clean(u.Dir) != filepath.Clean(dir) {
		return &Error{Path: ManifestFile, Err: fmt.Errorf("changed or damaged: unit %d is %q in %s, but its design and recipe make it %q in %s", i+1, u.Name, u.Dir, name, dir)}
	}
	return nil
}

// Error is a study.json that cannot describe a study: damaged, or edited
// by hand. Nothing in its directory is touched.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %v (the study's manifest was changed or damaged; nothing in the directory was touched)", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// BadInput marks the error as the user's (exit 2).
func (e *Error) BadInput() bool { return true }

// badInput is a refusal of what the user asked for (exit 2).
type badInput struct{ error }

func (badInput) BadInput() bool { return true }

func (b badInput) Unwrap() error { return b.error }

func badInputf(format string, args ...any) error { return badInput{fmt.Errorf(format, args...)} }

// BadInputf is an error refusing what the user asked for (exit 2), for
// the kinds that keep their studies here.
func BadInputf(format string, args ...any) error { return badInputf(format, args...) }

// Begin prepares dir for the study m and returns the manifest to play
// under. A fresh start refuses a directory holding an unfinished study
// (resume it, or choose another directory); a resume continues the study
// recorded in dir, which must be m's (same identity and shard).
func Begin(dir string, m *Manifest, resume bool) (*Manifest, error) {
	old, err := Read(dir)
	switch {
	case errors.Is(err, ErrNoManifest) && resume:
		return nil, badInputf("nothing to resume: %v", err)
	case errors.Is(err, ErrNoManifest) && holdsRun(dir):
		return nil, &RunThereError{Dir: dir, Kind: m.Kind}
	case errors.Is(err, ErrNoManifest):
	case err != nil:
		return nil, err
	case resume && old.Shard != m.Shard:
		return nil, badInputf("%s holds %v of %s %q, not %v: resume it with playtest %s --resume --out %s, which takes everything from the directory",
			dir, old.Shard, old.Kind, old.Name, m.Shard, old.Kind, shell.Quote(dir))
	case resume && (old.Identity() != m.Identity() || old.Kind != m.Kind):
		return nil, badInputf("%s holds %s %q (started by %s), not this one (other variants or settings): resume it with playtest %s --resume --out %s, which takes everything from the directory, or give another --out",
			dir, old.Kind, old.Name, old.Command, old.Kind, shell.Quote(dir))
	case resume:
		if old.Playtest != m.Playtest {
			old.ResumedBy = m.Playtest
		}
		m = old
	case !old.Finished:
		return nil, badInputf("%s holds an unfinished %s (%s): continue it with playtest %s --resume --out %s, or give another --out",
			dir, old.Kind, old.Command, old.Kind, shell.Quote(dir))
	case old.Kind != m.Kind:
		// A kind rewrites its own results; another kind's would stay
		// beside the new study's and read as its.
		return nil, badInputf("%s holds a finished %s %q (%s): a %s there would leave the %s's files beside its own; give another --out, or remove the directory first",
			dir, old.Kind, old.Name, old.Command, m.Kind, old.Kind)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := m.noLinks(dir); err != nil {
		return nil, err
	}
	m.Finished = false
	return m, m.Write(dir)
}

// Discard removes dir's study manifest, when its study has written nothing
// beside it (a ladder's pending record, replaced by the ladder's own).
func Discard(dir string) error {
	if err := os.Remove(filepath.Join(dir, ManifestFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// RunThereError refuses a study in a directory that holds a run (playtest
// run --out): the study's files would stand beside the run's and read as
// one output.
type RunThereError struct{ Dir, Kind string }

func (e *RunThereError) Error() string {
	return fmt.Sprintf("%s holds a run (%s): a %s there would leave its files beside the run's; give another --out, or remove the run first", e.Dir, runlog.ManifestFile, e.Kind)
}

// BadInput marks the error as the user's (exit 2).
func (e *RunThereError) BadInput() bool { return true }

// holdsRun reports whether dir holds a run's manifest.
func holdsRun(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, runlog.ManifestFile))
	return err == nil
}

// noLinks refuses a study directory in which a unit's directory, or a
// directory on the way to it, is a link (or a file): playing or merging
// the unit would write wherever the link points.
func (m *Manifest) noLinks(dir string) error {
	for _, u := range m.Units {
		if err := reports.NoLinksBelow(dir, filepath.Join(dir, u.Dir)); err != nil {
			return err
		}
	}
	return nil
}

// differences says how two studies differ, for a refusal to merge them:
// their kinds and names, the keys of their designs that differ (seed,
// games, metric…), and their units (how many, their names, and what the
// first unit that plays another variant plays differently).
func differences(a, b *Manifest) string {
	var diffs []string
	if a.Kind != b.Kind || a.Name != b.Name {
		diffs = append(diffs, fmt.Sprintf("%s %q against %s %q", a.Kind, a.Name, b.Kind, b.Name))
	}
	var da, db map[string]json.RawMessage
	_ = json.Unmarshal(a.Design, &da)
	_ = json.Unmarshal(b.Design, &db)
	keys := map[string]bool{}
	for k := range da {
		keys[k] = true
	}
	for k := range db {
		keys[k] = true
	}
	var changed []string
	for k := range keys {
		if !bytes.Equal(reports.CompactJSON(da[k]), reports.CompactJSON(db[k])) {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	for _, k := range changed {
		if len(da[k]) < 40 && len(db[k]) < 40 {
			diffs = append(diffs, fmt.Sprintf("%s %s against %s", k, orNone(da[k]), orNone(db[k])))
		} else {
			diffs = append(diffs, k+" differs")
		}
	}
	switch {
	case len(a.Units) != len(b.Units):
		diffs = append(diffs, fmt.Sprintf("%d units against %d", len(a.Units), len(b.Units)))
	default:
		for i := range a.Units {
			ua, ub := a.Units[i], b.Units[i]
			if ua.Name != ub.Name || ua.Dir != ub.Dir {
				diffs = append(diffs, fmt.Sprintf("unit %d is %q against %q", i+1, ua.Name, ub.Name))
				break
			}
			if ua.ConfigHash != ub.ConfigHash {
				diffs = append(diffs, fmt.Sprintf("unit %q plays another variant (%s)", ua.Name, configDifference(&ua, &ub)))
				break
			}
		}
	}
	if len(diffs) == 0 {
		return "the same units and design, written differently"
	}
	return strings.Join(diffs, "; ")
}

// configDifference says how two units' variants differ: games, seed,
// pairs, or else their rules or bots.
func configDifference(a, b *Unit) string {
	ca, errA := a.Config()
	cb, errB := b.Config()
	if errA != nil || errB != nil {
		return "config hash " + a.ConfigHash + " against " + b.ConfigHash
	}
	var d []string
	if ca.Games != cb.Games {
		d = append(d, fmt.Sprintf("games %d against %d", ca.Games, cb.Games))
	}
	if ca.Seed != cb.Seed {
		d = append(d, fmt.Sprintf("seed %d against %d", ca.Seed, cb.Seed))
	}
	if ca.Pairs != cb.Pairs {
		d = append(d, fmt.Sprintf("pairs %v against %v", ca.Pairs, cb.Pairs))
	}
	if len(d) == 0 {
		return "other rules or bots"
	}
	return strings.Join(d, ", ")
}

// orNone writes a JSON value, or "none" when absent.
func orNone(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "none"
	}
	return string(reports.CompactJSON(raw))
}

// Finish marks the study in dir finished.
func Finish(dir string, m *Manifest) error {
	m.Finished = true
	return m.Write(dir)
}

// FinishDir marks the study kept in dir finished, if dir keeps one: for
// a kind that writes its own results after its units.
func FinishDir(dir string) error {
	m, err := Read(dir)
	if errors.Is(err, ErrNoManifest) {
		return nil
	}
	if err != nil {
		return err
	}
	return Finish(dir, m)
}

// Merge combines the shard directories of one study into dir, unit by
// unit (rundir.Merge), and returns the merged study's manifest, not
// yet finished, with each unit's summary: the kind then writes its own
// results from them and finishes the study. Every directory must hold the
// same study, split the same way, finished, and together every shard.
func Merge(ctx context.Context, dirs []string, dir string) (*Manifest, []*reports.Summary, error) {
	if len(dirs) == 0 {
		return nil, nil, badInputf("merge needs at least one shard directory")
	}
	manifests := make([]*Manifest, len(dirs))
	byIndex := map[int]string{}
	for i, d := range dirs {
		m, err := Read(d)
		if err != nil {
			return nil, nil, err
		}
		first := manifests[0]
		if i == 0 {
			first = m
		}
		switch {
		case m.Identity() != first.Identity():
			return nil, nil, badInputf("%s and %s hold different studies (%s): shards must come from one study",
				dirs[0], d, differences(first, m))
		case m.Shard.Count != first.Shard.Count:
			return nil, nil, badInputf("%s is %v, %s %v: shards must split the study the same way", d, m.Shard, dirs[0], first.Shard)
		case !m.Finished:
			return nil, nil, badInputf("%s (%v) is unfinished: continue it with playtest %s --resume --out %s", d, m.Shard, m.Kind, shell.Quote(d))
		}
		if other, dup := byIndex[m.Shard.Index]; dup {
			return nil, nil, badInputf("%s and %s are both %v", other, d, m.Shard)
		}
		if rundir.Inside(dir, d) {
			return nil, nil, badInputf("the merged directory %s is the shard directory %s or inside it (links followed): merging would destroy the shard", dir, d)
		}
		byIndex[m.Shard.Index] = d
		manifests[i] = m
	}
	if missing := runlog.MissingShards(byIndex, max(manifests[0].Shard.Count, 1)); missing != "" {
		return nil, nil, badInputf("%s", missing)
	}
	merged := *manifests[0]
	merged.Shard, merged.Playtest, merged.ResumedBy = runlog.Shard{}, buildinfo.Get().Short(), ""
	var words []string
	for _, w := range strings.Fields(merged.Command) {
		if !strings.HasPrefix(w, "--shard=") {
			words = append(words, w)
		}
	}
	merged.Command = strings.Join(words, " ") + " (merged from shards)"
	if old, err := Read(dir); err == nil && !old.Finished {
		return nil, nil, badInputf("%s holds an unfinished %s (%s): give another --out", dir, old.Kind, old.Command)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	if err := merged.noLinks(dir); err != nil {
		return nil, nil, err
	}
	if err := merged.Write(dir); err != nil {
		return nil, nil, err
	}
	summaries := make([]*reports.Summary, len(merged.Units))
	for i, u := range merged.Units {
		shards := make([]string, len(dirs))
		for j, d := range dirs {
			shards[j] = filepath.Join(d, u.Dir)
		}
		s, err := rundir.Merge(ctx, shards, filepath.Join(dir, u.Dir))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", u.Name, err)
		}
		summaries[i] = s
	}
	return &merged, summaries, nil
}

// Command is the command line that reruns a study's kind with args, for
// the manifest: "playtest sweep stacktics-size2 --games 100".
func Command(kind string, args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shell.Quote(a)
	}
	return strings.TrimSpace("playtest " + kind + " " + strings.Join(quoted, " "))
}
