package skill

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"playtest/internal/testenv"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// cheap loads Stacktics size 2 with mcts in both seats (the bot these
// tests' budgets are written for; the preset's own is alphabeta), 20
// games and the given sets.
func cheap(t *testing.T, sets ...string) *variants.Config {
	t.Helper()
	return cheapOf(t, "stacktics/size2", append(mctsSeats(), sets...)...)
}

// mctsSeats sets mcts in both seats of a Stacktics preset.
func mctsSeats() []string {
	mcts := testenv.MCTS(1000)
	return []string{"players.0=" + mcts, "players.1=" + mcts}
}

// cheapOf loads a preset with 20 games and the given sets.
func cheapOf(t *testing.T, preset string, sets ...string) *variants.Config {
	t.Helper()
	overrides, err := variants.ParseSets(append([]string{"games=20"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := variants.Load(preset, overrides)
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
		{"rungs 1.2 times apart (issue 34)", cheap(t), []int{200, 1000, 1200}, "1200 is only 1.2 times 1000: rungs must be at least 2 times apart"},
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

// played gives a synthetic rung its number of games.
func played(r Rung, games int) Rung {
	r.Games = games
	return r
}

// repeating marks a synthetic rung's self-play as replaying its games.
func repeating(r Rung) Rung {
	r.Warnings = []string{reports.WarnRepeatedGames}
	return r
}

// shifted gives a synthetic rung a paired shift from the rung below.
func shifted(r Rung, value, half float64) Rung {
	r.Shift = &Shift{Value: value, Low: value - half, High: value + half, Deals: 500}
	return r
}

// TestVerdicts holds the verdict to issue 34's rules: converged only with
// the top two rungs shown within ±3 points and a top gain shown small or
// clearly below the one before; a drift when a shift leaves 0 out; and
// the reason spelled out otherwise.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		name      string
		rungs     []Rung
		verdict   string
		direction string
		missing   string
		phrase    string
	}{
		{"converged", []Rung{rung(100, 0.55, 0.03, 0, 0), shifted(rung(400, 0.52, 0.03, 150, 30), -0.03, 0.02), shifted(rung(1600, 0.515, 0.02, 20, 10), -0.005, 0.02)},
			Converged, "", "", "Converged: seat 0's score over pairs is 52.0% [49.0 – 55.0%] at 400 iterations and 51.5% [49.5 – 53.5%] at 1,600 iterations, a shift of -0.5 points [-2.5, +1.5] over 500 common deals, shown within ±3 points"},
		{"a converged ladder is one family's answer", []Rung{rung(100, 0.55, 0.03, 0, 0), shifted(rung(400, 0.52, 0.03, 150, 30), -0.03, 0.02), shifted(rung(1600, 0.515, 0.02, 20, 10), -0.005, 0.02)},
			Converged, "", "", "It is one bot family's answer: bots of another kind may read another, so compare two families"},
		{"gain clearly below the one before", []Rung{rung(100, 0.55, 0.03, 0, 0), shifted(rung(400, 0.52, 0.03, 150, 20), -0.03, 0.02), shifted(rung(1600, 0.515, 0.02, 60, 10), -0.005, 0.02)},
			Converged, "", "", "clearly less than the +150 Elo per doubling [+130, +170] below"},
		{"a top gain whose interval reaches 0 is not flattening", []Rung{rung(100, 0.50, 0.03, 0, 0), shifted(rung(400, 0.51, 0.03, 20, 40), 0.01, 0.015)},
			Undecided, "", MissingBudget, "stronger bots still gain +20 Elo per doubling [-20, +60] at the top, not shown to be at most 35"},
		{"+119 after +90 is not less", []Rung{rung(200, 0.45, 0.05, 0, 0), shifted(rung(1000, 0.40, 0.05, 90, 30), -0.05, 0.06), shifted(rung(4000, 0.41, 0.05, 119, 30), 0.01, 0.02)},
			Undecided, "", MissingBudget, "nor clearly less than the +90 Elo per doubling [+60, +120] below"},
		{"14 points apart is not agreeing", []Rung{rung(100, 0.40, 0.10, 0, 0), rung(400, 0.54, 0.10, 20, 10)},
			Undecided, "", MissingGames, "not yet shown within ±3 points: play more games per rung"},
		{"drifting to seat 1", []Rung{rung(100, 0.60, 0.03, 0, 0), shifted(rung(400, 0.50, 0.03, 100, 20), -0.10, 0.03)},
			Drifting, "toward seat 1", MissingBudget, "Drifting toward seat 1"},
		{"a drift says how a kept ladder climbs", []Rung{rung(100, 0.60, 0.03, 0, 0), shifted(rung(400, 0.50, 0.03, 100, 20), -0.10, 0.03)},
			Drifting, "toward seat 1", MissingBudget, "climbs with playtest skill --resume --out DIR --budgets 100,400,1600, which plays only the new rung"},
		{"drifting while the bots stop getting stronger", []Rung{rung(100, 0.60, 0.03, 0, 0), shifted(rung(400, 0.50, 0.03, 10, 30), -0.10, 0.03)},
			Drifting, "toward seat 1", MissingStrength, "the bots stop getting stronger here, so this ladder cannot settle the variant; try another bot family"},
		{"slow drift", []Rung{rung(100, 0.40, 0.03, 0, 0), rung(400, 0.44, 0.03, 100, 20), shifted(rung(1600, 0.48, 0.03, 90, 20), 0.04, 0.045)},
			Drifting, "toward seat 0", MissingBudget, "from 40.0% [37.0 – 43.0%] at 100 iterations to 48.0%"},
		{"a gain still large says how to add a rung", []Rung{rung(100, 0.50, 0.03, 0, 0), shifted(rung(400, 0.51, 0.03, 20, 40), 0.01, 0.015)},
			Undecided, "", MissingBudget, "add a higher rung (--budgets, or --until-settled; a ladder kept with --budgets and --out climbs with playtest skill --resume --out DIR --budgets 100,400,1600"},
		// A move, then a plateau: the top step alone judges, whichever
		// way its estimate lies (a size-3 ladder of 2026-12-07 read
		// drifting on a top step of -0.1 [-1.9, +1.8]).
		{"a plateau after a move, the top step below 0", []Rung{rung(2000, 0.435, 0.02, 0, 0), shifted(rung(8000, 0.403, 0.02, 76, 5), -0.031, 0.01), shifted(rung(32000, 0.402, 0.02, 58, 4), -0.001, 0.018)},
			Converged, "", "", "Converged"},
		{"a plateau after a move, the top step above 0", []Rung{rung(2000, 0.435, 0.02, 0, 0), shifted(rung(8000, 0.403, 0.02, 76, 5), -0.031, 0.01), shifted(rung(32000, 0.405, 0.02, 58, 4), 0.002, 0.018)},
			Converged, "", "", "Converged"},
		{"undecided for games and budget", []Rung{rung(100, 0.50, 0.03, 0, 0), shifted(rung(400, 0.51, 0.03, 82, 20), 0.01, 0.05)},
			Undecided, "", MissingGames, "The top rung also still gains +82 Elo per doubling [+62, +102]"},
		// The "converged" ladder above, its top rung replaying its games.
		{"repeated games settle nothing", []Rung{rung(100, 0.55, 0.03, 0, 0), shifted(rung(400, 0.52, 0.03, 150, 30), -0.03, 0.02), repeating(shifted(rung(1600, 0.515, 0.02, 20, 10), -0.005, 0.02))},
			Undecided, "", MissingVariety, "the top rungs' bots replay the same few games"},
		{"nor drift", []Rung{repeating(rung(100, 0.60, 0.03, 0, 0)), shifted(rung(400, 0.50, 0.03, 100, 20), -0.10, 0.03)},
			Undecided, "", MissingVariety, "neither an agreement nor a drift can be read"},
	}
	for _, tt := range tests {
		r := &Result{Param: "iterations", Rungs: tt.rungs}
		r.judge()
		if r.Verdict != tt.verdict || r.Direction != tt.direction || r.Missing != tt.missing || !strings.Contains(r.Text, tt.phrase) {
			t.Errorf("%s: %s %q (missing %q): %s\nwant %s %q (missing %q) with %q", tt.name, r.Verdict, r.Direction, r.Missing, r.Text, tt.verdict, tt.direction, tt.missing, tt.phrase)
		}
	}
	// Where a proof stands beside the ladder, the proof judges it, not a
	// second family.
	r := &Result{Param: "iterations", Rungs: tests[0].rungs, Proven: &Proven{Value: "draw", Seat0Score: 0.5}}
	r.judge()
	if r.Verdict != Converged || strings.Contains(r.Text, "one bot family's answer") {
		t.Errorf("a proven ladder: %s %s", r.Verdict, r.Text)
	}
}

// TestProjection: an undecided comparison says how many games a rung
// would decide it were its estimate to hold (the interval narrowing as
// the square root of the games), and says so where none would.
func TestProjection(t *testing.T) {
	for _, tt := range []struct {
		low, high float64
		games     int
		want      int
		phrase    string
	}{
		// STACKS base's network ladder at 2,000 games a rung: −1.1 [−4.0, +1.7].
		{-0.040, 0.017, 2000, 4800, "about 4,800 games a rung (2.4× these 2,000) would show it within ±3 points: a projection"},
		{-0.005, 0.075, 400, 0, "Its estimate lies at or past ±3 points: more games are more likely to show it apart"},
		{0.0095, 0.0495, 400, 0, "would take over 100 times these 400 games a rung"},
		// Just outside: at least one more hundred games.
		{-0.0301, 0.0299, 1000, 1100, "about 1,100 games a rung"},
		{-0.04, 0.04, 0, 0, ""},
	} {
		s := &Shift{Value: (tt.low + tt.high) / 2, Low: tt.low, High: tt.high}
		n, text := projection(s, tt.games, 0.03)
		if n != tt.want || !strings.Contains(text, tt.phrase) || tt.phrase == "" && text != "" {
			t.Errorf("[%v, %v] over %d games: %d %q, want %d %q", tt.low, tt.high, tt.games, n, text, tt.want, tt.phrase)
		}
	}
	// The verdict carries it: games missing, the top rungs of 400 games.
	top, prev := shifted(rung(400, 0.51, 0.03, 20, 10), 0.01, 0.025), rung(100, 0.50, 0.03, 0, 0)
	top.Games, prev.Games = 400, 400
	r := &Result{Param: "iterations", Rungs: []Rung{prev, top}}
	r.judge()
	if r.Missing != MissingGames || r.ProjectedGames != 700 || !strings.Contains(r.Text, "about 700 games a rung (1.8× these 400)") {
		t.Errorf("%s %d: %s", r.Missing, r.ProjectedGames, r.Text)
	}
	// A converged verdict projects nothing, even judged again.
	top.Shift = &Shift{Value: 0, Low: -0.01, High: 0.01, Deals: 200}
	r.Rungs = []Rung{prev, top}
	r.judge()
	if r.Verdict != Converged || r.ProjectedGames != 0 || strings.Contains(r.Text, "projection") {
		t.Errorf("%s %d: %s", r.Verdict, r.ProjectedGames, r.Text)
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

// TestUntilSettled: a ladder whose top two rungs cannot be shown to agree
// (a tolerance of 0.01 points) doubles their games until the bound, then
// says why it stopped; one that converges at once plays nothing more. The
// rungs' shifts are paired over their common deals.
func TestUntilSettled(t *testing.T) {
	var verdicts []string
	res, err := Run(context.Background(), cheapOf(t, "stacktics/size3", mctsSeats()...), Options{Budgets: []int{4, 16}, UntilSettled: true, Tolerance: 0.0001, MaxGames: 80,
		Judged: func(r *Result) { verdicts = append(verdicts, r.Verdict+"/"+r.Missing) }})
	if err != nil {
		t.Fatal(err)
	}
	// A ladder that drifts with budget first grows a rung above (and the
	// cheap bots may well drift); the top two rungs then double their games.
	n := len(res.Rungs)
	below, top := res.Rungs[n-2], res.Rungs[n-1]
	if res.Verdict == Converged || top.Games != 80 || below.Games != 80 || !strings.Contains(res.Text, "Stopped at 80 games a rung") {
		t.Errorf("verdict %s, games %d and %d: %s", res.Verdict, below.Games, top.Games, res.Text)
	}
	last := verdicts[max(0, len(verdicts)-3):]
	if top.Shift == nil || top.Shift.Deals != 40 || top.Gain.Score.Pairs != 40 || len(last) != 3 || last[0] != last[2] || last[0] != "undecided/games" {
		t.Errorf("shift %+v, gain over %d pairs, verdicts %v", top.Shift, top.Gain.Score.Pairs, verdicts)
	}
	for _, r := range res.Rungs[:n-2] {
		if r.Games != 20 {
			t.Errorf("rung %d played %d games; only the top two add games", r.Budget, r.Games)
		}
	}
	easy, err := Run(context.Background(), cheapOf(t, "stacktics/size3", mctsSeats()...), Options{Budgets: []int{4, 16}, UntilSettled: true, Tolerance: 0.49, MaxGain: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if easy.Verdict != Converged || easy.Rungs[1].Games != 20 {
		t.Errorf("an easy ladder: %s after %d games: %s", easy.Verdict, easy.Rungs[1].Games, easy.Text)
	}
}

// TestRungWarningsAreShown (issue 34): a rung's self-play warnings reach
// the notes that the table, skill.md and skill.html print under the rungs.
func TestRungWarningsAreShown(t *testing.T) {
	r := &Result{Param: "iterations", Rungs: []Rung{rung(50, 0.5, 0.03, 0, 0), rung(200, 0.5, 0.03, 20, 10)}}
	r.Rungs[0].Warnings = []string{"early-decisions", "weak-bots"}
	if got := r.notes(); !strings.Contains(got, "Warnings in self-play (playtest run explains each): 50 iterations: early-decisions, weak-bots.") {
		t.Errorf("notes: %s", got)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md, false); err != nil || !strings.Contains(md.String(), "50 iterations: early-decisions") {
		t.Errorf("skill.md: %v\n%s", err, md.String())
	}
}

// TestFamilies: two bot families climb their own ladders on the same
// seeds, their top rungs are compared deal by deal, and the comparison
// names both families and is written beside their ladders.
func TestFamilies(t *testing.T) {
	families := []bots.Spec{family(t, "{bot: mcts, iterations: 40}"), family(t, "{bot: alphabeta, nodes: 1600, noise: 0.1, noise_moves: 4}")}
	fam, err := RunFamilies(context.Background(), cheap(t), families, Options{MaxTime: time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(fam.Ladders) != 2 || fam.Names[0] != "mcts" || fam.Names[1] != "alphabeta" {
		t.Fatalf("families %v, %d ladders", fam.Names, len(fam.Ladders))
	}
	// Each ladder is its family's default ladder from budget/16 (at least 10), cut at two rungs by the time allowance.
	for i, want := range [][]int{{10, 40}, {100, 400}} {
		l := fam.Ladders[i]
		if len(l.Rungs) != 2 || l.Rungs[0].Budget != want[0] || l.Rungs[1].Budget != want[1] {
			t.Errorf("%s ladder: %+v", fam.Names[i], l.Rungs)
		}
	}
	if fam.Ladders[0].Param != "iterations" || fam.Ladders[1].Param != "nodes" {
		t.Errorf("units %s and %s", fam.Ladders[0].Param, fam.Ladders[1].Param)
	}
	if fam.Shift == nil || fam.Shift.Deals != 10 {
		t.Errorf("the top rungs are not paired over the 10 deals: %+v", fam.Shift)
	}
	if fam.Agreement == "" || !strings.Contains(fam.Text, "the mcts ladder ends at ") || !strings.Contains(fam.Text, "the alphabeta ladder at ") || !strings.Contains(fam.Text, "at 400 nodes") {
		t.Errorf("%s: %s", fam.Agreement, fam.Text)
	}
	dir := t.TempDir()
	if err := fam.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"1-mcts/" + JSONFile, "2-alphabeta/" + HTMLFile, "families.json", "families.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	var table bytes.Buffer
	if err := fam.WriteTable(&table); err != nil || strings.Count(table.String(), "— skill ladder of ") != 2 || !strings.HasSuffix(table.String(), fam.Text+"\n") {
		t.Errorf("table: %v\n%s", err, table.String())
	}
}

// TestFamiliesCompare: the top rungs agree only when their difference is
// shown within the tolerance, disagree when it leaves 0 out.
func TestFamiliesCompare(t *testing.T) {
	ladder := func(top Rung) *Result {
		return &Result{Param: "iterations", Verdict: Converged, Rungs: []Rung{rung(10, 0.5, 0.03, 0, 0), top}}
	}
	tests := []struct {
		name      string
		a, b      Rung
		agreement string
		phrase    string
	}{
		{"close and narrow", rung(400, 0.52, 0.01, 20, 10), rung(400, 0.515, 0.01, 20, 10), Agree, "Both ladders converged"},
		{"apart", rung(400, 0.60, 0.02, 20, 10), rung(400, 0.45, 0.02, 20, 10), Disagree, "a difference of -15.0 points"},
		{"wide", rung(400, 0.52, 0.08, 20, 10), rung(400, 0.50, 0.08, 20, 10), Undecided, "neither shown within ±3 points nor apart"},
		{"the interval stops at -100 points", rung(400, 0.95, 0.5, 20, 10), rung(400, 0.05, 0.5, 20, 10), Disagree, "-90.0 points [-100.0, -19.3]"},
		// Undecided over 400 games a rung: how many would decide it.
		{"near", played(rung(400, 0.52, 0.02, 20, 10), 400), played(rung(400, 0.51, 0.02, 20, 10), 400), Undecided, "about 900 games a rung (2.2× these 400) would show it within ±3 points"},
		{"too wide to project", played(rung(400, 0.52, 0.08, 20, 10), 400), played(rung(400, 0.50, 0.08, 20, 10), 400), Undecided, "would take over 100 times these 400 games a rung"},
	}
	for _, tt := range tests {
		f := &Families{Names: []string{"mcts (family 1)", "mcts (family 2)"}, Ladders: []*Result{ladder(tt.a), ladder(tt.b)}}
		f.compare(f.tops(), DefaultTolerance)
		projected := f.ProjectedGames > 0 == strings.Contains(f.Text, "games a rung (")
		if f.Agreement != tt.agreement || !strings.Contains(f.Text, tt.phrase) || !strings.Contains(f.Text, "the mcts (family 2) ladder at 51.5%") && tt.agreement == Agree || !projected {
			t.Errorf("%s: %s: %s", tt.name, f.Agreement, f.Text)
		}
	}

	// Every game of both top rungs a proven draw: they agree, however
	// few the deals; one game that is not, and the intervals judge.
	drawn := func(draws int) *Result {
		l := ladder(rung(400, 0.5, 0.1, 20, 10))
		l.Proven = &Proven{Value: "draw", Seat0Score: 0.5}
		for i := range l.Rungs {
			l.Rungs[i].Draws = reports.Rate{Count: 20, N: 20}
		}
		l.Rungs[1].Draws.Count = draws
		return l
	}
	for _, draws := range []int{20, 19} {
		f := &Families{Names: []string{"mcts", "alphabeta"}, Ladders: []*Result{drawn(20), drawn(draws)}}
		f.compare(f.tops(), DefaultTolerance)
		if proven := f.Agreement == Agree && strings.Contains(f.Text, "agree on the proven value"); proven != (draws == 20) {
			t.Errorf("%d draws of 20: %s: %s", draws, f.Agreement, f.Text)
		}
	}
}

// family reads a --family value.
func family(t *testing.T, text string) bots.Spec {
	t.Helper()
	spec, err := variants.ParseBot("--family", text)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func TestValidateFamilies(t *testing.T) {
	mcts, ab := family(t, "{bot: mcts, iterations: 40}"), family(t, "alphabeta")
	tests := []struct {
		name     string
		families []bots.Spec
		budgets  []int
		want     string
	}{
		{"one family", []bots.Spec{mcts}, nil, "give two bot families to compare (got 1)"},
		{"a family without search", []bots.Spec{mcts, family(t, "random")}, nil, "--family random: a family climbs a ladder of its own search budget, and random has none"},
		{"budgets in two units", []bots.Spec{mcts, ab}, []int{10, 40}, "different units (iterations and nodes)"},
	}
	for _, tt := range tests {
		err := ValidateFamilies(cheap(t), tt.families, Options{Budgets: tt.budgets})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := ValidateFamilies(cheap(t), []bots.Spec{mcts, family(t, "{bot: mcts, solver: false}")}, Options{Budgets: []int{10, 40}}); err != nil {
		t.Errorf("two mcts families on one ladder: %v", err)
	}
}

// TestNextRungCost (issue 43): a rung's cost is estimated from the top
// rung's time per game and per ply, times the budget's factor, with the
// games' growth in plies from the rung below carried on (capped at the
// factor): a ladder whose games grew fivefold is not estimated as if they
// had not.
func TestNextRungCost(t *testing.T) {
	mk := func(plies, seconds float64, games int) Rung {
		r := Rung{Games: games, Seconds: seconds, self: &series{played: games}, headToHead: &series{played: games}}
		r.Plies.Value = plies
		return r
	}
	flat := []Rung{mk(10, 1, 100), mk(10, 4, 100)}
	if got, want := nextRungCost(flat, 4, 100), 16*time.Second; got != want {
		t.Errorf("flat plies: %v, want %v (4× the top rung)", got, want)
	}
	grown := []Rung{mk(4.5, 1, 100), mk(22.7, 4, 100)}
	if got, want := nextRungCost(grown, 4, 100), 64*time.Second; got != want {
		t.Errorf("plies grown fivefold: %v, want %v (4× budget, growth capped at 4×)", got, want)
	}
	mild := []Rung{mk(10, 1, 100), mk(15, 4, 100)}
	if got, want := nextRungCost(mild, 4, 200), 48*time.Second; got != want {
		t.Errorf("plies grown 1.5×, twice the games: %v, want %v", got, want)
	}
	// Doubling the top two rungs' games: the lower one's self-play (1/200
	// s a game × 100) and the top one's self-play and head-to-head (4/200
	// s × 200).
	if got, want := growthCost(flat, 200), 4500*time.Millisecond; got != want {
		t.Errorf("doubling: %v, want %v", got, want)
	}
	if got, want := growthCost(flat, 300), 9000*time.Millisecond; got != want {
		t.Errorf("tripling: %v, want %v", got, want)
	}
	// --until-settled's next step: twice the games, or the projection
	// up to four times, within the bound.
	for _, c := range []struct{ games, projected, maxGames, want int }{
		{1000, 0, 64000, 2000},       // no projection: double
		{1000, 1500, 64000, 2000},    // a projection below double: double
		{1000, 2700, 64000, 2700},    // the projection
		{1000, 9000, 64000, 4000},    // at most four times
		{1000, 2700, 2400, 2400},     // at most the bound
		{20000, 90000, 64000, 64000}, // the bound
	} {
		if got := moreGames(c.games, c.projected, c.maxGames); got != c.want {
			t.Errorf("moreGames(%d, %d, %d) = %d, want %d", c.games, c.projected, c.maxGames, got, c.want)
		}
	}
}

// TestRungCutShort (issue 43): a rung begun on an estimate that overruns
// the allowance stops at a pair boundary, says so, and holds exactly the
// first games of the rung it would have played.
func TestRungCutShort(t *testing.T) {
	cfg := cheap(t, "games=40")
	full, err := climb(context.Background(), cfg, Options{Workers: 1}, nil, 20, 40)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := climb(context.Background(), cfg, Options{Workers: 1, deadline: time.Now().Add(-time.Second)}, nil, 20, 40)
	if err != nil {
		t.Fatal(err)
	}
	if !cut.CutShort || cut.Games >= 40 || cut.Games%2 != 0 || cut.Games == 0 || full.CutShort {
		t.Fatalf("cut short %v at %d games (full: %v, %d)", cut.CutShort, cut.Games, full.CutShort, full.Games)
	}
	prefix, err := climb(context.Background(), cfg, Options{Workers: 1}, nil, 20, cut.Games)
	if err != nil {
		t.Fatal(err)
	}
	if prefix.Headline.Value != cut.Headline.Value || prefix.Plies != cut.Plies {
		t.Errorf("the cut rung's %d games are not the first %d: %+v vs %+v", cut.Games, cut.Games, cut.Headline, prefix.Headline)
	}
	res := &Result{Param: "iterations", Rungs: []Rung{*full, *cut}}
	if got := res.cutShort(); !strings.Contains(got, "during rung 2 (20 iterations): it was cut short at") {
		t.Errorf("cut-short note: %q", got)
	}
}

// A ladder of a variant small enough to solve names the proven value
// beside it; a variant too large for the proof's bound names none.
func TestProvenValueBesideTheLadder(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", []variants.Override{{Path: "games", Value: "20", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, Options{Budgets: []int{200, 400}, Workers: 2, NoBook: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Proven; p == nil || p.Value != "draw" || p.Positions != 765 || !p.UpToSymmetry || p.Seat0Score != 0.5 || res.Book != 0 {
		t.Fatalf("proven %+v, book %d: want tic-tac-toe's draw over 765 positions up to symmetry, no book", res.Proven, res.Book)
	}
	// Every game of both rungs is a draw: the repeated games leave no
	// interval to read, but the ladder agrees with the proof.
	if res.Verdict != Converged || !strings.HasPrefix(res.Text, "Converged on the proven value") {
		t.Errorf("verdict %s (%s): %s", res.Verdict, res.Missing, res.Text)
	}
	var out strings.Builder
	if err := res.WriteTable(&out); err != nil || !strings.Contains(out.String(), "Proven value (playtest solve, 765 positions up to symmetry): draw") {
		t.Errorf("table %v:\n%s", err, out.String())
	}
	big, err := variants.Load("stacktics/size3", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := prove(context.Background(), big); p != nil {
		t.Errorf("size 3 proven within %d positions: %+v", ProofStates, p)
	}
}

// The ladder converges on a proof only when every game of both top rungs
// agrees with it: one game short of that leaves the verdict as it was.
func TestAgreeWithProofThreshold(t *testing.T) {
	rung := func(budget, draws int) Rung {
		r := Rung{Budget: budget}
		r.Draws = reports.Rate{Count: draws, N: 200}
		return r
	}
	for _, c := range []struct {
		draws int
		want  string
	}{{200, Converged}, {199, Undecided}} {
		r := &Result{Verdict: Undecided, Missing: MissingVariety, Param: "nodes", Proven: &Proven{Value: "draw", Positions: 5478, Seat0Score: 0.5},
			Rungs: []Rung{rung(200, 200), rung(400, c.draws)}}
		r.agreeWithProof()
		if r.Verdict != c.want {
			t.Errorf("%d of 200 draws at the top: %s, want %s", c.draws, r.Verdict, c.want)
		}
	}
}

// Where the variant is proven, the ladder's games open from a book of
// moves that keep the proven value: bots that always answer alike then
// play different games, and the ladder converges on its own intervals
// (not on the proof's every-game rule), where without the book the same
// bots replay a few games and leave it undecided.
func TestLadderOpeningBook(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", []variants.Override{{Path: "games", Value: "200", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	ladder := func(noBook bool) *Result {
		res, err := Run(context.Background(), cfg, Options{Budgets: []int{2000, 20000}, Workers: 2, NoBook: noBook})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	booked := ladder(false)
	top := booked.Rungs[len(booked.Rungs)-1]
	if booked.Book != BookPlies || booked.Verdict != Converged || !strings.HasPrefix(booked.Text, "Converged: ") || repeats(top) {
		t.Errorf("with the book (%d): %s, warnings %v: %s", booked.Book, booked.Verdict, top.Warnings, booked.Text)
	}
	var out strings.Builder
	if err := booked.WriteTable(&out); err != nil || !strings.Contains(out.String(), "Openings: each deal's first 4 decisions are drawn at random among the moves that keep the proven value") {
		t.Errorf("table %v:\n%s", err, out.String())
	}
	plain := ladder(true)
	if top := plain.Rungs[len(plain.Rungs)-1]; plain.Book != 0 || !repeats(top) {
		t.Errorf("without the book: book %d, warnings %v", plain.Book, top.Warnings)
	}
}

// A scripted game's ladder is proven and gets its book where the game is
// small (the scripted tic-tac-toe), and a large one (the scripted
// Stacktics) climbs without its proof attempt passing the scripts' memory
// bound.
func TestScriptedLadders(t *testing.T) {
	testenv.SkipUnderRace(t)
	small, err := variants.Load("../../configs/scripts/tictactoe.yaml", []variants.Override{{Path: "games", Value: "20", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), small, Options{Budgets: []int{50, 200}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven == nil || res.Proven.Value != "draw" || res.Proven.Positions != 5478 || res.Book != BookPlies {
		t.Errorf("scripted tic-tac-toe: proven %+v, book %d", res.Proven, res.Book)
	}
	large, err := variants.Load("../../configs/scripts/stacktics.yaml", []variants.Override{{Path: "games", Value: "4", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := Run(context.Background(), large, Options{Budgets: []int{100, 200}, Workers: 2}); err != nil || res.Proven != nil {
		t.Errorf("scripted Stacktics: %v, proven %+v", err, res)
	}
}

// TestLadderAccuracy (issue 55): on a proven variant each rung's
// self-play is judged against perfect play, the book's decisions not
// judged and the noise's apart, and the table shows the columns; a
// ladder that asks for none has none.
func TestLadderAccuracy(t *testing.T) {
	cfg, err := variants.Load("connect4/4x4", []variants.Override{{Path: "games", Value: "20", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, Options{Budgets: []int{100, 400}, Workers: 2, Accuracy: AutoAccuracy})
	if err != nil {
		t.Fatal(err)
	}
	for _, rung := range res.Rungs {
		a := rung.Accuracy
		if a == nil || a.Games != 20 || a.Decisions == 0 || a.Accuracy < a.Low || a.Accuracy > a.High || a.Varied == 0 {
			t.Fatalf("rung %d: accuracy %+v", rung.Budget, a)
		}
	}
	var out strings.Builder
	if err := res.WriteTable(&out); err != nil || !strings.Contains(out.String(), "accuracy (95% CI)") || !strings.Contains(out.String(), "Accuracy: the share of the bots' decisions") {
		t.Errorf("table %v:\n%s", err, out.String())
	}
	none, err := Run(context.Background(), cfg, Options{Budgets: []int{100, 400}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if none.judged() {
		t.Error("judged without being asked")
	}
}

// TestPerfectCeiling (issue 55): --perfect adds the perfect bot's
// self-play, which ends every game at the proven value, and each rung's
// bot against it, which never scores above ½ (a bot can only give value
// away); a variant whose start cannot be proven is refused first.
func TestPerfectCeiling(t *testing.T) {
	cfg, err := variants.Load("connect4/4x4", []variants.Override{{Path: "games", Value: "20", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, Options{Budgets: []int{100, 400}, Workers: 2, Perfect: true})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Ceiling
	if c == nil || res.Proven == nil || c.Games != 20 || c.Headline.Value != res.Proven.Seat0Score {
		t.Fatalf("ceiling %+v, proven %+v", c, res.Proven)
	}
	if res.Proven.Value == "draw" && c.Draws.Rate != 1 {
		t.Errorf("perfect self-play drew %.0f%% of a drawn game", 100*c.Draws.Rate)
	}
	for _, rung := range res.Rungs {
		if rung.Gap == nil || rung.Gap.Score.Score > 0.5 || rung.Gap.Score.Pairs != 10 {
			t.Errorf("rung %d against perfect: %+v", rung.Budget, rung.Gap)
		}
	}
	var out strings.Builder
	if err := res.WriteTable(&out); err != nil || !strings.Contains(out.String(), "│ perfect ") || !strings.Contains(out.String(), "Ceiling: the perfect bot in both seats") {
		t.Errorf("table %v:\n%s", err, out.String())
	}
	chance, err := variants.Load("stacks/base", []variants.Override{{Path: "games", Value: "4", Origin: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), chance, Options{Budgets: []int{100, 400}, Perfect: true}); err == nil || !strings.Contains(err.Error(), "perfect plays from proofs") {
		t.Errorf("a game with chance: %v", err)
	}
}

// TestDescribeBots: a ladder names its players' budget only where it
// plays it; a family given without one (its bot's default, 20,000 nodes)
// climbing --budgets that leave it out is described without it.
func TestDescribeBots(t *testing.T) {
	plain := family(t, "{bot: alphabeta, noise: 0.5}")
	players := [2]bots.Spec{plain, plain}
	tests := []struct {
		ladder []int
		want   string
	}{
		{nil, "alphabeta, 20,000 nodes (noise 0.5) in both seats"},
		{[]int{5000, 20000}, "alphabeta, 20,000 nodes (noise 0.5) in both seats"},
		{[]int{100, 200}, "alphabeta (noise 0.5) in both seats"},
	}
	for _, tt := range tests {
		if got := describeBots(players, 20000, tt.ladder); got != tt.want {
			t.Errorf("budgets %v: %q, want %q", tt.ladder, got, tt.want)
		}
	}
	mixed := [2]bots.Spec{plain, family(t, "{bot: alphabeta, noise: 0.3}")}
	if got, want := describeBots(mixed, 20000, []int{100, 200}), "alphabeta (noise 0.5) vs alphabeta (noise 0.3)"; got != want {
		t.Errorf("two players: %q, want %q", got, want)
	}
}

// A ladder whose variant opens with a book bot's lines (book_bot:) plays
// every rung from the same openings, names the bot, and sets the start's
// proof aside, even where one exists: the book's openings need not keep
// the start's value.
func TestLadderBookBot(t *testing.T) {
	cfg := cheapOf(t, "mnk/tictactoe", "book=2", "book_bot={bot: alphabeta, nodes: 200, noise: 1}")
	res, err := Run(context.Background(), cfg, Options{Budgets: []int{200, 400}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven != nil || res.Book != 2 || res.BookBot != "alphabeta, 200 nodes (noise 1)" {
		t.Fatalf("proven %+v, book %d by %q", res.Proven, res.Book, res.BookBot)
	}
	if got := res.bookLine(); !strings.Contains(got, "first 2 decisions were chosen by alphabeta, 200 nodes (noise 1)") || !strings.Contains(got, "not proven") {
		t.Errorf("book line: %s", got)
	}
	// Both rungs open every deal alike.
	lows, highs := openings(t, &res.Rungs[0].self.cfg), openings(t, &res.Rungs[1].self.cfg)
	if !slices.Equal(lows, highs) || len(slices.Compact(slices.Sorted(slices.Values(lows)))) < 3 {
		t.Errorf("the rungs' openings: %v and %v", lows, highs)
	}
}

// openings plays cfg's games and returns each game's booked moves.
func openings(t *testing.T, cfg *variants.Config) []string {
	t.Helper()
	job, err := rundir.Job(cfg)
	if err != nil {
		t.Fatal(err)
	}
	job.Moves = true
	var out []string
	err = sim.Run(context.Background(), job, sim.Options{Workers: 2}, func(r *sim.Record) {
		out = append(out, strings.Join(r.Moves[:r.Booked], " "))
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
