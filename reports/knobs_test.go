package reports

import (
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
