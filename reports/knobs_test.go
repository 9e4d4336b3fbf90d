package reports

import (
	"encoding/json"
	"strings"
	"testing"

	"playtest/sim/bots"
)

// TestKnobChanges: the rules that differ, in the game's order, then the
// players whose bot, budget or settings differ.
func TestKnobChanges(t *testing.T) {
	mcts := func(iterations int) bots.Params {
		p := bots.DefaultMCTSParams()
		p.Iterations = iterations
		return p
	}
	a := &Summary{Rules: map[string]any{"size": 2, "pie_rule": true}, Players: []Player{{Bot: "mcts", Params: mcts(1000)}, {Bot: "mcts", Params: mcts(1000)}}}
	b := &Summary{Rules: map[string]any{"size": 2, "pie_rule": false}, Players: []Player{{Bot: "mcts", Params: mcts(1000)}, {Bot: "mcts", Params: mcts(200)}}}
	got := KnobChanges(a, b)
	if len(got) != 2 || got[0].Knob != "pie_rule" || got[1].Knob != "player 1" || got[1].To != "mcts, 200 iterations" {
		t.Errorf("KnobChanges = %+v", got)
	}
	var out strings.Builder
	if err := WriteKnobTable(&out, "old", "new", got); err != nil || !strings.Contains(out.String(), "│ pie_rule │ true") {
		t.Errorf("%v\n%s", err, out.String())
	}
	out.Reset()
	if err := WriteKnobMarkdown(&out, "A", "B", nil); err != nil || out.String() != "Rules and bots: the same on both sides.\n\n" {
		t.Errorf("%v %q", err, out.String())
	}
}

// TestKnobChangesNameTheModel (issue 53): two runs whose bots differ only
// in the model they play differ, each side's model named by its file and
// the start of its hash, also as read back from summary.json (which keeps
// the model's path beside the parameters).
func TestKnobChangesNameTheModel(t *testing.T) {
	side := func(path, sha string) *Summary {
		p := bots.DefaultMCTSParams()
		p.Eval, p.Model, p.ModelSHA = "learned", path, sha
		s := &Summary{Players: []Player{{Bot: "mcts", Params: p, Model: path}}}
		// Read back as a report or diff does.
		b, err := json.Marshal(s.Players[0])
		if err != nil {
			t.Fatal(err)
		}
		var back Player
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		s.Players[0] = back
		return s
	}
	a := side("preset", "sha256:"+strings.Repeat("1", 64))
	b := side("m/model.json", "sha256:"+strings.Repeat("2", 64))
	got := KnobChanges(a, b)
	if len(got) != 1 || !strings.Contains(got[0].From, "model preset sha256:11111111") || !strings.Contains(got[0].To, "model m/model.json sha256:22222222") {
		t.Errorf("KnobChanges = %+v", got)
	}
	if got := KnobChanges(a, side("preset", "sha256:"+strings.Repeat("1", 64))); len(got) != 0 {
		t.Errorf("the same model: %+v", got)
	}
}
