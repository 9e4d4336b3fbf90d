package solve

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"playtest/variants"
)

// goldenProofs are the bounded proofs whose answers testdata/
// prove-golden.json holds, as the depth-first prover before games/prove
// gave them (issue 54: solve --depth gives the same answers as before).
var goldenProofs = []struct {
	preset string
	sets   []variants.Override
	depth  int
}{
	{"mnk/tictactoe", nil, 9},
	{"mnk/tictactoe-pie", nil, 6},
	{"mnk/4x4x4", nil, 5},
	{"connect4/4x4", nil, 8},
	{"connect4/5x4", nil, 13},
	{"connect4/4x4", set("rules.k", "3"), 11},
	{"mnk/tictactoe", set("rules.cols", "4"), 9},
	{"mnk/tictactoe-pie", set("rules.cols", "4"), 7},
	{"connect4/5x4", nil, 18},
	{"stacktics/size2", nil, 5},
	{"stacktics/size2", set("rules.start_columns", "[0, 3]"), 3},
}

// TestProveKeepsItsAnswers (issue 54): solve --depth on games/prove gives
// the answers the depth-first prover gave (testdata/prove-golden.json,
// written by it): values, distances, lines, each opening's and reply's.
func TestProveKeepsItsAnswers(t *testing.T) {
	b, err := os.ReadFile("testdata/prove-golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []*Result
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(goldenProofs) {
		t.Fatalf("%d golden results for %d cases", len(want), len(goldenProofs))
	}
	for i, c := range goldenProofs {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Prove(context.Background(), cfg, ProveOptions{Depth: c.depth})
		if err != nil {
			t.Fatal(err)
		}
		res.Nodes, res.Seconds = 0, 0
		got, _ := json.MarshalIndent(res, "", " ")
		w, _ := json.MarshalIndent(want[i], "", " ")
		if string(got) != string(w) {
			t.Errorf("%s %v within %d: the answer changed:\n%s\nwas\n%s", c.preset, c.sets, c.depth, got, w)
		}
	}
}
