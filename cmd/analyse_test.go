package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnalyseCommand: the analysis board from a line of play, as a table
// and as JSON, and solve from one; an illegal entry of --from is one
// message naming it and the legal choices, exit 2; a game with hidden
// information is refused.
func TestAnalyseCommand(t *testing.T) {
	code, out, errOut := run(t, "analyse", "mnk/tictactoe", "--from", "a1 b2 c3", "--quiet")
	if code != 0 || !strings.Contains(out, "seat1 to move") || !strings.Contains(out, "b1, a2, c2 and b3 keep the draw.") {
		t.Errorf("exit %d: %s\n%s", code, errOut, out)
	}
	code, out, errOut = run(t, "analyse", "connect4/4x4", "--set", "rules.k=3", "--from", "b b", "--format", "json", "--quiet")
	var a struct {
		Schema, Mover, Value, Verdict string
		Moves                         []struct {
			Move, Value string
			Plies       *int
			Proven      bool
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &a) != nil || a.Schema != "playtest/analyse/v1" || len(a.Moves) != 4 || a.Mover != "seat0" {
		t.Fatalf("json: exit %d: %s\n%s", code, errOut, out)
	}
	for _, m := range a.Moves {
		if !m.Proven || m.Value != "draw" && m.Plies == nil {
			t.Errorf("%+v: proven with a distance, on a board this small", m)
		}
	}
	code, out, errOut = run(t, "solve", "mnk/tictactoe", "--from", "a1 b2 c3", "--quiet")
	if code != 0 || !strings.Contains(out, "After a1 b2 c3 (seat1 to move):") || !strings.Contains(out, "seat1's move") {
		t.Errorf("solve --from: exit %d: %s\n%s", code, errOut, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyse", "mnk/tictactoe", "--from", "b2 b2"}, `--from: entry 2 "b2": not a legal move here; the legal ones there: a1 b1 c1 a2 c2 a3 b3 c3`},
		{[]string{"analyse", "mnk/tictactoe", "--from", "a1 b1 a2 b2 a3"}, "the game is over"},
		{[]string{"analyse", "capstone/capstone"}, "cannot be solved exactly"},
		{[]string{"analyse", "mnk/tictactoe", "--max-nodes", "0"}, "--max-nodes 0"},
		{[]string{"solve", "mnk/tictactoe", "--from", "a1 a1"}, `--from: entry 2 "a1": not a legal move here`},
		{[]string{"solve", "mnk/tictactoe", "--search", "--from", "a1 b1 a2 b2 a3"}, "the game is over"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 2 {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
