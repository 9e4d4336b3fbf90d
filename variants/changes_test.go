package variants

import (
	"os"
	"path/filepath"
	"testing"

	"playtest/internal/knobs"
)

func TestRuleChangesAndLabel(t *testing.T) {
	sets := func(args ...string) []Override {
		o, err := ParseSets(args)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	tests := []struct {
		name, arg string
		sets      []Override
		label     string
		args      string
		changes   int
	}{
		{"a preset as it is", "stacktics/size2", nil, "stacktics/size2", "", 0},
		{"games and bots are not the variant's rules", "stacktics/size2", sets("games=10", "players.0.nodes=500"), "stacktics/size2", "", 0},
		{"a knob set to the value it has", "stacktics/size2", sets("rules.pie_rule=true"), "stacktics/size2", "--set rules.pie_rule=true", 0},
		{"a rule tweak", "stacktics/size2", sets("rules.board.rows=5", "rules.board.cols=3", "rules.start_columns=[0, 2]", "seed=4"),
			"stacktics/size2 + board {rows: 5, cols: 3}, start_columns [0, 2]",
			"--set rules.board.rows=5 --set rules.board.cols=3 --set 'rules.start_columns=[0, 2]'", 2},
		{"another game", "capstone", sets("rules.perfect_bonus=0"), "capstone/capstone + perfect_bonus 0", "--set rules.perfect_bonus=0", 1},
	}
	for _, tt := range tests {
		cfg, err := Load(tt.arg, tt.sets)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := cfg.Label(); got != tt.label {
			t.Errorf("%s: Label() = %q, want %q", tt.name, got, tt.label)
		}
		if got := cfg.RuleArgs(); got != tt.args {
			t.Errorf("%s: RuleArgs() = %q, want %q", tt.name, got, tt.args)
		}
		if got := cfg.RuleChanges(); len(got) != tt.changes {
			t.Errorf("%s: RuleChanges() = %v", tt.name, got)
		}
	}
	// StartArgs add the book and the opening to the rules, in order, and
	// leave the bots, games and seed out.
	start, err := Load("mnk/tictactoe", sets("rules.cols=4", "book=2", "players.0.nodes=500", "opening=b2", "seed=3", "book=1"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := start.StartArgs(), "--set rules.cols=4 --set opening=b2 --set book=1"; got != want {
		t.Errorf("StartArgs() = %q, want %q", got, want)
	}
	// The changes go from the preset's value to the one played.
	cfg, _ := Load("stacktics/size2", sets("rules.pie_rule=false"))
	if got := cfg.RuleChanges(); len(got) != 1 || got[0] != (knobs.Change{Knob: "pie_rule", From: "true", To: "false"}) {
		t.Errorf("pie rule off: %v", got)
	}
	// A variant file is compared with itself as written.
	file := filepath.Join(t.TempDir(), "wide.yaml")
	os.WriteFile(file, []byte("game: stacktics\nrules:\n  size: 2\n  board: {rows: 5, cols: 3}\n  start_columns: [0, 2]\n"), 0o644)
	cfg, err = Load(file, sets("rules.pie_rule=false"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Label(); got != "wide + pie_rule false" {
		t.Errorf("file: Label() = %q", got)
	}
}
