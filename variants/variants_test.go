package variants

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/games/capstone"
	"playtest/games/stacks"
	"playtest/games/stacktics"
	"playtest/sim/bots"
	"playtest/sim/model"
)

func TestPresetsLoad(t *testing.T) {
	want := []string{
		"stacktics/size2", "stacktics/size2-3x5", "stacktics/size2-nopie", "stacktics/size3",
		"stacktics/size4", "stacktics/size5", "stacktics/size5-7x7",
		"capstone/capstone", "capstone/threestone",
		"stacks/base", "stacks/match", "stacks/fourcards",
		"capturecard/capturecard",
	}
	got := Presets()
	for _, name := range want {
		found := false
		for _, g := range got {
			found = found || g == name
		}
		if !found {
			t.Errorf("preset %s is missing (have %v)", name, got)
		}
	}
	for _, name := range got {
		cfg, err := Load(name, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if cfg.Name != name || cfg.Description == "" {
			t.Errorf("%s: name %q, description %q", name, cfg.Name, cfg.Description)
		}
		if _, err := cfg.NewGame(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestStackticsPresetsMatchSpec checks the knobs of the seven presets the
// spec lists.
func TestStackticsPresetsMatchSpec(t *testing.T) {
	type want struct {
		size, rows, cols int
		start            []int
		pie              bool
		loaded           int
	}
	cases := map[string]want{
		"stacktics/size2":       {2, 4, 4, []int{1, 2}, true, 2},
		"stacktics/size2-nopie": {2, 4, 4, []int{1, 2}, false, 2},
		"stacktics/size2-3x5":   {2, 5, 3, []int{0, 2}, false, 2},
		"stacktics/size3":       {3, 5, 5, []int{1, 2, 3}, false, 2},
		"stacktics/size4":       {4, 6, 6, []int{1, 2, 3, 4}, false, 3},
		"stacktics/size5":       {5, 6, 7, []int{1, 2, 3, 4, 5}, false, 3},
		"stacktics/size5-7x7":   {5, 7, 7, []int{1, 2, 3, 4, 5}, false, 3},
	}
	for name, w := range cases {
		cfg, err := Load(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := cfg.Rules.(*stacktics.Rules)
		if r.Size != w.size || r.Board.Rows != w.rows || r.Board.Cols != w.cols || *r.PieRule != w.pie ||
			*r.LoadedRange != w.loaded || len(r.StartColumns) != len(w.start) || r.MaxPlies != 300 || r.Repetition != 3 {
			t.Errorf("%s: %+v board %+v", name, r, *r.Board)
		}
		for i := range w.start {
			if r.StartColumns[i] != w.start[i] {
				t.Errorf("%s: start columns %v, want %v", name, r.StartColumns, w.start)
			}
		}
	}
}

func TestShortPresetNames(t *testing.T) {
	for short, full := range map[string]string{"threestone": "capstone/threestone", "capstone": "capstone/capstone", "size3": "stacktics/size3",
		"capturecard": "capturecard/capturecard", "fourcards": "stacks/fourcards"} {
		cfg, err := Load(short, nil)
		if err != nil || cfg.Source != "preset "+full {
			t.Errorf("%s: %v, source %q", short, err, cfg.Source)
		}
	}
	// A directory named after a preset (a run's --out, say) does not hide
	// it; a directory that names no preset is said to be one.
	t.Chdir(t.TempDir())
	for _, dir := range []string{"capstone", "nosuch"} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if cfg, err := Load("capstone", nil); err != nil || cfg.Source != "preset capstone/capstone" {
		t.Errorf("beside a directory of its name: %v", err)
	}
	if _, err := Load("nosuch", nil); err == nil || !strings.Contains(err.Error(), "nosuch: a directory, not a variant file, and no preset of that name") {
		t.Errorf("a directory: %v", err)
	}
}

func TestCapstonePresetsMatchSpec(t *testing.T) {
	three, err := Load("threestone", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := three.Rules.(*capstone.Rules)
	if r.StacksPerSize != 3 || r.PiecesPerColor != 3 || r.BagPerColor != 3 || r.Capstones != capstone.CapstonesNeutral || r.NeutralCapstones != 2 {
		t.Errorf("threestone %+v", r)
	}
	cap, err := Load("capstone", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The preset is the knob defaults but for the goal order, which the
	// players choose (the source's reading).
	want := *capstone.DefaultRules()
	want.GoalOrder = capstone.GoalOrderBot
	if r := cap.Rules.(*capstone.Rules); *r != want || r.GoalOrder != capstone.GoalOrderBot {
		t.Errorf("capstone %+v", r)
	}
	if r.GoalOrder != capstone.GoalOrderBot {
		t.Errorf("threestone goal order %q", r.GoalOrder)
	}
}

func TestStacksPresetsMatchSpec(t *testing.T) {
	load := func(name string) *stacks.Rules {
		cfg, err := Load(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Rules.(*stacks.Rules)
	}
	base := load("stacks/base")
	want := stacks.DefaultRules()
	if err := want.Validate(); err != nil {
		t.Fatal(err)
	}
	if *base.Cards != *want.Cards || base.HandSize != 2 || base.MaxHeight != 6 || base.Match != nil || base.FourCardMoves {
		t.Errorf("stacks/base %+v cards %+v", base, *base.Cards)
	}
	match := load("stacks/match")
	if m := match.Match; m == nil || *m.Target != 100 || !*m.LoserStarts || *match.Cards != *want.Cards {
		t.Errorf("stacks/match %+v", match.Match)
	}
	four := load("fourcards")
	if *four.Cards != (stacks.Cards{Ones: 4, Twos: 4, Threes: 3, Fours: 2}) || !four.FourCardMoves || four.Diagonal != stacks.DiagonalStraight {
		t.Errorf("stacks/fourcards %+v cards %+v", four, *four.Cards)
	}
}

func TestDefaults(t *testing.T) {
	cfg, err := Parse("x.yaml", "x", []byte("game: stacktics\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Name != "x" || cfg.Games != DefaultGames || cfg.Seed != DefaultSeed || !cfg.Pairs ||
		cfg.Players[0].Bot != DefaultBot || cfg.Players[1].Bot != DefaultBot {
		t.Errorf("defaults: %+v", cfg)
	}
	if r := cfg.Rules.(*stacktics.Rules); r.Size != 3 || *r.PieRule {
		t.Errorf("default rules: %+v", r)
	}
}

// TestBadInput checks that each kind of bad input gives one error naming
// the file, the line and the key, with a suggestion for typos.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name      string
		yaml      string
		overrides []string
		want      []string // substrings of the error
	}{
		{"misspelled top key", "game: stacktics\ngmaes: 10\n",
			nil, []string{"bad.yaml:2:", "gmaes: unknown key", `did you mean "games"?`}},
		{"misspelled knob", "game: stacktics\nrules:\n  pie_rul: true\n",
			nil, []string{"bad.yaml:3:", "rules.pie_rul: unknown key", `did you mean "pie_rule"?`}},
		{"wrong type", "game: stacktics\nrules:\n  size: three\n",
			nil, []string{"bad.yaml:3:", "rules.size: want an integer", `"three"`}},
		{"wrong type bool", "game: stacktics\nrules:\n  pie_rule: 1\n",
			nil, []string{"bad.yaml:3:", "rules.pie_rule: want true or false"}},
		{"board too small for its trees", "game: stacktics\nrules:\n  size: 5\n  board: {rows: 3, cols: 3}\n",
			nil, []string{"bad.yaml:4:", "rules.board:", "cannot hold 5 trees"}},
		{"start columns required", "game: stacktics\nrules:\n  size: 2\n  board: {rows: 5, cols: 3}\n",
			nil, []string{"bad.yaml:2:", "rules.start_columns: is required"}},
		{"start column off the board", "game: stacktics\nrules:\n  size: 2\n  board: {rows: 5, cols: 3}\n  start_columns: [0, 7]\n",
			nil, []string{"bad.yaml:5:", "rules.start_columns:", "off the board"}},
		{"negative games", "game: stacktics\ngames: -5\n",
			nil, []string{"bad.yaml:2:", "games: must be between 1 and"}},
		{"negative seed", "game: stacktics\nseed: -1\n",
			nil, []string{"bad.yaml:2:", "seed: must not be negative"}},
		{"unknown game", "game: stactics\n",
			nil, []string{"bad.yaml:1:", `unknown game "stactics"`, `did you mean "stacktics"?`}},
		{"missing game", "rules:\n  size: 3\n",
			nil, []string{"bad.yaml:1:", "game: is required"}},
		{"empty file", "",
			nil, []string{"bad.yaml:", "empty"}},
		{"not a mapping", "- a\n- b\n",
			nil, []string{"bad.yaml:1:", "want a mapping"}},
		{"duplicate key", "game: stacktics\ngames: 1\ngames: 2\n",
			nil, []string{"bad.yaml:3:", "games: is set twice (first on line 2)"}},
		{"yaml syntax", "game: stacktics\nrules: [size: 3\n",
			nil, []string{"bad.yaml:", "invalid YAML"}},
		{"one player", "game: stacktics\nplayers: [random]\n",
			nil, []string{"bad.yaml:2:", "players: want a list of 2 players"}},
		{"unknown bot", "game: stacktics\nplayers: [random, gredy]\n",
			nil, []string{"bad.yaml:2:", "players[1]: unknown bot", `did you mean "greedy"?`}},
		{"unknown bot parameter", "game: stacktics\nplayers:\n  - bot: greedy\n    epsilom: 0.1\n  - random\n",
			nil, []string{"bad.yaml:4:", "players[0].epsilom: is not a parameter of bot greedy", `did you mean "epsilon"?`}},
		{"parameter of a bot without any", "game: stacktics\nplayers:\n  - bot: random\n    epsilon: 0.1\n  - random\n",
			nil, []string{"bad.yaml:4:", "players[0].epsilon: is not a parameter of bot random", "known keys: restrict"}},
		{"unknown restriction", "game: stacktics\nplayers:\n  - bot: greedy\n    restrict: {name: no-swp}\n  - random\n",
			nil, []string{"bad.yaml:4:", "players[0].restrict.name: unknown restriction \"no-swp\"", `did you mean "no-swap"?`, "stacktics names: no-swap, no-capture"}},
		{"restriction not a regular expression", "game: stacktics\nplayers:\n  - random\n  - bot: alphabeta\n    restrict: {forbid: 'x('}\n",
			nil, []string{"bad.yaml:5:", "players[1].restrict.forbid: not a regular expression"}},
		{"restriction with both keys", "game: stacktics\nplayers:\n  - bot: mcts\n    restrict: {forbid: x, name: no-swap}\n  - random\n",
			nil, []string{"bad.yaml:", "players[0].restrict: want forbid: or name:, not both"}},
		{"restriction of a misspelled key", "game: stacktics\nplayers:\n  - bot: mcts\n    restrict: {forbd: x}\n  - random\n",
			nil, []string{"bad.yaml:4:", "players[0].restrict.forbd: unknown key", `did you mean "forbid"?`}},
		{"bad bot parameter value", "game: stacktics\nplayers:\n  - bot: greedy\n    epsilon: 2\n  - random\n",
			nil, []string{"bad.yaml:4:", "players[0].epsilon: must be between 0 and 1"}},
		{"card value out of range", "game: stacks\nrules:\n  cards: {1: 4, 5: 2}\n",
			nil, []string{"bad.yaml:3:", "rules.cards.5: unknown key", "known keys: 1, 2, 3, 4"}},
		{"negative card count", "game: stacks\nrules:\n  cards: {1: -1, 2: 5}\n",
			nil, []string{"bad.yaml:3:", "rules.cards.1: must be between 0 and 48"}},
		{"hand bigger than the stock", "game: stacks\nrules:\n  cards: {1: 2}\n  hand_size: 3\n",
			nil, []string{"bad.yaml:4:", "rules.hand_size: must be between 1 and 2"}},
		{"match target", "game: stacks\nrules:\n  match:\n    target: 0\n",
			nil, []string{"bad.yaml:4:", "rules.match.target: must be between 1 and"}},
		{"misspelled match key", "game: stacks\nrules:\n  match: {target: 50, loser_start: false}\n",
			nil, []string{"bad.yaml:3:", "rules.match.loser_start: unknown key", `did you mean "loser_starts"?`}},
		{"override with a typo", "game: stacktics\n",
			[]string{"rules.pie_rul=false"}, []string{"bad.yaml (--set rules.pie_rul=false):", "rules.pie_rul: unknown key", `did you mean "pie_rule"?`}},
		{"override with a wrong type", "game: stacktics\nrules:\n  size: 3\n",
			[]string{"rules.size=big"}, []string{"(--set rules.size=big)", "rules.size: want an integer"}},
		{"override an impossible value", "game: stacktics\n",
			[]string{"rules.max_plies=0"}, []string{"(--set rules.max_plies=0)", "rules.max_plies: must be between 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", "bad", []byte(tt.yaml), parseSets(t, tt.overrides...))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if strings.Count(msg, "\n") > 0 {
				t.Errorf("error %q spans several lines", msg)
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), nil)
	if err == nil || !strings.Contains(err.Error(), "nope.yaml: no such file, and no preset of that name") {
		t.Errorf("error %v", err)
	}
	_, err = Load("stacktics/size33", nil)
	if err == nil || !strings.Contains(err.Error(), `did you mean preset "stacktics/size3"?`) {
		t.Errorf("error %v", err)
	}
}

func TestFileSizeLimit(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, []byte("game: stacktics\n# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{big, "/dev/zero"} {
		_, err := Load(path, nil)
		var ve *Error
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), path+": larger than 1 MiB") {
			t.Errorf("%s: error %v", path, err)
		}
	}
}

func TestOverrides(t *testing.T) {
	sets := []string{
		"rules.pie_rule=true",
		"rules.board={rows: 5, cols: 3}",
		"rules.start_columns=[0, 2]",
		"rules.size=2",
		"players.0.nodes=770",
		"players.1=greedy",
		"players.1.epsilon=0.25",
		"games=12",
		"seed=99",
		"pairs=false",
		"name=tweaked",
	}
	cfg, err := Load("stacktics/size3", parseSets(t, sets...))
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Rules.(*stacktics.Rules)
	if !*r.PieRule || r.Size != 2 || r.Board.Rows != 5 || cfg.Games != 12 || cfg.Seed != 99 || cfg.Pairs || cfg.Name != "tweaked" {
		t.Errorf("overrides not applied: %+v %+v", cfg, r)
	}
	if p := cfg.Players[0]; p.Bot != "alphabeta" || p.Params.(*bots.AlphaBetaParams).Nodes != 770 || p.Params.(*bots.AlphaBetaParams).NoiseMoves != 18 {
		t.Errorf("player 0: %+v", p)
	}
	if p := cfg.Players[1]; p.Bot != "greedy" || p.Params.(*bots.GreedyParams).Epsilon != 0.25 {
		t.Errorf("player 1: %+v", p)
	}
	// A file without players: gets the default list, which overrides edit.
	o, _ := ParseSet("players.1=greedy")
	cfg, err = Parse("x.yaml", "x", []byte("game: stacktics\n"), []Override{o})
	if err != nil || cfg.Players[1].Bot != "greedy" || cfg.Players[0].Bot != DefaultBot {
		t.Errorf("players.1=greedy on a file without players: %+v, %v", cfg, err)
	}
	// players.N sets a key of every player, in a file with players: and
	// in one without; it names the seat whose value is refused.
	for _, text := range []string{"game: stacktics\n", "game: stacktics\nplayers: [greedy, {bot: alphabeta, nodes: 10}]\n"} {
		cfg, err = Parse("x.yaml", "x", []byte(text), parseSets(t, "players.N={bot: alphabeta, nodes: 300}", "players.N.noise=0.5"))
		if err != nil || len(cfg.Players) != 2 {
			t.Fatalf("players.N on %q: %v", text, err)
		}
		for seat, p := range cfg.Players {
			if ab, ok := p.Params.(*bots.AlphaBetaParams); !ok || ab.Nodes != 300 || ab.Noise != 0.5 {
				t.Errorf("players.N on %q: seat %d plays %+v", text, seat, p)
			}
		}
	}
	for set, want := range map[string]string{
		"players.N.nodes=x": "players[0].nodes: want an integer",
		"players.N.nodez=3": `did you mean "nodes"?`,
	} {
		o, _ := ParseSet(set)
		if _, err := Load("stacktics/size3", []Override{o}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--set %s: error %v, want %q", set, err, want)
		}
	}
	notList, _ := ParseSet("players.N.nodes=3")
	if _, err := Parse("x.yaml", "x", []byte("game: stacktics\nplayers: 3\n"), []Override{notList}); err == nil || !strings.Contains(err.Error(), "players is not a list") {
		t.Errorf("players.N on players: 3: %v", err)
	}
	// Numbers are keys in a mapping: STACKS' cards by value. Match play
	// adds features the preset's model lacks, so its players play the
	// hand heuristic (eval: hand sets the preset's model: aside).
	cfg, err = Load("stacks/base", parseSets(t, "rules.cards.4=2", "rules.cards.2=4", "rules.match.target=50", "players.0.eval=hand", "players.1.eval=hand"))
	if err != nil {
		t.Fatal(err)
	}
	if r := cfg.Rules.(*stacks.Rules); *r.Cards != (stacks.Cards{Ones: 4, Twos: 4, Threes: 3, Fours: 2}) || *r.Match.Target != 50 || !*r.Match.LoserStarts {
		t.Errorf("card overrides: %+v %+v", *r.Cards, r.Match)
	}
	if _, err := ParseSet("noequals"); err == nil {
		t.Error("ParseSet accepted an argument without =")
	}
}

func TestHashIgnoresNameButNotRules(t *testing.T) {
	a, _ := Parse("a.yaml", "a", []byte("game: stacktics\nname: one\n"), nil)
	b, _ := Parse("b.yaml", "b", []byte("game: stacktics\nname: two\nrules: {size: 3}\n"), nil)
	c, _ := Parse("c.yaml", "c", []byte("game: stacktics\nrules: {pie_rule: true}\n"), nil)
	if a.Hash() != b.Hash() {
		t.Error("the hash depends on the name or on spelling out a default")
	}
	if a.Hash() == c.Hash() || !strings.HasPrefix(a.Hash(), "sha256:") {
		t.Errorf("hashes %s %s", a.Hash(), c.Hash())
	}
}

func TestLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(path, []byte("game: stacktics\nrules: {size: 2}\ngames: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, nil)
	if err != nil || cfg.Name != "mine" || cfg.Games != 10 || cfg.Source != "" && cfg.Source != path {
		t.Errorf("%+v %v", cfg, err)
	}
}

// FuzzParse checks that no input makes the decoder panic.
func FuzzParse(f *testing.F) {
	for _, name := range Presets() {
		text, _ := PresetText(name)
		f.Add(string(text), "rules.size=4")
	}
	f.Add("game: stacktics\nrules: {board: {rows: 0}}\n", "players.0.epsilon=x")
	f.Add("game: [", "=")
	f.Add("&a game: *a", "rules.board.rows=2")
	f.Fuzz(func(t *testing.T, text, set string) {
		var overrides []Override
		if o, err := ParseSet(set); err == nil {
			overrides = append(overrides, o)
		}
		cfg, err := Parse("fuzz.yaml", "fuzz", []byte(text), overrides)
		if err == nil {
			if _, err := cfg.NewGame(); err != nil {
				t.Fatalf("a validated variant does not build: %v", err)
			}
		}
	})
}

func TestParseBot(t *testing.T) {
	s, err := ParseBot("--bot", "{bot: mcts, iterations: 50}")
	if err != nil || s.Bot != "mcts" || s.Params.(*bots.MCTSParams).Iterations != 50 {
		t.Errorf("%+v %v", s, err)
	}
	if s, err := ParseBot("--bot", "random"); err != nil || s.Bot != "random" {
		t.Errorf("%+v %v", s, err)
	}
	for text, want := range map[string]string{
		"{bot: mcts, iteratons: 5}":  `did you mean "iterations"?`,
		"gredy":                      `did you mean "greedy"?`,
		"{bot: mcts":                 "not a bot name",
		"{bot: alphabeta, nodes: 1}": "nodes: must be between 100",
	} {
		if _, err := ParseBot("--bot", text); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "--bot") {
			t.Errorf("%s: %v", text, err)
		}
	}
}

func TestExpect(t *testing.T) {
	cfg, err := Parse("x.yaml", "x", []byte("game: stacktics\nexpect:\n  - {metric: stalled, max: 0.05}\n  - metric: captures\n    stat: min\n    min: 1\n"), nil)
	if err != nil || len(cfg.Expect) != 2 || *cfg.Expect[0].Max != 0.05 || cfg.Expect[1].Stat != "min" || cfg.Expect[1].Line != 4 {
		t.Fatalf("%+v %v", cfg, err)
	}
	for text, want := range map[string]string{
		"game: stacktics\nexpect:\n  - {metric: stalled, min: 0.5, max: 0.1}\n":   "x.yaml:3: expect[0]: min 0.5 is above max 0.1",
		"game: stacktics\nexpect:\n  - {metric: stalled, stat: median, max: 1}\n": `expect[0].stat: must be mean, min or max`,
		"game: stacktics\nexpect:\n  - {metrc: stalled, max: 1}\n":                `did you mean "metric"?`,
	} {
		if _, err := Parse("x.yaml", "x", []byte(text), nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// TestNetworkOnAnotherBoard: a preset's network under rules whose board
// --set changed cannot read that board, so its logistic base judges alone
// (the run's model-rules warning says so); with model_strict the model is
// refused, and on its own board the network plays whole.
func TestNetworkOnAnotherBoard(t *testing.T) {
	load := func(sets ...string) (*model.Model, error) {
		cfg, err := Load("stacktics/size3", parseSets(t, sets...))
		if err != nil {
			return nil, err
		}
		return cfg.Players[0].Params.(bots.ModelUser).LearnedModel(), nil
	}
	m, err := load()
	if err != nil || m.Kind != model.KindNTuple || m.BaseOf != "" {
		t.Fatalf("on its own board: %v, kind %q", err, m.Kind)
	}
	m, err = load("rules.board={rows: 6, cols: 5}")
	if err != nil || m.Kind != "" || m.BaseOf != model.KindNTuple || len(m.Weights) == 0 {
		t.Errorf("on a 6 × 5 board: %v, %+v", err, m)
	}
	if _, err := load("rules.board={rows: 6, cols: 5}", "players.0.model_strict=true"); err == nil || !strings.Contains(err.Error(), "reads a 5 × 5 board") {
		t.Errorf("model_strict on a 6 × 5 board: %v", err)
	}
}

// parseSets parses each --set text into an override, failing the test on
// one that does not parse.
func parseSets(t *testing.T, sets ...string) []Override {
	t.Helper()
	var overrides []Override
	for _, s := range sets {
		o, err := ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		overrides = append(overrides, o)
	}
	return overrides
}
