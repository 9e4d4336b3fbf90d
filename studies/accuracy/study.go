package accuracy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"playtest/variants"
)

// The files of a study's directory.
const (
	// ManifestFile says what the study judges (its identity).
	ManifestFile = "accuracy-study.json"
	// GamesFile holds one judged game a line, in index order: a resumed
	// study judges only the games after them.
	GamesFile = "judged.jsonl"
	// ResultFile holds the finished study's Result.
	ResultFile = "accuracy.json"
	// TableFile holds its tables.
	TableFile = "accuracy.txt"
)

// Manifest identifies a study: a resumed one must judge the same games
// the same way.
type Manifest struct {
	Schema     string `json:"schema"`
	ConfigHash string `json:"config_hash"`
	Variant    string `json:"variant"`
	Games      int    `json:"games"`
	MinPlies   int    `json:"min_plies,omitempty"`
	Nodes      int64  `json:"nodes"`
	TableMB    int    `json:"table_mb"`
}

// StudyError is a study directory that cannot be used as asked.
type StudyError struct{ Message string }

func (e *StudyError) Error() string { return e.Message }

// BadInput marks it as the user's to fix.
func (e *StudyError) BadInput() bool { return true }

// Study is a study's directory, open for its judged games.
type Study struct {
	dir  string
	f    *os.File
	Done []*Game
}

// manifestOf is the manifest of a study of cfg with opts (defaults
// resolved as Run resolves them).
func manifestOf(cfg *variants.Config, opts Options) Manifest {
	if opts.Games <= 0 {
		opts.Games = cfg.Games
	}
	if opts.Nodes <= 0 {
		opts.Nodes = DefaultNodes
	}
	if opts.TableMB <= 0 {
		opts.TableMB = DefaultTableMB
	}
	c := cfg
	if opts.Games != cfg.Games {
		if n, err := cfg.With(variants.Override{Path: "games", Value: fmt.Sprint(opts.Games), Origin: "--games"}); err == nil {
			c = n
		}
	}
	return Manifest{Schema: Schema, ConfigHash: c.Hash(), Variant: cfg.Label(), Games: opts.Games, MinPlies: opts.MinPlies, Nodes: opts.Nodes, TableMB: opts.TableMB}
}

// Open starts the study of cfg with opts in dir, or with resume continues
// the one there: its manifest must match, and its judged games are read
// (a torn last line, as a kill leaves, is cut).
func Open(dir string, cfg *variants.Config, opts Options, resume bool) (*Study, error) {
	want := manifestOf(cfg, opts)
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil && !resume:
		return nil, &StudyError{fmt.Sprintf("%s already holds an accuracy study: continue it with --resume, or choose another --out", dir)}
	case errors.Is(err, fs.ErrNotExist) && resume:
		return nil, &StudyError{fmt.Sprintf("%s holds no accuracy study to resume (no %s)", dir, ManifestFile)}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	st := &Study{dir: dir}
	if err == nil {
		var got Manifest
		if err := json.Unmarshal(b, &got); err != nil {
			return nil, &StudyError{fmt.Sprintf("%s: %v", path, err)}
		}
		if got != want {
			return nil, &StudyError{fmt.Sprintf("%s holds a study of %s (%d games, nodes %d, min plies %d, table %d MiB, config %s); this command asks for %s (%d games, nodes %d, min plies %d, table %d MiB, config %s)",
				dir, got.Variant, got.Games, got.Nodes, got.MinPlies, got.TableMB, got.ConfigHash, want.Variant, want.Games, want.Nodes, want.MinPlies, want.TableMB, want.ConfigHash)}
		}
		if st.Done, err = readGames(filepath.Join(dir, GamesFile), want.Games); err != nil {
			return nil, err
		}
	} else {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		mb, _ := json.MarshalIndent(want, "", "  ")
		if err := os.WriteFile(path, append(mb, '\n'), 0o644); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, GamesFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st.f = f
	return st, nil
}

// readGames reads the judged games of a study's log, the games [0, n) in
// order; a torn last line is cut from the file.
func readGames(path string, n int) ([]*Game, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Game
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	good := 0 // bytes of whole lines read
	for line := 1; sc.Scan(); line++ {
		var g Game
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil || g.Index != len(out) || g.Index >= n {
			if good+len(sc.Bytes()) >= len(b)-1 && !bytes.HasSuffix(b, []byte("\n")) {
				break // a torn last line
			}
			return nil, &StudyError{fmt.Sprintf("%s:%d: not the judged game %d of the study", path, line, len(out))}
		}
		out = append(out, &g)
		good += len(sc.Bytes()) + 1
	}
	if good < len(b) {
		if err := os.Truncate(path, int64(good)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Add appends a judged game to the log.
func (st *Study) Add(g *Game) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	_, err = st.f.Write(append(b, '\n'))
	return err
}

// Finish writes the result's JSON and tables and closes the log.
func (st *Study) Finish(r *Result) error {
	if err := st.f.Close(); err != nil {
		return err
	}
	var js, tb bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		return err
	}
	if err := r.WriteTable(&tb); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(st.dir, ResultFile), js.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(st.dir, TableFile), tb.Bytes(), 0o644)
}

// Close closes the log of an unfinished study.
func (st *Study) Close() error { return st.f.Close() }
