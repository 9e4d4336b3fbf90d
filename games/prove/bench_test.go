package prove

import (
	"testing"

	"playtest/games"
	"playtest/games/connect4"
	"playtest/games/mnk"
)

// BenchmarkProveConnectFour proves ten Connect Four 7 × 6 positions of
// each source of testdata/connect4-7x6.txt (make bench), with the
// positions searched per second; a search allocates its table and its
// buffers once, nothing a position.
func BenchmarkProveConnectFour(b *testing.B) {
	g := connect4.New(connect4.Rules{Rows: 6, Cols: 7, K: 4})
	var ps []games.State
	counted := map[string]int{}
	for _, p := range readC4Positions(b) {
		if counted[p.source] < 10 {
			counted[p.source]++
			ps = append(ps, p.play(b, g))
		}
	}
	benchProofs(b, ps, 1<<20)
}

// BenchmarkProve554 proves 5,5,4 a draw from its start.
func BenchmarkProve554(b *testing.B) {
	g := mnk.New(mnk.Rules{Rows: 5, Cols: 5, K: 4})
	benchProofs(b, []games.State{g.NewState()}, 1<<22)
}

func benchProofs(b *testing.B, ps []games.State, entries int) {
	b.ReportAllocs()
	var nodes int64
	for b.Loop() {
		for _, s := range ps {
			se, err := New(s, Options{Entries: entries})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := se.Decide(s); err != nil {
				b.Fatal(err)
			}
			nodes += se.Nodes()
			se.Close()
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "positions/s")
}
