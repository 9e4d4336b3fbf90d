package shell

import (
	"os/exec"
	"testing"
)

// TestQuoteRoundTrips has sh read each quoted word back: it must come out
// as the argument went in.
func TestQuoteRoundTrips(t *testing.T) {
	for _, arg := range []string{"plain", "stacktics/size2", "rules.board.rows=5", "with space", "it's", `"double"`, "$HOME", "a`b`", "", "*", "semi;colon", "new\nline", "back\\slash", "{bot: mcts, iterations: 300}"} {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(arg)).Output()
		if err != nil || string(out) != arg {
			t.Errorf("%q quoted as %s reads back as %q (%v)", arg, Quote(arg), out, err)
		}
	}
	if got := Join("playtest", "run", "--out", "my runs/a"); got != "playtest run --out 'my runs/a'" {
		t.Errorf("Join: %s", got)
	}
}
