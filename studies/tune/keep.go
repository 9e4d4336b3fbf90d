package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"playtest/internal/bounded"
	"playtest/reports"
	"playtest/runs/runlog"
	"playtest/studies/study"
)

// Kind is the study kind of a race kept in a directory
// (study.Manifest.Kind).
const Kind = "tune"

// StateFile holds a kept race's state: every candidate's games so far
// and the rounds judged.
const StateFile = "tune-state.json"

// stateSchema is the schema tag of StateFile.
const stateSchema = "playtest/tune-state/v1"

// SaveEvery is the least time between two saves of a race's state while a
// round plays (a variable for tests); the state is saved at the start and
// end of every round too. A stop loses at most the games since the last
// save, which a resume plays again alike.
var SaveEvery = 2 * time.Second

// design is what a race's study manifest records beside its candidates:
// the result's header and each candidate's axis values.
type design struct {
	Result
	Values [][]string `json:"values"`
	Space  space      `json:"space"`
}

// state is a race's state (StateFile).
type state struct {
	Schema   string `json:"schema"`
	Identity string `json:"identity"`
	progress
	Spent       int              `json:"games_spent"`
	Rounds      []Round          `json:"rounds"`
	Evaluations []Evaluation     `json:"evaluations"`
	Candidates  []candidateState `json:"candidates"`
	// Search holds the fitness of each NTBEA evaluation so far.
	Search []float64 `json:"search,omitempty"`
	// Stopped is set once the race has ended.
	Stopped string `json:"stopped,omitempty"`
}

// candidateState is a candidate's part of the state.
type candidateState struct {
	Games        int    `json:"games"`
	DroppedAfter int    `json:"dropped_after,omitempty"`
	DroppedBy    string `json:"dropped_by,omitempty"`
	Why          string `json:"why,omitempty"`
	Tally        tally  `json:"tally"`
}

// keeper keeps a race's state in its directory. A nil keeper keeps
// nothing.
type keeper struct {
	dir      string
	m        *study.Manifest
	cands    []*Candidate
	at       progress
	search   []float64 // the NTBEA evaluations' fitness so far
	kept     int       // how many of them were read from a kept state
	lastSave time.Time
}

// keeper starts keeping the race of cands in opts.Out (nil without one):
// it writes the study manifest, refusing a directory that holds an
// unfinished study.
func (res *Result) keeper(sp *space, cands []*Candidate, opts Options) (*keeper, error) {
	if opts.Out == "" {
		return nil, nil
	}
	d := design{Result: *res, Space: *sp}
	units := make([]study.Unit, len(cands))
	for i, c := range cands {
		units[i] = study.NewUnit(c.Label, fmt.Sprintf("candidates/%04d", i+1), c.cfg)
		d.Values = append(d.Values, c.Values)
	}
	m, err := study.New(Kind, res.Name, opts.Command, runlog.Shard{}, units, d)
	if err != nil {
		return nil, err
	}
	if m, err = study.Begin(opts.Out, m, false); err != nil {
		return nil, err
	}
	// A finished race's state and results, replaced: none may stand
	// beside the new race if it stops.
	stale := []string{StateFile, JSONFile, CSVFile, MarkdownFile, HTMLFile}
	for _, plot := range []string{RoundsPlot, EffectsPlot} {
		stale = append(stale, filepath.Join("plots", plot+".svg"), filepath.Join("plots", plot+".png"))
	}
	for _, name := range stale {
		if err := os.Remove(filepath.Join(opts.Out, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return &keeper{dir: opts.Out, m: m, cands: cands}, nil
}

// progress is where the kept race stands.
func (k *keeper) progress() progress {
	if k == nil {
		return progress{}
	}
	return k.at
}

// save writes the race's state: always when force, else when SaveEvery has
// passed since the last save.
func (k *keeper) save(res *Result, at progress, force bool) error {
	if k == nil {
		return nil
	}
	k.at = at
	if !force && time.Since(k.lastSave) < SaveEvery {
		return nil
	}
	st := state{Schema: stateSchema, Identity: k.m.Identity(), progress: at, Spent: res.Spent,
		Rounds: res.Rounds, Evaluations: res.Evaluations, Search: k.search, Stopped: res.Stopped}
	for _, c := range k.cands {
		st.Candidates = append(st.Candidates, candidateState{Games: c.Games, DroppedAfter: c.DroppedAfter, DroppedBy: c.DroppedBy, Why: c.Why, Tally: c.tally})
	}
	k.lastSave = time.Now()
	return reports.WriteJSONFileAtomic(filepath.Join(k.dir, StateFile), &st)
}

// searched returns the fitness of NTBEA's evaluation e if a kept state
// holds it.
func (k *keeper) searched(e int) (float64, bool) {
	if k == nil || e >= k.kept {
		return 0, false
	}
	return k.search[e], true
}

// saveSearch records the fitness of NTBEA's next evaluation, saving the
// state when SaveEvery has passed.
func (k *keeper) saveSearch(res *Result, fitness float64) error {
	if k == nil {
		return nil
	}
	k.search = append(k.search, fitness)
	return k.save(res, k.at, false)
}

// done saves the ended race's state and marks its study finished.
func (k *keeper) done(res *Result) error {
	if k == nil {
		return nil
	}
	if err := k.save(res, k.at, true); err != nil {
		return err
	}
	return study.Finish(k.dir, k.m)
}

// Resume continues the race kept in out from its directory alone (the
// space's file is not read again) and returns its result, the same as
// the race's had it not stopped. Only the workers and callbacks of opts
// are used.
func Resume(ctx context.Context, out string, opts Options) (*Result, error) {
	m, err := study.Read(out)
	if err != nil {
		return nil, err
	}
	if m.Kind != Kind {
		return nil, fmt.Errorf("%s holds a %s, not a tune: resume it with playtest %s --resume --out %s", out, m.Kind, m.Kind, out)
	}
	var d design
	if err := json.Unmarshal(m.Design, &d); err != nil || len(d.Values) != len(m.Units) || d.Schema != Schema {
		return nil, &study.Error{Path: filepath.Join(out, study.ManifestFile), Err: fmt.Errorf("its tune design does not match its %d candidates (%v)", len(m.Units), err)}
	}
	res := d.Result
	if len(d.Space.Points) != len(m.Units) {
		return nil, &study.Error{Path: filepath.Join(out, study.ManifestFile), Err: fmt.Errorf("its space has %d points for %d candidates", len(d.Space.Points), len(m.Units))}
	}
	cands := make([]*Candidate, len(m.Units))
	for i, u := range m.Units {
		cfg, err := u.Config()
		if err != nil {
			return nil, err
		}
		cands[i] = &Candidate{Label: u.Name, Values: d.Values[i]}
		if err := cands[i].setVariant(cfg); err != nil {
			return nil, err
		}
	}
	k := &keeper{dir: out, m: m, cands: cands}
	if err := k.restore(&res, cands); err != nil {
		return nil, err
	}
	if k.m, err = study.Begin(out, m, true); err != nil {
		return nil, err
	}
	return res.finish(ctx, &d.Space, cands, k, opts)
}

// restore reads the kept state into res and cands (none yet: the race
// starts from its first round).
func (k *keeper) restore(res *Result, cands []*Candidate) error {
	path := filepath.Join(k.dir, StateFile)
	b, err := bounded.ReadFile(path, 1<<30)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var st state
	switch err := json.Unmarshal(b, &st); {
	case err != nil:
		return &study.Error{Path: path, Err: err}
	case st.Schema != stateSchema || st.Identity != k.m.Identity() || len(st.Candidates) != len(cands):
		return &study.Error{Path: path, Err: fmt.Errorf("not the state of the race in %s (schema %q, identity %s, %d candidates)", study.ManifestFile, st.Schema, st.Identity, len(st.Candidates))}
	}
	figures := len(res.Goal.figures())
	for i, cs := range st.Candidates {
		t := cs.Tally
		if t.Sum != nil && (len(t.Sum) != figures || len(t.N) != figures || !wellFormed(t, cs.Games)) {
			return &study.Error{Path: path, Err: fmt.Errorf("candidate %d's tally does not match its %d games", i+1, cs.Games)}
		}
		c := cands[i]
		c.Games, c.DroppedAfter, c.DroppedBy, c.Why, c.tally = cs.Games, cs.DroppedAfter, cs.DroppedBy, cs.Why, t
	}
	k.at, k.search, k.kept = st.progress, st.Search, len(st.Search)
	res.Spent, res.Rounds, res.Evaluations, res.Stopped = st.Spent, st.Rounds, st.Evaluations, st.Stopped
	return nil
}

// wellFormed reports whether every figure of t has a deal for each two of
// games.
func wellFormed(t tally, games int) bool {
	for f := range t.Sum {
		if len(t.Sum[f]) != games/2 || len(t.N[f]) != games/2 {
			return false
		}
	}
	return true
}
