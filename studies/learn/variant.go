package learn

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"playtest/internal/bounded"
	"playtest/reports"
	"playtest/sim/bots"
	"playtest/sim/model"
	"playtest/studies/study"
	"playtest/variants"
)

// VariantOptions say how a study (sweep --learn, compare --learn) gives a
// variant's bots a model learned from the variant's own games.
type VariantOptions struct {
	// Games is the self-play games to learn from (one generation).
	Games   int
	Workers int
	// StudyDir, if set, keeps the model in StudyDir/models/Name.json: a
	// model already there is used again (a resumed study), else the one
	// learned is written there and the variant names it by its absolute
	// path, so that the variant rebuilt from its recipe (a resume, replay
	// or merge of its run) reads the same model.
	StudyDir, Name string
	// OnGame, if set, sees every game played to learn.
	OnGame func()
}

// ModelsDir holds, in a study's directory, the models its --learn
// learned, one a variant.
const ModelsDir = "models"

// RemoveModels removes the models a study kept in dir: a study begun
// afresh must not take an earlier one's for its own.
func RemoveModels(dir string) error {
	return os.RemoveAll(filepath.Join(dir, ModelsDir))
}

// MinGames is the fewest games ForVariant learns from: one deal in
// HeldEvery is held out, and the fit needs some of each.
const MinGames = 20

// learnSeed sets a variant's learning games apart from the games it is
// judged on: the same seed, the learning on streams of its own.
const learnSeed = 0x6c6561726e // "learn"

// ForVariant learns cfg's own model from opts.Games games of its bots (on
// seeds apart from the games cfg plays) and returns cfg with every bot
// playing it (eval: learned), and the model. Bots that cannot play a model
// (random) are refused.
func ForVariant(ctx context.Context, cfg *variants.Config, opts VariantOptions) (*variants.Config, *model.Model, error) {
	for i, p := range cfg.Players {
		if _, ok := p.Params.(bots.ModelUser); !ok {
			return nil, nil, study.BadInputf("--learn: player %d (%s) cannot play a learned model: alphabeta, mcts, ismcts and greedy can", i, p.Describe())
		}
	}
	var raw []byte
	path := ""
	if opts.StudyDir != "" {
		dir := filepath.Join(opts.StudyDir, ModelsDir)
		if err := reports.MkdirBelow(opts.StudyDir, dir); err != nil {
			return nil, nil, err
		}
		path = filepath.Join(dir, opts.Name+".json")
		b, err := bounded.ReadFile(path, 64<<20)
		switch {
		case err == nil:
			raw = b
		case !errors.Is(err, os.ErrNotExist):
			return nil, nil, err
		}
	}
	if raw == nil {
		lcfg := *cfg
		lcfg.Games, lcfg.Seed = opts.Games, cfg.Seed^learnSeed
		fit, _, err := Run(ctx, &lcfg, Options{Workers: opts.Workers, L2: DefaultL2, Generations: 1, OnGame: opts.OnGame})
		if err != nil {
			return nil, nil, err
		}
		var b bytes.Buffer
		if err := fit.Model.Write(&b); err != nil {
			return nil, nil, err
		}
		raw = b.Bytes()
		if path != "" {
			if err := reports.WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(raw); return err }); err != nil {
				return nil, nil, err
			}
		}
	}
	m, err := model.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, study.BadInputf("%s: %v (a study's model was changed or damaged: remove it and resume, and it is learned again)", path, err)
	}
	if path == "" {
		// In memory: the bots are handed the model itself.
		sum := sha256.Sum256(raw)
		out := *cfg
		for i, p := range cfg.Players {
			out.Players[i], _ = p.WithModel(m, fmt.Sprintf("learned from %s games (--learn)", bots.Thousands(opts.Games)), hex.EncodeToString(sum[:]))
		}
		return &out, m, nil
	}
	// In a study: the variant names the file, so its recipe rebuilds it.
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, err
	}
	// As a YAML double-quoted string (JSON's): a path holding ": " or
	// starting with "{" stays a path.
	quoted, err := json.Marshal(abs)
	if err != nil {
		return nil, nil, err
	}
	overrides := append([]variants.Override(nil), cfg.Overrides...)
	for i := range cfg.Players {
		for _, kv := range [][2]string{{"eval", "learned"}, {"model", string(quoted)}} {
			overrides = append(overrides, variants.Override{Path: fmt.Sprintf("players.%d.%s", i, kv[0]), Value: kv[1], Origin: "--learn"})
		}
	}
	out, err := variants.Parse(cfg.Source, cfg.DefaultName, cfg.Text, overrides)
	if err != nil {
		return nil, nil, err
	}
	out.Name = cfg.Name
	return out, m, nil
}
