package bots_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/sim/bots"
)

// cornerSize2 is Stacktics size 2 with its trees in the corners: a1Sxd4
// wins at once, and every win takes a capture.
func cornerSize2(t *testing.T) games.Game {
	t.Helper()
	r := stacktics.DefaultRules()
	pie := false
	r.Size, r.Board, r.PieRule, r.StartColumns = 2, &stacktics.Board{Rows: 4, Cols: 4}, &pie, []int{0, 3}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func restricted(t *testing.T, spec bots.Spec, r bots.Restrict) bots.Spec {
	t.Helper()
	out, err := spec.WithRestriction(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Apply keeps the allowed moves in order; a restriction that allows none
// is lifted and leaves the list whole; Keep never lifts.
func TestFilterApply(t *testing.T) {
	g := cornerSize2(t)
	s := g.NewState()
	legal := s.LegalMoves(nil)
	spec := restricted(t, bots.Spec{Bot: "random", Params: &bots.RandomParams{}}, bots.Restrict{Forbid: "x"})
	f, err := bots.NewFilter(spec, g)
	if err != nil || f == nil {
		t.Fatal(f, err)
	}
	allowed, lifted := f.Apply(s, slices.Clone(legal))
	if lifted || len(allowed) == len(legal) || len(allowed) == 0 {
		t.Fatalf("%d of %d moves allowed (lifted %v): want all but the captures", len(allowed), len(legal), lifted)
	}
	for _, m := range allowed {
		if strings.Contains(s.MoveString(m), "x") {
			t.Errorf("%s allowed", s.MoveString(m))
		}
	}
	all := restricted(t, spec, bots.Restrict{Forbid: "."})
	f2, _ := bots.NewFilter(all, g)
	whole, lifted := f2.Apply(s, slices.Clone(legal))
	if !lifted || !slices.Equal(whole, legal) {
		t.Errorf("a restriction allowing nothing: lifted %v, %d moves; want lifted and the list whole", lifted, len(whole))
	}
	if kept := f2.Keep(s, slices.Clone(legal)); len(kept) != 0 {
		t.Errorf("Keep lifted: %d moves", len(kept))
	}
	var nilFilter *bots.Filter
	if same, lifted := nilFilter.Apply(s, legal); lifted || len(same) != len(legal) {
		t.Error("a nil filter restricted something")
	}
	// Named and expression filters allocate nothing per node.
	named, err := bots.NewFilter(restricted(t, spec, bots.Restrict{Name: "no-capture"}), g)
	if err != nil {
		t.Fatal(err)
	}
	buf := slices.Clone(legal)
	for _, f := range []*bots.Filter{f, named} {
		if allocs := testing.AllocsPerRun(20, func() { copy(buf, legal); f.Apply(s, buf) }); allocs != 0 {
			t.Errorf("filtering allocates %v times a node", allocs)
		}
	}
	if _, err := bots.NewFilter(restricted(t, spec, bots.Restrict{Name: "no-such"}), g); err == nil || !strings.Contains(err.Error(), "no-swap, no-capture") {
		t.Errorf("an unknown name: %v", err)
	}
}

// The restriction holds inside the bot's own search: alphabeta held to
// never capturing sees no forced win where the only wins are captures,
// while the same bot unrestricted sees a1Sxd4 win at once.
func TestRestrictionHoldsInsideTheSearch(t *testing.T) {
	g := cornerSize2(t)
	s := g.NewState()
	base := bots.Spec{Bot: "alphabeta", Params: &bots.AlphaBetaParams{Nodes: 20000, Quiescence: true}}
	for _, tc := range []struct {
		name     string
		spec     bots.Spec
		wantWins bool
	}{
		{"unrestricted", base, true},
		{"no-capture", restricted(t, base, bots.Restrict{Name: "no-capture"}), false},
		{"forbid x", restricted(t, base, bots.Restrict{Forbid: "x"}), false},
	} {
		b, err := tc.spec.New(g)
		if err != nil {
			t.Fatal(err)
		}
		b.Reset(games.Seat0, pcg.New(1, 1))
		legal := s.LegalMoves(nil)
		f, _ := bots.NewFilter(tc.spec, g)
		allowed, _ := f.Apply(s, legal)
		m := b.Choose(s, allowed)
		v, ok := b.(bots.Valuer).RootValue()
		if !ok {
			t.Fatalf("%s: no root value", tc.name)
		}
		if wins := v > bots.JudgeWin; wins != tc.wantWins {
			t.Errorf("%s: root value %g after %s, forced win %v; want %v", tc.name, v, s.MoveString(m), wins, tc.wantWins)
		}
		if tc.wantWins && s.MoveString(m) != "a1Sxd4" {
			t.Errorf("%s plays %s, not the winning a1Sxd4", tc.name, s.MoveString(m))
		}
		if !tc.wantWins && (math.IsInf(v, 0) || strings.Contains(s.MoveString(m), "x")) {
			t.Errorf("%s plays %s (value %g)", tc.name, s.MoveString(m), v)
		}
	}
}
