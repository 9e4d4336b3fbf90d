package runlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"playtest/internal/bounded"
	"playtest/internal/buildinfo"
	"playtest/reports"
	"playtest/variants"
)

// Files of a run directory's log.
const (
	ManifestFile = "manifest.json"
	GamesFile    = "games.jsonl"
	ErrorsFile   = "errors.jsonl"
)

// SchemaV1 is the schema tag of manifest.json.
const SchemaV1 = "playtest/run/v1"

// Records modes.
const (
	RecordsSummary = "summary" // results and figures per game
	RecordsFull    = "full"    // and every move in the game's notation
)

// Shard is a slice of a run's games: shard Index of Count (Count 0: the
// whole run).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String names the shard in a sentence: "shard 2 of 8 (counted from 0)",
// or "the whole run".
func (s Shard) String() string {
	if s.Count == 0 {
		return "the whole run"
	}
	return fmt.Sprintf("shard %d of %d (counted from 0)", s.Index, s.Count)
}

// Check tests that the shard can be one: an index from 0 to the count
// less one, or 0 of 0 (everything).
func (s Shard) Check() error {
	if s.Count < 0 || s.Index < 0 || s.Count == 0 && s.Index != 0 || s.Count > 0 && s.Index >= s.Count {
		return fmt.Errorf("shard %d of %d: want an index from 0 to the count less one (count 0: every game)", s.Index, s.Count)
	}
	return nil
}

// ParseShard reads "I/N" (shard I of N, from 0), or "N" with the index
// taken from env: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), else
// SLURM_ARRAY_TASK_ID (a Slurm job array, counted from
// SLURM_ARRAY_TASK_MIN when that is set).
func ParseShard(text string, env func(string) string) (Shard, error) {
	idx, count, hasIndex := strings.Cut(strings.TrimSpace(text), "/")
	if !hasIndex {
		idx, count = "", idx
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		return Shard{}, fmt.Errorf("want I/N (shard I of N, counted from 0) or N with the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
	}
	origin := "I"
	if !hasIndex {
		switch {
		case env("JOB_COMPLETION_INDEX") != "":
			origin, idx = "JOB_COMPLETION_INDEX", env("JOB_COMPLETION_INDEX")
		case env("SLURM_ARRAY_TASK_ID") != "":
			origin, idx = "SLURM_ARRAY_TASK_ID", env("SLURM_ARRAY_TASK_ID")
			if lo := env("SLURM_ARRAY_TASK_MIN"); lo != "" {
				id, err1 := strconv.Atoi(idx)
				min, err2 := strconv.Atoi(lo)
				if err1 != nil || err2 != nil {
					return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID %q or SLURM_ARRAY_TASK_MIN %q is not a number", idx, lo)
				}
				idx = strconv.Itoa(id - min)
			}
		default:
			return Shard{}, fmt.Errorf("no shard index: give I/N, or set JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm)")
		}
	}
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%s %q: want a shard index from 0 to %d", origin, idx, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// Range returns the game indices [from, to) of the shard: contiguous
// blocks of whole deals (both games of a seat-swapped pair stay together),
// as even as they can be.
func (s Shard) Range(games int, pairs bool) (from, to int) {
	if s.Count == 0 {
		return 0, games
	}
	unit := 1
	if pairs {
		unit = 2
	}
	units := (games + unit - 1) / unit
	from = min(games, s.Index*units/s.Count*unit)
	to = min(games, (s.Index+1)*units/s.Count*unit)
	return from, to
}

// RunID is the short run identity every log line carries: the first 16
// hex digits of the config hash (which covers the game, rules, players,
// games, seed and pairs).
func (m *Manifest) RunID() string { return runID(m.ConfigHash) }

func runID(hash string) string {
	id := strings.TrimPrefix(hash, "sha256:")
	return id[:min(16, len(id))]
}

// Manifest says what a run directory holds.
type Manifest struct {
	Schema     string `json:"schema"`
	Game       string `json:"game"`
	Variant    string `json:"variant"`
	ConfigHash string `json:"config_hash"`
	Games      int    `json:"games"`
	Seed       uint64 `json:"seed"`
	Pairs      bool   `json:"pairs"`
	Shard      Shard  `json:"shard"`
	// From and To are the game indices [From, To) the directory plays.
	From    int    `json:"from"`
	To      int    `json:"to"`
	Records string `json:"records"`
	Recipe
	// Extends lists the run identities of the smaller runs this one grew
	// from (Extended), oldest first: their games are this run's first,
	// logged under their own identities.
	Extends []string `json:"extends,omitempty"`
	// Finished is set, in the last write of a run, once games.csv,
	// summary.json and the reports are all in place: a run killed while
	// writing them is unfinished, and --resume writes them again.
	Finished bool `json:"finished,omitempty"`
	// Playtest is the build that started the run (as playtest version
	// names it); ResumedBy is the last build that resumed it, when that
	// was another one.
	Playtest  string `json:"playtest,omitempty"`
	ResumedBy string `json:"resumed_by,omitempty"`
}

// NewManifest describes a run of cfg.
func NewManifest(cfg *variants.Config, shard Shard, records string) *Manifest {
	from, to := shard.Range(cfg.Games, cfg.Pairs)
	return &Manifest{
		Schema: SchemaV1, Game: cfg.Definition.Name, Variant: cfg.Name, ConfigHash: cfg.Hash(),
		Games: cfg.Games, Seed: cfg.Seed, Pairs: cfg.Pairs, Shard: shard, From: from, To: to, Records: records,
		Recipe: NewRecipe(cfg), Playtest: buildinfo.Get().Short(),
	}
}

// Extended is the manifest of this run grown to games games, and its
// variant (Recipe.Grown), whose first games are this run's, so that
// resuming it plays only the new ones. The games already logged keep
// their run identity, listed in Extends. Only a whole run grows (a
// shard's slice depends on the run's size).
func (m *Manifest) Extended(games int) (*Manifest, *variants.Config, error) {
	if m.Shard.Count > 0 {
		return nil, nil, fmt.Errorf("%s is a shard's (%v): the slice a shard plays depends on the run's size, so only a whole run grows; merge the shards first (playtest merge), then add games to the merged run", ManifestFile, m.Shard)
	}
	r, cfg, err := m.Recipe.Grown(m.Variant, m.ConfigHash, ManifestFile, games)
	if err != nil || cfg.Games == m.Games {
		return m, cfg, err
	}
	g := NewManifest(cfg, Shard{}, m.Records)
	g.Recipe = r
	g.Extends = append(slices.Clone(m.Extends), m.RunID())
	g.Playtest, g.ResumedBy = m.Playtest, m.ResumedBy
	return g, cfg, nil
}

// Recipe rebuilds a variant exactly: where it came from, its text and the
// overrides applied to it.
type Recipe struct {
	Source      string              `json:"source"`
	DefaultName string              `json:"default_name"`
	Text        string              `json:"text"`
	Overrides   []variants.Override `json:"overrides,omitempty"`
}

// NewRecipe is cfg's recipe.
func NewRecipe(cfg *variants.Config) Recipe {
	return Recipe{Source: cfg.Source, DefaultName: cfg.DefaultName, Text: string(cfg.Text), Overrides: cfg.Overrides}
}

// Rebuild builds the variant named name from the recipe and checks that it
// is the one recorded with the config hash; file names the record in
// messages.
func (r *Recipe) Rebuild(name, hash, file string) (*variants.Config, error) {
	cfg, err := variants.Parse(r.Source, r.DefaultName, []byte(r.Text), r.Overrides)
	if err != nil {
		return nil, err
	}
	cfg.Name = name
	if cfg.Hash() != hash && cfg.ScriptOf() != nil {
		return nil, changedError("the variant recorded in %s no longer decodes to the same run (config hash %s, recorded %s): its rules script %s has changed since (it is now %s); the run kept the script it played as rules.star beside %s: copy it back to replay, resume or merge",
			file, cfg.Hash(), hash, cfg.ScriptOf().File, cfg.ScriptOf().Digest, file)
	}
	if cfg.Hash() != hash {
		return nil, changedError("the variant recorded in %s no longer decodes to the same run (config hash %s, recorded %s): was it written by another version of playtest?",
			file, cfg.Hash(), hash)
	}
	return cfg, nil
}

// Grown is the recipe of the variant Rebuild gives, with games games,
// and that variant: the same game, rules, bots, seed and pairs, whose
// first games are the recorded variant's (a game's randomness depends
// only on the seed and its index). A run never loses games: fewer games
// than recorded is an error.
func (r Recipe) Grown(name, hash, file string, games int) (Recipe, *variants.Config, error) {
	old, err := r.Rebuild(name, hash, file)
	if err != nil {
		return r, nil, err
	}
	if games < old.Games {
		return r, nil, fmt.Errorf("the run has %d games already, and a run never loses games: give more than %d, or start another run", old.Games, old.Games)
	}
	r.Overrides = slices.DeleteFunc(slices.Clone(r.Overrides), func(o variants.Override) bool { return o.Path == "games" })
	r.Overrides = append(r.Overrides, variants.Override{Path: "games", Value: strconv.Itoa(games), Origin: "--games"})
	cfg, err := variants.Parse(r.Source, r.DefaultName, []byte(r.Text), r.Overrides)
	if err != nil {
		return r, nil, err
	}
	cfg.Name = name
	return r, cfg, nil
}

// ChangedError says a recorded run can no longer be rebuilt as it was
// played (its script edited, another version of playtest): the user's
// input, exit 2.
type ChangedError struct{ msg string }

func (e *ChangedError) Error() string { return e.msg }

// BadInput marks the error as the user's (exit 2).
func (e *ChangedError) BadInput() bool { return true }

func changedError(format string, args ...any) error {
	return &ChangedError{msg: fmt.Sprintf(format, args...)}
}

// Config rebuilds the run's variant and checks it is the one recorded.
func (m *Manifest) Config() (*variants.Config, error) {
	cfg, err := m.Recipe.Rebuild(m.Variant, m.ConfigHash, ManifestFile)
	if err != nil {
		return nil, err
	}
	if cfg.Games != m.Games || cfg.Seed != m.Seed || cfg.Pairs != m.Pairs {
		return nil, &ManifestError{Path: ManifestFile, Err: fmt.Errorf("games %d, seed %d, pairs %v, but its variant has games %d, seed %d, pairs %v",
			m.Games, m.Seed, m.Pairs, cfg.Games, cfg.Seed, cfg.Pairs)}
	}
	return cfg, nil
}

// Write writes the manifest to dir atomically.
func (m *Manifest) Write(dir string) error {
	return reports.WriteJSONFileAtomic(filepath.Join(dir, ManifestFile), m)
}

// ErrNoManifest is returned by ReadManifest for a directory without one.
var ErrNoManifest = errors.New("no " + ManifestFile)

// ReadManifest reads dir's manifest.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := bounded.ReadFile(filepath.Join(dir, ManifestFile), 1<<20) // a manifest is a few hundred bytes
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w: not a run directory (playtest run --out writes one)", dir, ErrNoManifest)
	}
	var large *bounded.ErrTooLarge
	if errors.As(err, &large) {
		return nil, fmt.Errorf("%s: %w: not a manifest", filepath.Join(dir, ManifestFile), err)
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, ManifestFile), err)
	}
	if m.Schema != SchemaV1 {
		return nil, &ManifestError{Path: filepath.Join(dir, ManifestFile), Err: fmt.Errorf("schema %q, want %q", m.Schema, SchemaV1)}
	}
	if err := m.check(); err != nil {
		return nil, &ManifestError{Path: filepath.Join(dir, ManifestFile), Err: err}
	}
	return &m, nil
}

// ManifestError is a manifest.json that cannot describe a run: damaged, or
// edited by hand. Nothing in its directory is touched.
type ManifestError struct {
	Path string
	Err  error
}

func (e *ManifestError) Error() string {
	return fmt.Sprintf("%s: %v (the manifest was changed or damaged; nothing in the directory was touched)", e.Path, e.Err)
}

func (e *ManifestError) Unwrap() error { return e.Err }

// BadInput marks a damaged manifest as bad input (exit 2).
func (e *ManifestError) BadInput() bool { return true }

// check tests that the manifest's fields agree with each other: a shard of
// the run's games, the games that shard plays, a known records mode and a
// config hash.
func (m *Manifest) check() error {
	switch {
	case m.Games < 1:
		return fmt.Errorf("games %d: a run has at least one game", m.Games)
	case m.Shard.Check() != nil:
		return m.Shard.Check()
	case m.Records != RecordsSummary && m.Records != RecordsFull:
		return fmt.Errorf("records %q: want %s or %s", m.Records, RecordsSummary, RecordsFull)
	case !strings.HasPrefix(m.ConfigHash, "sha256:") || len(m.ConfigHash) != len("sha256:")+64:
		return fmt.Errorf("config_hash %q: want sha256: and 64 hex digits", m.ConfigHash)
	}
	for _, id := range m.Extends {
		if id == "" || !validFingerprint(id) {
			return fmt.Errorf("extends %q: want run identities of 16 hex digits", id)
		}
	}
	if from, to := m.Shard.Range(m.Games, m.Pairs); m.From != from || m.To != to {
		return fmt.Errorf("games [%d, %d), but %s a %d-game run plays games [%d, %d)", m.From, m.To, shardName(m.Shard), m.Games, from, to)
	}
	return nil
}

// shardName names a shard in a sentence.
func shardName(s Shard) string {
	if s.Count == 0 {
		return "the whole of"
	}
	return fmt.Sprintf("shard %d of %d of", s.Index, s.Count)
}

// MissingShards says which of the n shards of a split are not among
// present ("shard 0 of 4 is missing (shards are counted from 0)"), or ""
// when none is.
func MissingShards[T any](present map[int]T, n int) string {
	var missing []string
	for i := range n {
		if _, ok := present[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("shard %s of %d is missing (shards are counted from 0)", missing[0], n)
	}
	return fmt.Sprintf("shards %s and %s of %d are missing (shards are counted from 0)", strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1], n)
}
