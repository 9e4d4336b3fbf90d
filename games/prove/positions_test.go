package prove

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"playtest/games"
	"playtest/games/connect4"
)

// c4Position is a line of testdata/connect4-7x6.txt.
type c4Position struct {
	source, moves, value string
}

func readC4Positions(t testing.TB) []c4Position {
	f, err := os.Open("testdata/connect4-7x6.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []c4Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Fields(line)
		p := c4Position{source: fields[0], moves: fields[1]}
		if len(fields) > 2 {
			p.value = fields[2]
		}
		out = append(out, p)
	}
	return out
}

// play returns the position after moves (column letters).
func (p c4Position) play(t testing.TB, g games.Game) games.State {
	s := g.NewState()
	for _, c := range p.moves {
		m, err := s.ParseMove(string(c))
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(m)
	}
	if s.IsTerminal() {
		t.Fatalf("%s is finished", p.moves)
	}
	return s
}

func outcomeWord(v Value) string {
	switch v.Outcome {
	case 1:
		return "win"
	case -1:
		return "loss"
	}
	return "draw"
}

// TestConnectFourPositions proves the positions of
// testdata/connect4-7x6.txt and checks each value against the one kept
// there: every position with PLAYTEST_PROVE_ALL=1 (with each one's time,
// and the median and 95th percentile: docs/known-answers.md), else the
// first few of each source.
func TestConnectFourPositions(t *testing.T) {
	g := connect4.New(connect4.Rules{Rows: 6, Cols: 7, K: 4})
	every := os.Getenv("PLAYTEST_PROVE_ALL") != ""
	var times []float64
	var nodes []int64
	counted := map[string]int{}
	for i, p := range readC4Positions(t) {
		if !every && counted[p.source] >= 10 {
			continue
		}
		counted[p.source]++
		s := p.play(t, g)
		se, err := New(s, Options{Entries: 1 << 24, NoETC: os.Getenv("NOETC") != ""})
		if err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		v, err := se.Decide(s)
		sec := time.Since(begin).Seconds()
		se.Close()
		if err != nil {
			t.Fatal(err)
		}
		times, nodes = append(times, sec), append(nodes, se.Nodes())
		if every {
			t.Logf("%3d %-6s %-30s %-4s %10d nodes %8.3f s", i, p.source, p.moves, outcomeWord(v), se.Nodes(), sec)
		}
		if p.value != "" && outcomeWord(v) != p.value {
			t.Errorf("position %d (%s): %s, kept %s", i, p.moves, outcomeWord(v), p.value)
		}
	}
	total, all := 0.0, int64(0)
	for i := range times {
		total, all = total+times[i], all+nodes[i]
	}
	t.Logf("in all %.1f s, %d positions searched", total, all)
	slices.Sort(times)
	slices.Sort(nodes)
	q := func(f float64) int { return min(len(times)-1, int(f*float64(len(times)))) }
	t.Logf("%d positions: median %.3f s (%d nodes), 95th percentile %.3f s (%d nodes), most %.3f s",
		len(times), times[q(0.5)], nodes[q(0.5)], times[q(0.95)], nodes[q(0.95)], times[len(times)-1])
}
