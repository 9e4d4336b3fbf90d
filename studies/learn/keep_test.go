package learn

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"playtest/internal/testenv"
	"playtest/sim/bots"
	"playtest/sim/model"
	"playtest/variants"
)

// smallSize2 is Stacktics size 2 with quick bots, for runs of a few
// generations.
func smallSize2(t *testing.T, games int) *variants.Config {
	t.Helper()
	bot := "{bot: alphabeta, nodes: 150, noise: 0.5, noise_moves: 10}"
	cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "players.0", Value: bot}, {Path: "players.1", Value: bot}, {Path: "games", Value: strconv.Itoa(games)}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// writeRun runs s and writes its results to dir, returning model.json.
func writeRun(t *testing.T, s *Session, dir string) []byte {
	t.Helper()
	fit, tr, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(dir, fit.Model, tr); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ModelFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResumeGivesTheSameModel stops a three-generation run after its
// first generation (as a kill would, the study unfinished) and resumes it
// from the directory alone, with another worker count: model.json is the
// unbroken run's byte for byte, and the resumed session counts the games
// played before.
func TestResumeGivesTheSameModel(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	opts := Options{Workers: 2, L2: DefaultL2, Generations: 3, HeadToHead: 200}
	whole := opts
	whole.Out = filepath.Join(dir, "whole")
	s, err := New(smallSize2(t, 100), whole)
	if err != nil {
		t.Fatal(err)
	}
	want := writeRun(t, s, whole.Out)

	broken := opts
	broken.Out = filepath.Join(dir, "broken")
	ctx, cancel := context.WithCancel(context.Background())
	broken.OnGeneration = func(Generation) { cancel() }
	if s, err = New(smallSize2(t, 100), broken); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a run cancelled after its first generation: %v", err)
	}
	if _, err := New(smallSize2(t, 100), broken); err == nil || !strings.Contains(err.Error(), "unfinished") {
		t.Fatalf("a fresh start in an unfinished run's directory: %v", err)
	}
	resumed, err := Open(broken.Out, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Done() != 300 || resumed.Planned() != 3*300 {
		t.Errorf("resumed: %d of %d games done, want 300 of 900", resumed.Done(), resumed.Planned())
	}
	if got := writeRun(t, resumed, broken.Out); !bytes.Equal(got, want) {
		t.Errorf("the resumed run's model.json differs from the unbroken run's:\n%s\n---\n%s", got, want)
	}
	if _, err := Open(broken.Out, Options{Workers: 1}); err != nil {
		t.Errorf("reopening a finished run: %v", err)
	}
}

// TestBudget stops a run at the generation its budget cannot cover, says
// so, and refuses a budget short of the first generation.
func TestBudget(t *testing.T) {
	testenv.SkipUnderRace(t)
	opts := Options{Workers: 2, L2: DefaultL2, Generations: 5, HeadToHead: 200, Budget: 450}
	s, err := New(smallSize2(t, 100), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.Planned() != 450 {
		t.Errorf("planned %d games, want the budget's 450", s.Planned())
	}
	_, tr, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Generation 1 beats the hand heuristic (57.5% [50.8, 63.9]), so only
	// the budget stops the run.
	if len(tr.Generations) != 1 || tr.Spent != 300 || tr.Budget != 450 || !strings.Contains(tr.Stopped, "budget of 450 games leaves 150, short of generation 2's 300") {
		t.Errorf("%d generations, %d games of a budget of %d: %s", len(tr.Generations), tr.Spent, tr.Budget, tr.Stopped)
	}
	opts.Budget = 250
	if _, err := New(smallSize2(t, 100), opts); err == nil || !strings.Contains(err.Error(), "does not cover the first generation's 300") {
		t.Errorf("a budget short of one generation: %v", err)
	}
}

// TestStateDamaged refuses a kept state that was edited: a generation
// renumbered, a model of other features, a head-to-head that disagrees
// with itself.
func TestStateDamaged(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	opts := Options{Workers: 2, L2: DefaultL2, Generations: 2, HeadToHead: 200, Out: dir}
	ctx, cancel := context.WithCancel(context.Background())
	opts.OnGeneration = func(Generation) { cancel() }
	s, err := New(smallSize2(t, 100), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	path := filepath.Join(dir, StateFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, c := range []struct{ from, to string }{
		{`"generation": 1`, `"generation": 2`},
		{`"material"`, `"materiel"`},
		{`"beats": false`, `"beats": true`},
		{`"beats": true`, `"beats": false`},
		{`"games": 300`, `"games": 301`},
	} {
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			continue // the case does not occur in this state (beats is one or the other)
		}
		applied++
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "changed or damaged") {
			t.Errorf("%s → %s: %v", c.from, c.to, err)
		}
	}
	if applied != 4 { // all but one of the two beats cases
		t.Errorf("%d of the damages applied to the state, want 4: its format changed under the test", applied)
	}
	// Values no run writes (issue 53): each refused, naming what is wrong,
	// rather than a model.json that run then refuses.
	for _, c := range []struct{ re, to, want string }{
		{`"hand_scale": [^,}\n]+`, `"hand_scale": -3`, "hand_scale -3"},
		{`"bias": [^,}\n]+`, `"bias": 1e308`, "bias 1e+308"},
		{`"weights": \[\s*[^,\]]+`, `"weights": [1e308`, "weights[0]"},
		{`"game": "[^"]*"`, `"game": "odd\u0007name"`, "game"},
		{`"reliability": \[`, `"reliability": [{"low": 0.5, "high": 0.2, "n": 3, "predicted": 2, "observed": -1},`, "reliability[0]"},
		{`"schema": "playtest/learn-state/v1"`, `"schema": "playtest/learn-state/v1", "schema": "playtest/learn-state/v1"`, "given twice"},
		{`\}\s*$`, "}\n{}", "data after the JSON value"},
	} {
		bad := regexp.MustCompile(c.re).ReplaceAllString(string(good), c.to)
		if bad == string(good) {
			t.Errorf("%s: not in the state: its format changed under the test", c.re)
			continue
		}
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir, Options{})
		var bi interface{ BadInput() bool }
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &bi) || !bi.BadInput() {
			t.Errorf("%s → %s: %v, want bad input naming %q", c.re, c.to, err, c.want)
		}
	}
	// A state that is a directory is bad input too (exit 2, not 1).
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	var bi interface{ BadInput() bool }
	if _, err := Open(dir, Options{}); err == nil || !errors.As(err, &bi) || !bi.BadInput() {
		t.Errorf("a directory for the state: %v", err)
	}
}

// TestFirstGenerationPlaysTheHandHeuristic: a variant whose bots play a
// learned model (as the Stacktics presets do) is learned from the hand
// heuristic's games, so a preset's model is reproduced from its rules and
// bots alone, not from the model it ships.
func TestFirstGenerationPlaysTheHandHeuristic(t *testing.T) {
	cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "players.0.eval", Value: "learned"}, {Path: "players.0.model", Value: "preset"}, {Path: "games", Value: "40"}})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Players[0].Params.(bots.ModelUser).HasModel() {
		t.Fatal("the variant's player 0 plays no model")
	}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range s.job.Players {
		if mu := p.Params.(bots.ModelUser); mu.HasModel() || mu.ModelFile() != "" {
			t.Errorf("generation 1's player %d plays a model", i)
		}
	}
	if !cfg.Players[0].Params.(bots.ModelUser).HasModel() {
		t.Error("the variant's own player lost its model")
	}
}

// TestTimeCapKeepsTheLastGeneration: a run stopped by its time cap during
// generation 2 returns generation 1's model with the stop recorded, its
// study left unfinished, and a resume ends where an unbroken run does.
func TestTimeCapKeepsTheLastGeneration(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	opts := Options{Workers: 2, L2: DefaultL2, Generations: 2, HeadToHead: 200, Out: filepath.Join(dir, "capped")}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	opts.OnGeneration = func(Generation) { cancel(ErrTimeCap) } // as the cap would, during generation 2
	s, err := New(smallSize2(t, 100), opts)
	if err != nil {
		t.Fatal(err)
	}
	fit, tr, err := s.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Generations) != 1 || !strings.Contains(tr.Stopped, "time cap") || !strings.Contains(tr.Stopped, "--resume continues it") || fit.Model == nil {
		t.Fatalf("%d generations, stopped: %s", len(tr.Generations), tr.Stopped)
	}
	if _, err := New(smallSize2(t, 100), Options{Out: opts.Out}); err == nil || !strings.Contains(err.Error(), "unfinished") {
		t.Errorf("the capped run's study is not left unfinished: %v", err)
	}
	whole := Options{Workers: 2, L2: DefaultL2, Generations: 2, HeadToHead: 200, Out: filepath.Join(dir, "whole")}
	s, err = New(smallSize2(t, 100), whole)
	if err != nil {
		t.Fatal(err)
	}
	want := writeRun(t, s, whole.Out)
	resumed, err := Open(opts.Out, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := writeRun(t, resumed, opts.Out); !bytes.Equal(got, want) {
		t.Error("the resumed capped run's model.json differs from the unbroken run's")
	}
}

// TestJudgeAtTheThreshold: a generation is shown stronger only when its
// score's interval lies wholly above 50%: an interval that touches 50% is
// "not shown stronger", and the sentence says what the figures say.
func TestJudgeAtTheThreshold(t *testing.T) {
	s, err := New(smallSize2(t, 20), Options{Generations: 3})
	if err != nil {
		t.Fatal(err)
	}
	fit := &Fit{Model: &model.Model{Features: s.features, Weights: make([]float64, len(s.features))}, Learned: Scores{LogLoss: 0.5}}
	before := &Fit{Learned: Scores{LogLoss: 0.6}}
	for _, c := range []struct {
		low, score, high float64
		kept             bool
		says             string
	}{
		{0.5, 0.55, 0.6, false, "not shown stronger than generation 1's (55.0% [50.0, 60.0]"},
		{0.5001, 0.55, 0.6, true, ""},
	} {
		h := &HeadToHead{Games: 400, Score: c.score, Low: c.low, High: c.high, Beats: c.low > 0.5}
		kept, stopped := s.judge(2, &entry{Fit: fit, Generation: Generation{HeadToHead: h}}, before)
		if kept != c.kept || !strings.Contains(stopped, c.says) || (c.says == "") != (stopped == "") {
			t.Errorf("low %g: kept %v, stopped %q", c.low, kept, stopped)
		}
	}
}

// A progress bar made after the session sees every game it plays (issue
// 53: learn's stayed at 0 / N for the whole run).
func TestOnGameCountsEveryGame(t *testing.T) {
	testenv.SkipUnderRace(t)
	s, err := New(smallSize2(t, 60), Options{Workers: 2, L2: DefaultL2, Generations: 1})
	if err != nil {
		t.Fatal(err)
	}
	var seen atomic.Int64
	s.OnGame(func() { seen.Add(1) })
	if _, _, err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if int(seen.Load()) != s.Planned() || seen.Load() == 0 {
		t.Errorf("saw %d games of %d planned", seen.Load(), s.Planned())
	}
}
