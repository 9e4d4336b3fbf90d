package skill

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/reports"
	"playtest/variants"
)

// cheap loads Stacktics size 2 with small search budgets and few games.
func cheap(t *testing.T, sets ...string) *variants.Config {
	t.Helper()
	overrides, err := variants.ParseSets(append([]string{"games=20"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := variants.Load("stacktics/size2", overrides)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		cfg     *variants.Config
		budgets []int
		want    string
	}{
		{"random bots", cheap(t, "players.0=random"), nil, "player 0 plays random, which has no search budget"},
		{"mixed units", cheap(t, "players.1={bot: alphabeta, nodes: 1000}"), nil, "different units (iterations and nodes)"},
		{"decreasing", cheap(t), []int{100, 50}, "want increasing budgets, got 50 after 100"},
		{"one budget", cheap(t), []int{100}, "at least two budgets"},
		{"one game", cheap(t, "games=1"), []int{10, 40}, "at least 2 games per rung"},
		{"too large", cheap(t), []int{10, 2_000_000}, "is not between 1 and 1000000"},
	}
	for _, tt := range tests {
		err := Validate(tt.cfg, Options{Budgets: tt.budgets})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := Validate(cheap(t), Options{Budgets: []int{10, 40}}); err != nil {
		t.Errorf("a good ladder: %v", err)
	}
}

func TestLadderIsReproducible(t *testing.T) {
	run := func(workers int) (*Result, string) {
		// The variant's own budget is the top rung (marked as the preset's).
		cfg := cheap(t, "players.0.iterations=160", "players.1.iterations=160")
		res, err := Run(context.Background(), cfg, Options{Budgets: []int{10, 40, 160}, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Rungs {
			res.Rungs[i].Seconds = 0
		}
		var b bytes.Buffer
		if err := res.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return res, b.String()
	}
	res, one := run(1)
	if _, two := run(2); one != two {
		t.Fatal("the ladder depends on the number of workers")
	}
	if len(res.Rungs) != 3 || res.Rungs[0].Gain != nil || res.Rungs[1].Gain == nil || res.Param != "iterations" {
		t.Fatalf("rungs %+v", res.Rungs)
	}
	// The variant plays 160 iterations: that rung is marked.
	if res.Rungs[0].Preset || !res.Rungs[2].Preset {
		t.Errorf("preset rung: %v %v", res.Rungs[0].Preset, res.Rungs[2].Preset)
	}
	// 40 iterations beat 10, and 1,000 beat 40, on 10 pairs each.
	for _, rung := range res.Rungs[1:] {
		if g := rung.Gain; g.Score.Pairs != 10 || g.Score.Score <= 0.5 {
			t.Errorf("budget %d: gain %+v", rung.Budget, g)
		}
	}
	if res.Verdict == "" || res.Text == "" || res.SkillDepth <= 0 || res.DoubledScore <= 0.5 {
		t.Errorf("verdict %q %q, depth %v", res.Verdict, res.Text, res.SkillDepth)
	}
	// Every rung plays the variant's seeds: its self-play is the variant
	// itself at that budget.
	if res.Rungs[2].Headline.N != 10 || res.Rungs[2].Seat0.N != 20 {
		t.Errorf("top rung %+v", res.Rungs[2])
	}
}

func TestDefaultLadder(t *testing.T) {
	// The default ladder passes through the variant's own budget.
	for own, want := range map[int][]int{1000: {62, 250, 1000, 4000}, 300: {18, 75, 300, 1200}, 50: {12, 50, 200}, 5: {5, 20}} {
		k := DefaultStart(own)
		for i, w := range want {
			if got := DefaultRung(own, k+i); got != w {
				t.Errorf("own %d: rung %d is %d, want %d", own, i, got, w)
			}
		}
	}
	// With no time to spare the default ladder still climbs one step
	// above its start, so there is a gain to judge.
	res, err := Run(context.Background(), cheap(t, "players.0.iterations=160", "players.1.iterations=160"), Options{MaxTime: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rungs) != 2 || res.Rungs[0].Budget != 10 || res.Rungs[1].Budget != 40 {
		t.Errorf("default ladder %+v", res.Rungs)
	}
}

// rung makes a synthetic rung: seat 0's figure with its interval, and the
// Elo per doubling gained over the rung below with its interval.
func rung(budget int, value, halfWidth, gain, gainHalf float64) Rung {
	r := Rung{Budget: budget, Headline: reports.Headline{Value: value, Low: value - halfWidth, High: value + halfWidth, Measure: "seat 0's score over pairs", N: 100}}
	if gain != 0 {
		r.Gain = &Gain{PerDoubling: gain, PerDoublingLow: gain - gainHalf, PerDoublingHigh: gain + gainHalf}
	}
	return r
}

func TestVerdicts(t *testing.T) {
	tests := []struct {
		name      string
		rungs     []Rung
		verdict   string
		direction string
		phrase    string
	}{
		{"converged", []Rung{rung(100, 0.55, 0.03, 0, 0), rung(400, 0.52, 0.03, 150, 30), rung(1600, 0.51, 0.03, 60, 30)},
			Converged, "", "Converged: seat 0's score over pairs is 52% [49–55%] at 400 iterations and 51% [48–54%] at 1,600"},
		{"no gain at the top", []Rung{rung(100, 0.50, 0.03, 0, 0), rung(400, 0.51, 0.03, 20, 40)}, Converged, "", "+20 Elo per doubling)"},
		{"drifting to seat 1", []Rung{rung(100, 0.60, 0.03, 0, 0), rung(400, 0.50, 0.03, 100, 20)}, Drifting, "toward seat 1", "Drifting toward seat 1"},
		{"drifting to seat 0", []Rung{rung(100, 0.40, 0.03, 0, 0), rung(400, 0.50, 0.03, 100, 20)}, Drifting, "toward seat 0", "the bots' answer"},
		{"slow drift", []Rung{rung(100, 0.40, 0.03, 0, 0), rung(400, 0.44, 0.03, 100, 20), rung(1600, 0.48, 0.03, 90, 20)},
			Drifting, "toward seat 0", "from 40% [37–43%] at 100 iterations to 48%"},
		{"still gaining", []Rung{rung(100, 0.50, 0.03, 0, 0), rung(400, 0.51, 0.03, 80, 20), rung(1600, 0.51, 0.03, 120, 20)},
			Undecided, "", "still gain +120 Elo"},
		{"gain barely lower", []Rung{rung(100, 0.52, 0.07, 0, 0), rung(400, 0.57, 0.07, 103, 29), rung(1600, 0.55, 0.07, 98, 29)},
			Undecided, "", "(+103 below), not clearly less than before"},
		{"wide intervals", []Rung{rung(100, 0.50, 0.07, 0, 0), rung(400, 0.51, 0.07, 20, 40)}, Converged, "", "(±7 points) a smaller drift could hide"},
		{"too wide", []Rung{rung(100, 0.50, 0.3, 0, 0), rung(400, 0.9, 0.3, 20, 40)}, Undecided, "", "(±30 points) that says little; play more games"},
	}
	for _, tt := range tests {
		r := &Result{Param: "iterations", Rungs: tt.rungs}
		r.judge()
		if r.Verdict != tt.verdict || r.Direction != tt.direction || !strings.Contains(r.Text, tt.phrase) {
			t.Errorf("%s: %s %q: %s\nwant %s %q with %q", tt.name, r.Verdict, r.Direction, r.Text, tt.verdict, tt.direction, tt.phrase)
		}
	}
}

func TestWriteDir(t *testing.T) {
	res, err := Run(context.Background(), cheap(t), Options{Budgets: []int{10, 40}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := res.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{JSONFile, CSVFile, MarkdownFile, HTMLFile, "plots/seat0.svg", "plots/seat0.png", "plots/gain.svg", "plots/gain.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, MarkdownFile))
	html, _ := os.ReadFile(filepath.Join(dir, HTMLFile))
	csv, _ := os.ReadFile(filepath.Join(dir, CSVFile))
	if !strings.Contains(string(md), "# Skill ladder: stacktics/size2") || !strings.Contains(string(md), "| 40 |") {
		t.Errorf("skill.md:\n%s", md)
	}
	if !strings.Contains(string(html), "data:image/png;base64,") || !strings.Contains(string(html), res.Verdict[:1]) {
		t.Errorf("skill.html lacks its plots or verdict")
	}
	if lines := strings.Count(string(csv), "\n"); lines != 3 || !strings.HasPrefix(string(csv), "budget,param,preset,") {
		t.Errorf("skill.csv:\n%s", csv)
	}
}
