package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/internal/testenv"
)

// quickLearnBots makes learn's games quick.
var quickLearnBots = []string{"--set", "players.0={bot: alphabeta, nodes: 150, noise: 0.5, noise_moves: 10}", "--set", "players.1={bot: alphabeta, nodes: 150, noise: 0.5, noise_moves: 10}"}

// TestLearnResumeCommand keeps a learning run in --out, resumes it from
// the directory alone (the same model.json), and refuses a resume given a
// variant or a setting, a fresh start in an unfinished run's directory,
// and a budget short of one generation.
func TestLearnResumeCommand(t *testing.T) {
	testenv.SkipUnderRace(t)
	out := filepath.Join(t.TempDir(), "m")
	args := append([]string{"learn", "stacktics/size2", "--games", "40", "--quiet", "--out", out}, quickLearnBots...)
	if code, _, errOut := run(t, args...); code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errOut)
	}
	first, err := os.ReadFile(filepath.Join(out, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	unfinishStudy(t, out)
	if code, _, errOut := run(t, "learn", "--resume", "--out", out, "--quiet", "--workers", "1"); code != 0 {
		t.Fatalf("learn --resume: exit %d: %s", code, errOut)
	}
	if again, _ := os.ReadFile(filepath.Join(out, "model.json")); string(again) != string(first) {
		t.Error("the resumed run wrote another model.json")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"learn", "stacktics/size2", "--resume", "--out", out}, "it takes no"},
		{[]string{"learn", "--resume", "--out", out, "--games", "10"}, "it takes no"},
		{[]string{"learn", "--resume"}, "give --out"},
		{[]string{"learn", "--resume", "--out", t.TempDir()}, "no study.json"},
		{[]string{"learn", "stacktics/size2", "--games", "40", "--generations", "2", "--budget", "50"}, "does not cover the first generation's 80"},
		{[]string{"learn", "stacktics/size2", "--max-time", "-1s"}, "--max-time"},
	} {
		if code, _, errOut := run(t, c.args...); code != ExitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d naming %q", strings.Join(c.args, " "), code, errOut, ExitBadInput, c.want)
		}
	}
	unfinishStudy(t, out)
	if code, _, errOut := run(t, args...); code != ExitBadInput || !strings.Contains(errOut, "--resume") {
		t.Errorf("a fresh start in an unfinished run's directory: exit %d, %q", code, errOut)
	}
}

// TestLearnCandidatesCommand: learn --candidates N keeps the best by play
// of N logistic models, says the choice and its confirmation, writes it to
// --out's model.json and page, and refuses what a choice does not take.
func TestLearnCandidatesCommand(t *testing.T) {
	testenv.SkipUnderRace(t)
	out := filepath.Join(t.TempDir(), "chosen")
	code, text, errOut := run(t, append([]string{"learn", "stacktics/size2", "--games", "40", "--candidates", "2", "--head-to-head", "10", "--quiet", "--out", out}, quickLearnBots...)...)
	if code != 0 || !strings.Contains(text, "Elo over the hand heuristic's bots") || !strings.Contains(text, "Chosen by play: candidate ") || !strings.Contains(text, "one generation of each of 2 candidates") {
		t.Fatalf("learn --candidates 2: exit %d: %s\n%s", code, errOut, text)
	}
	b, err := os.ReadFile(filepath.Join(out, "model.json"))
	page, perr := os.ReadFile(filepath.Join(out, "learn.md"))
	if err != nil || perr != nil || !strings.Contains(string(b), `"choice": {`) || !strings.Contains(string(page), "## Chosen by play") {
		t.Fatalf("model.json and learn.md of a choice: %v %v\n%.400s\n%.400s", err, perr, b, page)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--candidates", "2", "--generations", "2"}, "it takes no --generations"},
		{[]string{"--candidates", "2", "--resume", "--out", out}, "it takes no --resume"},
		{[]string{"--candidates", "17"}, "--candidates 17: want 1 to 16"},
		{[]string{"--candidates", "2", "--head-to-head", "1"}, "give --head-to-head 2 or more"},
		{[]string{"--candidates", "2", "--kind", "opponent"}, "--kind opponent prints one strength"},
	} {
		if code, _, errOut := run(t, append([]string{"learn", "stacktics/size2", "--quiet"}, c.args...)...); code != ExitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d naming %q", strings.Join(c.args, " "), code, errOut, ExitBadInput, c.want)
		}
	}
}

// TestSweepAndCompareLearn judges each variant with bots playing a model
// learned from its own games: the sweep's rows are the same kept in a
// directory (models under models/, named by the variants) or in memory,
// and a resume after a variant's run and model are lost plays them again
// to the same rows; compare --learn learns both sides; a bot that cannot
// play a model is refused.
func TestSweepAndCompareLearn(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "sweep")
	args := append([]string{"sweep", "stacktics-size2", "--games", "10", "--learn", "20", "--quiet", "--format", "json"}, quickLearnBots...)
	rows := func(text string) string {
		t.Helper()
		var res struct {
			Learn int `json:"learn"`
			Rows  []struct {
				Label string          `json:"label"`
				Games int             `json:"games"`
				Seat0 json.RawMessage `json:"seat0_wins"`
				Plies json.RawMessage `json:"plies"`
				Draws json.RawMessage `json:"draws"`
			} `json:"variants"`
		}
		if err := json.Unmarshal([]byte(text), &res); err != nil || res.Learn != 20 || len(res.Rows) != 4 {
			t.Fatalf("sweep.json: %v, learn %d, %d rows", err, res.Learn, len(res.Rows))
		}
		b, _ := json.Marshal(res.Rows)
		return string(b)
	}
	code, memory, errOut := run(t, args...)
	if code != 0 {
		t.Fatalf("sweep --learn: exit %d: %s", code, errOut)
	}
	code, kept, errOut := run(t, append(args, "--out", out)...)
	if code != 0 {
		t.Fatalf("sweep --learn --out: exit %d: %s", code, errOut)
	}
	if rows(memory) != rows(kept) {
		t.Errorf("in memory and kept, the rows differ:\n%s\n%s", rows(memory), rows(kept))
	}
	models, _ := filepath.Glob(filepath.Join(out, "models", "*.json"))
	if len(models) != 4 {
		t.Errorf("models/ holds %v", models)
	}
	md, _ := os.ReadFile(filepath.Join(out, "sweep.md"))
	if !strings.Contains(string(md), "a model learned from 20 games of that variant") {
		t.Errorf("sweep.md does not say the bots played learned models:\n%s", md)
	}
	// Lose the second variant's run and model, as a kill while it learned
	// would, and resume.
	unfinishStudy(t, out)
	variantsDirs, _ := filepath.Glob(filepath.Join(out, "variants", "02-*"))
	for _, p := range append(variantsDirs, filepath.Join(out, "models", "02-board=4x4_pie=false.json")) {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	code, resumed, errOut := run(t, "sweep", "--resume", "--out", out, "--quiet", "--format", "json")
	if code != 0 {
		t.Fatalf("sweep --resume: exit %d: %s", code, errOut)
	}
	if rows(resumed) != rows(kept) {
		t.Errorf("the resumed sweep's rows differ:\n%s\n%s", rows(resumed), rows(kept))
	}

	// A directory whose name would read as YAML if the model's path were
	// not quoted.
	cmpOut := filepath.Join(dir, "cmp: {x}")
	code, text, errOut := run(t, append([]string{"compare", "stacktics/size2", "stacktics/size2-nopie", "--games", "10", "--learn", "20", "--quiet", "--out", cmpOut}, quickLearnBots...)...)
	if code != 0 {
		t.Fatalf("compare --learn: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"eval learned", filepath.Join(cmpOut, "models", "a.json"), filepath.Join(cmpOut, "models", "b.json")} {
		if !strings.Contains(text, want) {
			t.Errorf("compare --learn does not name %q:\n%s", want, text)
		}
	}
	// A kept model damaged by hand is refused on resume, exit 2.
	if err := os.WriteFile(filepath.Join(cmpOut, "models", "a.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	unfinishStudy(t, cmpOut)
	if code, _, errOut := run(t, "compare", "--resume", "--out", cmpOut, "--quiet"); code != ExitBadInput || !strings.Contains(errOut, "changed or damaged") {
		t.Errorf("a damaged model on resume: exit %d, %s", code, errOut)
	}
	for _, c := range [][]string{
		{"sweep", "stacktics-size2", "--games", "4", "--learn", "40", "--set", "players.0=random", "--set", "players.1=random"},
		{"compare", "stacktics/size2", "stacktics/size2", "--games", "4", "--learn", "5"},
	} {
		if code, _, errOut := run(t, c...); code != ExitBadInput {
			t.Errorf("%s: exit %d, %s", strings.Join(c, " "), code, errOut)
		}
	}
}

// TestTuneLearn races candidates whose bots play models learned from
// their own games: the page says so, models/ holds one a candidate, and a
// resume after models are lost gives the same ranking.
func TestTuneLearn(t *testing.T) {
	testenv.SkipUnderRace(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "tune")
	// Four candidates (stacktics-size2's race has 24): a model each.
	race := filepath.Join(dir, "race.yaml")
	if err := os.WriteFile(race, []byte(`name: race
games: 20
seed: 1
metric: seat0_wins
axes:
  - name: board
    zip:
      base: [stacktics/size2, stacktics/size2-3x5]
    labels: [4x4, 3x5]
  - name: pie
    key: rules.pie_rule
    values: [true, false]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"tune", race, "--first-games", "10", "--learn", "20", "--quiet", "--format", "json", "--out", out}, quickLearnBots...)
	code, first, errOut := run(t, args...)
	if code != 0 {
		t.Fatalf("tune --learn: exit %d: %s", code, errOut)
	}
	models, _ := filepath.Glob(filepath.Join(out, "models", "*.json"))
	if len(models) != 4 {
		t.Errorf("models/ holds %d models, want one for each of the 4 candidates", len(models))
	}
	md, _ := os.ReadFile(filepath.Join(out, "tune.md"))
	if !strings.Contains(string(md), "played a model learned from 20 games of its own rules") {
		t.Errorf("tune.md does not say the bots played learned models")
	}
	unfinishStudy(t, out)
	for _, m := range models[:2] {
		if err := os.Remove(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(out, "tune-state.json")); err != nil {
		t.Fatal(err)
	}
	code, again, errOut := run(t, "tune", "--resume", "--out", out, "--quiet", "--format", "json")
	if code != 0 {
		t.Fatalf("tune --resume: exit %d: %s", code, errOut)
	}
	ranking := func(text string) string {
		var res struct {
			Learn      int `json:"learn"`
			Candidates []struct {
				Label string  `json:"label"`
				Seat0 float64 `json:"seat0"`
				Games int     `json:"games"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal([]byte(text), &res); err != nil || res.Learn != 20 {
			t.Fatalf("tune.json: %v, learn %d", err, res.Learn)
		}
		b, _ := json.Marshal(res.Candidates)
		return string(b)
	}
	if ranking(first) != ranking(again) {
		t.Errorf("the resumed race ranks otherwise:\n%s\n%s", ranking(first), ranking(again))
	}
}

// TestLearnNTupleCommand (issue 56): learn --kind ntuple writes a model
// (schema v2) that a variant's bot plays; bad settings are one message,
// exit 2.
func TestLearnNTupleCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	code, out, errOut := run(t, "learn", "mnk/tictactoe", "--kind", "ntuple", "--games", "2000", "--tuples", "8", "--tuple-length", "3", "--out", dir, "--quiet")
	if code != 0 || !strings.Contains(out, "an n-tuple network of 8 tuples of 3 cells, learned by TD self-play in 2000 games") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "model.json"))
	if err != nil || !strings.Contains(string(b), `"schema": "playtest/model/v2"`) || !strings.Contains(string(b), `"kind": "ntuple"`) {
		t.Fatalf("model.json: %v\n%.300s", err, b)
	}
	code, out, errOut = run(t, "run", "mnk/tictactoe", "--games", "20", "--set", "players.0={bot: alphabeta, nodes: 200, eval: learned, model: "+filepath.Join(dir, "model.json")+"}", "--quiet")
	if code != 0 || !strings.Contains(out, "eval learned") {
		t.Errorf("a run with the model: exit %d: %s\n%s", code, errOut, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mnk/tictactoe", "--kind", "deep"}, `--kind "deep"`},
		{[]string{"mnk/tictactoe", "--kind", "ntuple", "--tuples", "-1"}, "--tuples -1"},
		{[]string{"mnk/tictactoe", "--kind", "ntuple", "--tuples", "0"}, "no tuples: the game names none"},
		{[]string{"mnk/tictactoe", "--kind", "ntuple", "--epsilon", "2"}, "--epsilon 2"},
		{[]string{"capstone", "--kind", "ntuple", "--games", "10"}, "--method fit fits one"},
		{[]string{"../configs/scripts/tictactoe-misere.yaml", "--kind", "ntuple", "--games", "10"}, "no board of cells"},
		{[]string{"mnk/tictactoe", "--kind", "ntuple", "--method", "deep"}, `--method "deep"`},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--result-weight", "2"}, "--result-weight 2"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--epochs", "0"}, "--epochs 0"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--head-to-head", "-2"}, "--head-to-head -2"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--proof", "-1"}, "--proof -1"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--proof-from", "8"}, "--proof-from is for --proof"},
		{[]string{"connect4/4x4", "--kind", "ntuple", "--proof", "1000"}, "--proof is for --method fit"},
		{[]string{"connect4/4x4", "--proof", "1000"}, "--proof is for fitting a network"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--proof", "1000", "--result-weight", "1"}, "with --proof every label is a proven value"},
		{[]string{"mnk/tictactoe", "--kind", "ntuple", "--method", "fit", "--games", "40"}, "play no logistic model"},
		{[]string{"stacktics/size2", "--leaf-positions", "2"}, "--leaf-positions is for fitting a network"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--leaf-positions", "2"}, "--leaf-positions is for --method fit"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--leaf-nodes", "4000"}, "--leaf-nodes is for --leaf-positions"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--leaf-positions", "65"}, "--leaf-positions 65: want 0 (none) to 64"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--leaf-positions", "2", "--leaf-nodes", "50"}, "--leaf-nodes 50: want 100"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--leaf-positions", "2", "--proof", "1000"}, "with --proof every label is a proven value"},
		{[]string{"stacktics/size2", "--kind", "ntuple", "--method", "fit", "--leaf-positions", "2", "--games", "10", "--set", "players.0={bot: mcts, iterations: 50, eval: learned, model: preset}", "--set", "players.1={bot: mcts, iterations: 50, eval: learned, model: preset}"}, "leaves are sampled from alphabeta searches"},
	} {
		if code, _, errOut := run(t, append(append([]string{"learn"}, c.args...), "--quiet")...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
	}
}

// TestLearnNTupleFitCommand (issue 56): learn --kind ntuple --method fit
// fits a network on top of the model the variant's bots play and writes a
// model.json a run plays; so does --kind dense, whose bad settings are one
// message, exit 2.
func TestLearnNTupleFitCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	code, out, errOut := run(t, "learn", "stacktics/size2", "--kind", "ntuple", "--method", "fit", "--games", "100", "--set", "players.0.nodes=100", "--set", "players.1.nodes=100",
		"--tuples", "8", "--tuple-length", "3", "--head-to-head", "20", "--out", dir, "--quiet")
	if code != 0 || !strings.Contains(out, "an n-tuple network of 8 tuples of 3 cells on top of the bots' model, fitted to") || !strings.Contains(out, "held-out log-loss") ||
		!strings.Contains(out, "over 20 games against the bots' model at the same nodes") || !strings.Contains(out, "result less prediction, points (95%)") || !strings.Contains(out, "Held out, against the games' results: ") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "model.json"))
	if err != nil || !strings.Contains(string(b), `"kind": "ntuple"`) || !strings.Contains(string(b), `"material"`) || !strings.Contains(string(b), `"result_weight": 0.5`) ||
		!strings.Contains(string(b), `"head_to_head": {`) {
		t.Fatalf("model.json: %v\n%.600s", err, b)
	}
	model := filepath.Join(dir, "model.json")
	code, out, errOut = run(t, "run", "stacktics/size2", "--games", "10", "--set", "players.0.model="+model, "--set", "players.1.model="+model, "--set", "players.0.nodes=100", "--set", "players.1.nodes=100", "--quiet")
	if code != 0 || !strings.Contains(out, "eval learned") {
		t.Errorf("a run with the model: exit %d: %s\n%s", code, errOut, out)
	}
	// With the leaves of the bots' searches, labelled by deeper ones.
	leaves := filepath.Join(t.TempDir(), "leaves")
	code, out, errOut = run(t, "learn", "stacktics/size2", "--kind", "ntuple", "--method", "fit", "--games", "60", "--set", "players.0.nodes=100", "--set", "players.1.nodes=100",
		"--tuples", "8", "--tuple-length", "3", "--head-to-head", "0", "--leaf-positions", "2", "--leaf-nodes", "300", "--out", leaves, "--quiet")
	if code != 0 || !strings.Contains(out, "positions of their searches' horizons (up to 2 a position, each labelled by a search of 300 nodes)") {
		t.Fatalf("--leaf-positions: exit %d: %s\n%s", code, errOut, out)
	}
	if b, err := os.ReadFile(filepath.Join(leaves, "model.json")); err != nil || !strings.Contains(string(b), `"leaves_per_position": 2`) || !strings.Contains(string(b), `"leaf_nodes": 300`) {
		t.Fatalf("model.json with leaves: %v\n%.600s", err, b)
	}

	// A choice among fits by play keeps the best rated of its candidates,
	// and records the choice in model.json.
	chosen := filepath.Join(t.TempDir(), "chosen")
	code, out, errOut = run(t, "learn", "stacktics/size2", "--kind", "ntuple", "--method", "fit", "--games", "60", "--set", "players.0.nodes=100", "--set", "players.1.nodes=100",
		"--tuples", "8", "--tuple-length", "3", "--head-to-head", "10", "--candidates", "2", "--out", chosen, "--quiet")
	if code != 0 || !strings.Contains(out, "Elo over the bots' own model") || !strings.Contains(out, "Chosen by play: candidate ") || !strings.Contains(out, "over 10 games against the bots' own model") {
		t.Fatalf("--candidates: exit %d: %s\n%s", code, errOut, out)
	}
	if b, err := os.ReadFile(filepath.Join(chosen, "model.json")); err != nil || !strings.Contains(string(b), `"choice": {`) || !strings.Contains(string(b), `"games_per_pairing": 10`) {
		t.Fatalf("model.json of a choice: %v\n%.600s", err, b)
	}

	// A dense network, fitted the same way (--kind dense), plays too.
	dense := filepath.Join(t.TempDir(), "d")
	code, out, errOut = run(t, "learn", "stacktics/size2", "--kind", "dense", "--hidden", "8", "--games", "100", "--set", "players.0.nodes=100", "--set", "players.1.nodes=100",
		"--head-to-head", "0", "--out", dense, "--quiet")
	if code != 0 || !strings.Contains(out, "a dense network of 8 hidden units on top of the bots' model, fitted to") {
		t.Fatalf("--kind dense: exit %d: %s\n%s", code, errOut, out)
	}
	if b, err := os.ReadFile(filepath.Join(dense, "model.json")); err != nil || !strings.Contains(string(b), `"kind": "dense"`) || !strings.Contains(string(b), `"hidden": 8`) {
		t.Fatalf("model.json: %v\n%.600s", err, b)
	}
	model = filepath.Join(dense, "model.json")
	code, out, errOut = run(t, "run", "stacktics/size2", "--games", "10", "--set", "players.0.model="+model, "--set", "players.0.nodes=100", "--set", "players.1.nodes=100", "--quiet")
	if code != 0 || !strings.Contains(out, "eval learned") {
		t.Errorf("a run with the dense model: exit %d: %s\n%s", code, errOut, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "dense", "--method", "td"}, "--kind dense is fitted"},
		{[]string{"--kind", "dense", "--tuples", "8"}, "--tuples is for --kind ntuple"},
		{[]string{"--kind", "dense", "--hidden", "0"}, "--hidden 0"},
		{[]string{"--kind", "dense", "--hidden", "257"}, "--hidden 257"},
		{[]string{"--kind", "ntuple", "--method", "fit", "--hidden", "8"}, "--hidden is for --kind dense"},
		{[]string{"--kind", "dense", "--resume", "--out", dense}, "--kind dense learns in one go"},
		{[]string{"--kind", "ntuple", "--method", "fit", "--candidates", "0"}, "--candidates 0: want 1 to 16"},
		{[]string{"--kind", "ntuple", "--method", "fit", "--candidates", "2", "--head-to-head", "0"}, "give --head-to-head 2 or more"},
		{[]string{"--kind", "ntuple", "--candidates", "2"}, "--candidates is for --method fit"},
	} {
		if code, _, errOut := run(t, append(append([]string{"learn", "stacktics/size2"}, c.args...), "--quiet")...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
	}
}

// TestTupleWords: a network's tuples are said as the snakes, the game's
// named tuples, or both.
func TestTupleWords(t *testing.T) {
	for _, c := range []struct {
		named, snakes, length int
		want                  string
	}{
		{0, 40, 6, "40 tuples of 6 cells"},
		{3, 0, 6, "the 3 tuples the game names"},
		{3, 40, 4, "the 3 tuples the game names and 40 snakes of 4 cells"},
	} {
		if got := tupleWords(c.named, c.snakes, c.length); got != c.want {
			t.Errorf("%d named, %d snakes of %d: %q, want %q", c.named, c.snakes, c.length, got, c.want)
		}
	}
}

// TestLearnOpponentCommand (issue 57): learn --kind opponent prints the
// strength to give the bots as infer:, as text or JSON; it writes
// nothing, and refuses --out and a game that gives no evidence (exit 2).
func TestLearnOpponentCommand(t *testing.T) {
	args := []string{"learn", "threestone", "--kind", "opponent", "--games", "40", "--set", "players.0={bot: greedy}", "--set", "players.1={bot: greedy}", "--quiet"}
	code, out, errOut := run(t, args...)
	if code != 0 || !strings.Contains(out, "an opponent model from 40 games of greedy") || !strings.Contains(out, "play it with infer:") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	code, out, errOut = run(t, append(args, "--format", "json")...)
	if code != 0 || !strings.Contains(out, `"schema": "playtest/opponent/v1"`) || !strings.Contains(out, `"strength":`) || !strings.Contains(out, `"held_out_gain_nats":`) {
		t.Fatalf("--format json: exit %d: %s\n%s", code, errOut, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"threestone", "--kind", "opponent", "--out", t.TempDir()}, "no --out"},
		{[]string{"stacktics/size2", "--kind", "opponent", "--games", "10"}, "no evidence"},
	} {
		if code, _, errOut := run(t, append(append([]string{"learn"}, c.args...), "--quiet")...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
	}
}
