package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAccuracyCommand (issue 55): the table and JSON of a study, a study
// kept in --out and resumed there, and the refusals: a game with hidden
// information, a bad flag, --resume without --out.
func TestAccuracyCommand(t *testing.T) {
	code, out, errOut := run(t, "accuracy", "mnk/tictactoe", "--games", "6", "--quiet")
	if code != 0 || !strings.Contains(out, "keeps the proven value at") || !strings.Contains(out, "opening: blunders / decisions") {
		t.Errorf("exit %d: %s\n%s", code, errOut, out)
	}
	dir := filepath.Join(t.TempDir(), "acc")
	code, out, errOut = run(t, "accuracy", "connect4/4x4", "--games", "4", "--format", "json", "--out", dir, "--quiet")
	var r struct {
		Schema  string
		Games   int
		Players []struct {
			Decisions int
			Accuracy  float64
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Schema != "playtest/accuracy/v1" || r.Games != 4 || r.Players[0].Decisions == 0 {
		t.Fatalf("json: exit %d: %s\n%s", code, errOut, out)
	}
	for _, name := range []string{"accuracy.json", "accuracy.txt", "judged.jsonl", "accuracy-study.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}
	if code, _, errOut = run(t, "accuracy", "connect4/4x4", "--games", "4", "--out", dir, "--quiet"); code != 2 || !strings.Contains(errOut, "--resume") {
		t.Errorf("a second study over the first: exit %d: %s", code, errOut)
	}
	code, again, errOut := run(t, "accuracy", "connect4/4x4", "--games", "4", "--format", "json", "--out", dir, "--resume", "--quiet")
	if code != 0 || again != out {
		t.Errorf("resumed a finished study: exit %d: %s\n%s", code, errOut, again)
	}
	if code, _, errOut := run(t, "tournament", "capstone", "--bot", "random", "--bot", "greedy", "--games", "4", "--accuracy", "2", "--quiet"); code != 2 || !strings.Contains(errOut, "--accuracy: Capstone / ThreeStone cannot be judged against perfect play") {
		t.Errorf("tournament --accuracy on a hidden-information game: exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, "skill", "stacks/base", "--budgets", "10,40", "--games", "4", "--accuracy", "2", "--quiet"); code != 2 || !strings.Contains(errOut, "--accuracy: ") {
		t.Errorf("skill --accuracy on a game with chance: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"capstone"}, "cannot be judged against perfect play"},
		{[]string{"connect4/4x4", "--nodes", "0"}, "--nodes 0: want a positive number"},
		{[]string{"connect4/4x4", "--min-plies", "-1"}, "--min-plies -1"},
		{[]string{"connect4/4x4", "--resume"}, "give --out"},
	} {
		if code, _, errOut := run(t, append(append([]string{"accuracy"}, c.args...), "--quiet")...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
	}
}
