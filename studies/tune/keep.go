package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"playtest/internal/bounded"
	"playtest/reports"
	"playtest/runs/runlog"
	"playtest/studies/learn"
	"playtest/studies/study"
	"playtest/studies/sweep"
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
		units[i] = study.NewUnit(c.Label, candidateDir(i), c.cfg)
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
	if err := learn.RemoveModels(opts.Out); err != nil {
		return nil, err
	}
	return &keeper{dir: opts.Out, m: m, cands: cands}, nil
}

// candidateDir is the i-th candidate's unit directory in a race's.
func candidateDir(i int) string { return fmt.Sprintf("candidates/%04d", i+1) }

// holds reports whether values are the labels of the space's i-th point
// on each of its axes.
func (sp *space) holds(i int, values []string, axes int) bool {
	if len(sp.Labels) != axes || len(sp.Points[i]) != axes || len(values) != axes {
		return false
	}
	for ax, v := range sp.Points[i] {
		if v < 0 || v >= len(sp.Labels[ax]) || sp.Labels[ax][v] != values[ax] {
			return false
		}
	}
	return true
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
		if !d.Space.holds(i, d.Values[i], len(res.Axes)) {
			return nil, &study.Error{Path: filepath.Join(out, study.ManifestFile), Err: fmt.Errorf("changed or damaged: candidate %d's values %v are not its point's", i+1, d.Values[i])}
		}
		if err := m.CheckUnit(i, sweep.PointLabel(res.Axes, d.Values[i]), candidateDir(i)); err != nil {
			return nil, err
		}
		cands[i] = &Candidate{Label: u.Name, Values: d.Values[i], index: i}
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
	if err := st.check(b, res, cands); err != nil {
		return &study.Error{Path: path, Err: fmt.Errorf("changed or damaged: %w", err)}
	}
	for i, cs := range st.Candidates {
		c := cands[i]
		c.Games, c.DroppedAfter, c.DroppedBy, c.Why, c.tally = cs.Games, cs.DroppedAfter, cs.DroppedBy, cs.Why, cs.Tally
	}
	k.at, k.search, k.kept = st.progress, st.Search, len(st.Search)
	res.Spent, res.Rounds, res.Evaluations, res.Stopped = st.Spent, st.Rounds, st.Evaluations, st.Stopped
	return nil
}

// check tests a state read from b (its text) against the race it belongs
// to: the rounds' schedule, each candidate's games and tally, the games
// spent, the evaluations and how it stopped. A race keeps no log per
// candidate (its games are replayed from the seed when needed), so the
// state is held to what the race's own rules allow.
func (st *state) check(b []byte, res *Result, cands []*Candidate) error {
	var raw struct {
		Candidates []json.RawMessage `json:"candidates"`
	}
	_ = json.Unmarshal(b, &raw)
	for i, c := range raw.Candidates {
		var fields map[string]json.RawMessage
		if string(c) == "null" || json.Unmarshal(c, &fields) != nil {
			return fmt.Errorf("candidate %d is null", i+1)
		}
		if t, ok := fields["tally"]; ok && string(t) == "null" && st.Candidates[i].Games > 0 {
			return fmt.Errorf("candidate %d has %d games and a null tally", i+1, st.Candidates[i].Games)
		}
	}
	sizes := rounds(res.FirstGames, res.MaxGames)
	switch {
	case st.Round < 0 || st.Round > len(sizes) || st.Round == len(sizes) && st.Begun:
		return fmt.Errorf("round %d of a race of %d rounds", st.Round, len(sizes))
	case len(st.Rounds) != st.Round && !(st.Stopped != "" && len(st.Rounds) == st.Round+1):
		return fmt.Errorf("%d rounds judged at round %d", len(st.Rounds), st.Round)
	case st.Spent < 0:
		return fmt.Errorf("games_spent %d", st.Spent)
	case st.Stopped != "" && len(st.Rounds) == 0 && !strings.HasPrefix(st.Stopped, "the budget of "):
		return fmt.Errorf("stopped (%q) before any round was judged", st.Stopped)
	}
	spent := 0
	for i, r := range st.Rounds {
		if r.Index != i+1 || r.Games != sizes[i] || r.Candidates < 1 || r.Candidates > len(cands) ||
			r.Dropped < 0 || r.Broke < 0 || r.Halved < 0 || r.Dropped+r.Broke+r.Halved > r.Candidates || r.Spent < spent {
			return fmt.Errorf("round %d is not a round of this race (round %d, %d games, %d candidates, %d spent)", i+1, r.Index, r.Games, r.Candidates, r.Spent)
		}
		spent = r.Spent
	}
	figures := len(res.Goal.figures())
	labels := map[string]bool{}
	games := 0
	for i, cs := range st.Candidates {
		labels[cands[i].Label] = true
		games += cs.Games
		upTo := 0 // the most games a candidate may have played by now
		if st.Round > 0 {
			upTo = sizes[st.Round-1]
		}
		if st.Begun || st.Round < len(sizes) && len(st.Rounds) > st.Round {
			upTo = sizes[st.Round]
		}
		switch {
		case cs.Games < 0 || cs.Games > upTo || cs.Games > 0 && !slices.Contains(sizes, cs.Games):
			return fmt.Errorf("candidate %d has %d games at round %d", i+1, cs.Games, st.Round)
		case cs.DroppedAfter < 0 || cs.DroppedAfter > len(st.Rounds):
			return fmt.Errorf("candidate %d was dropped after round %d of %d", i+1, cs.DroppedAfter, len(st.Rounds))
		case cs.Games > 0 && (len(cs.Tally.Sum) != figures || len(cs.Tally.N) != figures || !wellFormed(cs.Tally, cs.Games)):
			return fmt.Errorf("candidate %d's tally does not match its %d games", i+1, cs.Games)
		case cs.Games == 0 && cs.Tally.Sum != nil && cs.Tally.deals() > 0:
			return fmt.Errorf("candidate %d has a tally but no games", i+1)
		}
		if err := cs.Tally.check(); err != nil {
			return fmt.Errorf("candidate %d: %w", i+1, err)
		}
	}
	if res.SearchMethod == SearchRace && st.Spent != games || st.Spent < games {
		return fmt.Errorf("games_spent %d, but the candidates played %d", st.Spent, games)
	}
	for _, e := range st.Evaluations {
		if e.Round < 1 || e.Round > len(st.Rounds) || !labels[e.Label] || e.Games < 0 {
			return fmt.Errorf("an evaluation of %q in round %d is not of this race", e.Label, e.Round)
		}
	}
	for _, f := range st.Search {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("an NTBEA fitness of %v", f)
		}
	}
	return nil
}

// check tests a tally's bounds deal by deal (two games each): seat 0's
// score counted in both games, between 0 and 2; draws and every other
// figure counted at most twice, draws between 0 and their count, plies
// not negative, every sum finite.
func (t *tally) check() error {
	for f := range t.Sum {
		for d, sum := range t.Sum[f] {
			n := t.N[f][d]
			switch {
			case n < 0 || n > 2 || f == figScore && n != 2:
				return fmt.Errorf("figure %d of deal %d counted %d times", f, d, n)
			case math.IsNaN(sum) || math.IsInf(sum, 0):
				return fmt.Errorf("figure %d of deal %d sums to %v", f, d, sum)
			case (f == figScore || f == figDraws) && (sum < 0 || sum > float64(n)),
				f == figPlies && sum < 0:
				return fmt.Errorf("figure %d of deal %d sums to %v over %d games", f, d, sum, n)
			}
		}
	}
	return nil
}

// wellFormed reports whether every figure of t has a deal for each two of
// games.
func wellFormed(t tally, games int) bool {
	if games%2 != 0 {
		return false
	}
	for f := range t.Sum {
		if len(t.Sum[f]) != games/2 || len(t.N[f]) != games/2 {
			return false
		}
	}
	return true
}
