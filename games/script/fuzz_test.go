package script

import (
	"errors"
	"fmt"
	"testing"

	"playtest/games"
)

// What a fuzzed script's functions return, well-formed or not: every
// value the host gets back from a script goes through the same checks.
var (
	fuzzTurns   = []string{"state % 2", "2", "None", `"chance"`, `"x"`, "-1", "[0]", "1.5"}
	fuzzMoves   = []string{"[1, 2]", "[]", "None", "[1, 1]", `["a", "b", "c"]`, "[[1], [2]]", "{1: 2}", "[None]", "list(range(300))", `"ab"`}
	fuzzPlays   = []string{"state + 1", "None", "[state]", `"s"`, "state", "{}", "move"}
	fuzzResults = []string{"None if state < 6 else 0", "None", "7", `"draw"`, `(1, "")`, `(0, "won")`, `("draw", 3)`, "[0]", `(1, "won", 2)`}
	fuzzChances = []string{"[(1, 1), (2, 3)]", "[]", "[(1, 0)]", "[(1, -2)]", "None", "[1, 2]", `[(1, "a")]`}
)

// FuzzScriptBoundary builds scripts whose functions return malformed
// values (moves, states, results, turns, chance outcomes coming back
// wrong) and plays them from fuzzed decisions: the host either plays on
// or stops with a script *Error naming the call; never another panic.
func FuzzScriptBoundary(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 1, 2, 3})
	f.Add([]byte{1, 3, 1, 2, 3, 0, 0, 0})
	f.Add([]byte{3, 4, 6, 5, 6, 7, 1, 1})
	f.Add([]byte{0, 5, 0, 6, 2, 9, 9, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 6 {
			return
		}
		pick := func(menu []string, b byte) string { return menu[int(b)%len(menu)] }
		src := fmt.Sprintf(`
REASONS = {"won": "decisive", "script": "either"}
def start(knobs):
    return 0
def turn(state):
    return %s
def moves(state):
    return %s
def play(state, move):
    return %s
def result(state):
    return %s
def chance(state):
    return %s
`, pick(fuzzTurns, data[0]), pick(fuzzMoves, data[1]), pick(fuzzPlays, data[2]), pick(fuzzResults, data[3]), pick(fuzzChances, data[4]))
		s, err := Load("fuzz.star", []byte(src))
		if err != nil {
			return
		}
		r, err := s.NewRules()
		if err != nil {
			return
		}
		g, err := r.NewGame()
		if err != nil {
			checkScriptError(t, err, src)
			return
		}
		defer func() {
			if p := recover(); p != nil {
				err, ok := p.(error)
				if !ok {
					t.Fatalf("panic %v (%T), not a script error:\n%s", p, p, src)
				}
				checkScriptError(t, err, src)
			}
		}()
		st := g.NewState()
		for n := 0; n < 20 && !st.IsTerminal(); n++ {
			var options int
			if st.CurrentPlayer() == games.Chance {
				options = len(st.ChanceOutcomes(nil))
			} else {
				options = len(st.LegalMoves(nil))
			}
			if options == 0 {
				t.Fatalf("no options at a position not over:\n%s", src)
			}
			m := games.Move(int(data[5+n%(len(data)-5)]) % options)
			st.MoveString(m)
			st.Apply(m)
			_ = st.String()
		}
	})
}

// checkScriptError fails unless err is a script *Error naming a call, or
// a load problem.
func checkScriptError(t *testing.T, err error, src string) {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("%v (%T), not a script error:\n%s", err, err, src)
	}
	var re games.RulesError
	if !errors.As(err, &re) {
		t.Fatalf("%v is not a rules error", err)
	}
}
