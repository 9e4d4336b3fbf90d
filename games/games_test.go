package games_test

import (
	"encoding/xml"
	"math/bits"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/catalog"
	"playtest/games/pcg"
	"playtest/games/stacktics"
)

func TestCatalog(t *testing.T) {
	// The seed games first; a game added with make new-game comes after.
	if names := catalog.Names(); len(names) < 4 || !slices.Equal(names[:4], []string{"stacktics", "capstone", "stacks", "capturecard"}) {
		t.Errorf("catalog %v", names)
	}
	if _, err := catalog.Lookup("chess"); err == nil {
		t.Error("unknown game accepted")
	}
	for _, d := range catalog.All {
		r := d.NewRules()
		if err := r.Validate(); err != nil {
			t.Errorf("%s: default rules invalid: %v", d.Name, err)
		}
		g, err := r.NewGame()
		if err != nil || g.Name() != d.Name {
			t.Errorf("%s: NewGame %v, name %q", d.Name, err, g.Name())
		}
		// Every seed game names at least two restrictions (restricted
		// play) and writes its notation without allocating.
		if rs, ok := g.(games.Restricter); !ok || len(rs.Restrictions()) < 2 {
			t.Errorf("%s names fewer than two restrictions", d.Name)
		}
		if _, ok := g.NewState().(games.MoveAppender); !ok {
			t.Errorf("%s: its states do not append their notation (games.MoveAppender)", d.Name)
		}
		for _, k := range games.Knobs(d.NewRules()) {
			if k.Name == "" || k.Doc == "" || k.Default == "" || k.Type == "" {
				t.Errorf("%s: knob %+v is undocumented", d.Name, k)
			}
		}
	}
}

func TestPerftDivideSumsToPerft(t *testing.T) {
	r := stacktics.DefaultRules()
	_ = r.Validate()
	s := stacktics.New(*r).NewState()
	moves, counts := games.PerftDivide(s, 3)
	var sum uint64
	for _, c := range counts {
		sum += c
	}
	if len(moves) != 31 || sum != games.Perft(s, 3) {
		t.Errorf("divide: %d moves summing to %d, perft %d", len(moves), sum, games.Perft(s, 3))
	}
	if games.Perft(s, 0) != 1 {
		t.Error("perft(0) must be 1")
	}
}

func TestPlayerHelpers(t *testing.T) {
	if games.Seat0.Opponent() != games.Seat1 || games.Seat1.String() != "seat1" || games.NoPlayer.String() != "none" {
		t.Error("Player helpers")
	}
	if !games.IsStalled(games.ReasonMaxPlies) || !games.IsStalled(games.ReasonMaxTurns) || !games.IsStalled(games.ReasonMaxGames) || games.IsStalled(games.ReasonRepetition) {
		t.Error("IsStalled")
	}
	if r := (games.Result{Winner: games.NoPlayer}); !r.IsDraw() {
		t.Error("IsDraw")
	}
	if m := games.Rate("x", true); m.Value != 1 || m.Kind != games.MetricRate {
		t.Error("Rate")
	}
}

func TestResultValueAndSampleChance(t *testing.T) {
	r := games.Result{Winner: games.Seat1}
	if r.ValueFor(games.Seat1) != 1 || r.ValueFor(games.Seat0) != -1 || (games.Result{Winner: games.NoPlayer}).ValueFor(games.Seat0) != 0 {
		t.Error("ValueFor")
	}
	outcomes := []games.ChanceOutcome{{Move: 7, Weight: 1}, {Move: 9, Weight: 3}}
	counts := map[games.Move]int{}
	rng := pcg.New(1, 2)
	for range 40000 {
		counts[games.SampleChance(outcomes, rng)]++
	}
	if f := float64(counts[9]) / 40000; f < 0.74 || f > 0.76 || counts[7]+counts[9] != 40000 {
		t.Errorf("weights 1:3 drawn as %v", counts)
	}
}

// TestEveryGameDraws plays a random game of each game's defaults and draws
// every position: each drawing is one well-formed <svg> element, and it
// changes as the game goes on.
func TestEveryGameDraws(t *testing.T) {
	for _, d := range catalog.All {
		r := d.NewRules()
		g, err := r.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewState()
		drawer, ok := s.(games.Drawer)
		if !ok {
			t.Errorf("%s does not implement games.Drawer", d.Name)
			continue
		}
		rng := pcg.New(1, 2)
		seen := map[string]bool{}
		var outcomes []games.ChanceOutcome
		for ply := 0; ; ply++ {
			svg := drawer.DrawSVG()
			var root struct {
				XMLName xml.Name
			}
			if err := xml.Unmarshal([]byte(svg), &root); err != nil || root.XMLName.Local != "svg" {
				t.Fatalf("%s ply %d: not one svg element (%v):\n%s", d.Name, ply, err, svg)
			}
			seen[svg] = true
			if s.IsTerminal() || ply > 3000 {
				break
			}
			if s.CurrentPlayer() == games.Chance {
				outcomes = s.ChanceOutcomes(outcomes[:0])
				s.Apply(games.SampleChance(outcomes, rng))
				continue
			}
			moves := s.LegalMoves(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
		if len(seen) < 5 {
			t.Errorf("%s: %d different drawings over a whole game", d.Name, len(seen))
		}
	}
}

// TestNthBit checks NthBit against clearing the lowest bits one by one,
// on words of every density, the full word included.
func TestNthBit(t *testing.T) {
	rng := pcg.New(1, 2)
	words := []uint64{1, 1 << 63, ^uint64(0), 0x8000000000000001, 0x00ff00ff00ff00ff}
	for range 20000 {
		words = append(words, rng.Uint64()&rng.Uint64()&rng.Uint64(), rng.Uint64(), rng.Uint64()|rng.Uint64())
	}
	for _, x := range words {
		y := x
		for k := range bits.OnesCount64(x) {
			if got, want := games.NthBit(x, k), bits.TrailingZeros64(y); got != want {
				t.Fatalf("NthBit(%#x, %d) = %d, want %d", x, k, got, want)
			}
			y &= y - 1
		}
	}
}

// BenchmarkDrawSVG draws each game's start position: a report draws every
// position of its example games, thousands of drawings.
func BenchmarkDrawSVG(b *testing.B) {
	for _, d := range catalog.All {
		g, err := d.NewRules().NewGame()
		if err != nil {
			b.Fatal(err)
		}
		drawer, ok := g.NewState().(games.Drawer)
		if !ok {
			continue
		}
		b.Run(d.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = drawer.DrawSVG()
			}
		})
	}
}
