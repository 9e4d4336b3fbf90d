package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"playtest/reports/plots"
	"playtest/variants"
)

// quick makes every variant cheap: random bots, few games.
var quick = []variants.Override{
	{Path: "players.0", Value: "random", Origin: "test"},
	{Path: "players.1", Value: "random", Origin: "test"},
	{Path: "games", Value: "40", Origin: "test"},
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestShippedSweepsPrepare(t *testing.T) {
	names := Names()
	if len(names) < 5 || len(NamesIn("tunes")) < 1 {
		t.Fatalf("embedded sweeps: %v, spaces: %v", names, NamesIn("tunes"))
	}
	for _, name := range append(names, NamesIn("tunes")...) {
		s, err := LoadIn(name, "tunes", Dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opts := Options{MaxVariants: 10 * DefaultMaxVariants} // tune's bound
		cfgs, points, err := Prepare(s, quick, &opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(cfgs) != len(points) || len(cfgs) < 2 {
			t.Errorf("%s: %d variants", name, len(cfgs))
		}
		for _, c := range cfgs {
			if c.Seed != cfgs[0].Seed || c.Games != 40 || c.Pairs != cfgs[0].Pairs {
				t.Errorf("%s: variant %s plays seed %d, %d games; the first seed %d", name, c.Name, c.Seed, c.Games, cfgs[0].Seed)
			}
		}
		// A sweep's variants differ from each other.
		seen := map[string]string{}
		for _, c := range cfgs {
			if other, ok := seen[c.Hash()]; ok {
				t.Errorf("%s: variants %s and %s are the same", name, other, c.Name)
			}
			seen[c.Hash()] = c.Name
		}
	}
	// A directory named after an embedded sweep (its --out, say) does not
	// hide it.
	t.Chdir(t.TempDir())
	if err := os.Mkdir("stacktics-size2", 0o755); err != nil {
		t.Fatal(err)
	}
	if s, err := Load("stacktics-size2"); err != nil || s.Source != "sweep stacktics-size2" {
		t.Errorf("beside a directory of its name: %v", err)
	}
	if _, err := Load("stacktics-size"); err == nil || !strings.Contains(err.Error(), `did you mean "stacktics-size2"?`) {
		t.Errorf("misspelt sweep: %v", err)
	}
	if _, err := LoadIn("no-such", "tunes", Dir); err == nil || !strings.Contains(err.Error(), "no embedded tune or sweep of that name; tunes and sweeps: ") {
		t.Errorf("unknown space: %v", err)
	}
}

func TestPointsCrossAxes(t *testing.T) {
	s, err := Parse("s.yaml", []byte(`
base: stacktics/size2
axes:
  - {key: rules.pie_rule, values: [true, false]}
  - name: board
    zip:
      rules.board: [{rows: 4, cols: 4}, {rows: 5, cols: 3}, {rows: 5, cols: 4}]
      rules.start_columns: [[0, 3], [0, 2], [0, 3]]
`))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, pt := range s.Points() {
		labels = append(labels, s.Label(pt))
	}
	want := []string{
		"pie_rule=true, board={rows: 4, cols: 4} [0, 3]", "pie_rule=true, board={rows: 5, cols: 3} [0, 2]", "pie_rule=true, board={rows: 5, cols: 4} [0, 3]",
		"pie_rule=false, board={rows: 4, cols: 4} [0, 3]", "pie_rule=false, board={rows: 5, cols: 3} [0, 2]", "pie_rule=false, board={rows: 5, cols: 4} [0, 3]",
	}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("points:\n%q\nwant\n%q", labels, want)
	}
	cfgs, _, _, err := s.Variants(quick)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(cfgs[4].Rules); !strings.Contains(string(b), `"rows":5`) || !strings.Contains(string(b), `"pie_rule":false`) {
		t.Errorf("variant 5's rules: %s", b)
	}
}

// TestVariantsShareSeeds sweeps over two base files that differ only in
// their seed and name: the sweep plays both on the first one's seed, so
// their results are the same game for game.
func TestVariantsShareSeeds(t *testing.T) {
	dir := t.TempDir()
	body := "game: capturecard\nrules: {max_turns: 60}\ngames: 30\n"
	write(t, dir, "a.yaml", body+"seed: 5\n")
	write(t, dir, "b.yaml", body+"seed: 9\n")
	s, err := Load(write(t, dir, "s.yaml", "axes:\n  - {key: base, values: [a.yaml, b.yaml]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Workers: 3, Out: filepath.Join(dir, "out")}
	res := runSweep(t, s, opts)
	a, b := res.Rows[0], res.Rows[1]
	if a.Seat0 != b.Seat0 || a.Stalled != b.Stalled || a.Plies != b.Plies || res.Seed != 5 {
		t.Errorf("same seeds, different results: %+v\n%+v", a, b)
	}
	games := func(row Row) []string {
		text, err := os.ReadFile(filepath.Join(opts.Out, row.Dir, "games.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(string(text), "\n")[1:]
	}
	if ga, gb := games(a), games(b); !reflect.DeepEqual(ga, gb) || len(ga) < 30 {
		t.Errorf("games.csv differ:\n%v\n%v", ga[:3], gb[:3])
	}
	// A knob that changes the game changes the results on the same deals.
	s2, _ := Parse("s2.yaml", []byte("base: capturecard/capturecard\naxes:\n  - {key: rules.through, values: [jump, replace]}\n"))
	opts = Options{}
	cfgs, points, err := Prepare(s2, quick, &opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), s2, cfgs, points, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0].Plies == res.Rows[1].Plies {
		t.Errorf("jump and replace gave the same games: %+v", res.Rows)
	}
}

func TestRunWritesEverything(t *testing.T) {
	dir := t.TempDir()
	s, err := Load("stacks-cards")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Out: dir, Correction: BH}
	cfgs, points, err := Prepare(s, quick, &opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), s, cfgs, points, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{JSONFile, CSVFile, MarkdownFile, HTMLFile, "plots/sweep.svg", "plots/sweep.png", res.Rows[3].Dir + "/summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	var table, csv bytes.Buffer
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(csv.String(), "\n"); lines != 5 {
		t.Errorf("CSV has %d lines:\n%s", lines, csv.String())
	}
	// Numbers for people: no exponents, no long tails of digits.
	if exp := regexp.MustCompile(`(^|,)-?[\d.]+[eE][-+]?\d+(,|$)|\.\d{7,}`).FindString(csv.String()); exp != "" {
		t.Errorf("sweep.csv writes %q:\n%s", exp, csv.String())
	}
	for _, want := range []string{"cards", "must_stack_scope", "4-cards", "hand", "Benjamini–Hochberg", "over 4 variants"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	// A figure for each shape of sweep.
	for n := 1; n <= 3; n++ {
		r := *res
		r.Axes = nil
		for i := range n {
			r.Axes = append(r.Axes, AxisInfo{Name: "a" + string(rune('0'+i)), Labels: []string{"x", "y"}})
		}
		r.Rows = res.Rows[:1<<n%5]
		if n == 3 {
			r.Rows = append(append([]Row(nil), res.Rows...), res.Rows...)
		}
		p, err := r.Figure()
		if err != nil {
			t.Fatalf("%d axes: %v", n, err)
		}
		if b, err := plots.Render(p, "svg"); err != nil || !bytes.Contains(b, []byte("<svg")) {
			t.Errorf("%d axes: %v", n, err)
		}
	}
}

func TestSeatBiasCorrection(t *testing.T) {
	r := &Result{Correction: Holm, Alpha: 0.05, Rows: []Row{{SeatBiasP: 0.01}, {SeatBiasP: 0.02}, {SeatBiasP: 0.2}}}
	r.adjust()
	// Holm: 0.03, 0.04, 0.2 — the first two flagged.
	if !r.Rows[0].SeatBias || !r.Rows[1].SeatBias || r.Rows[2].SeatBias || r.Rows[1].AdjustedP != 0.04 {
		t.Errorf("Holm: %+v", r.Rows)
	}
	r = &Result{Correction: Holm, Alpha: 0.05, Rows: []Row{{SeatBiasP: 0.02}, {SeatBiasP: 0.03}, {SeatBiasP: 0.04}}}
	r.adjust()
	if r.Rows[0].SeatBias || r.Rows[2].SeatBias {
		t.Errorf("Holm flags p = 0.02 of three: %+v", r.Rows)
	}
	r.Correction = BH
	r.adjust()
	if !r.Rows[0].SeatBias || !r.Rows[2].SeatBias {
		t.Errorf("BH keeps all three at 0.04: %+v", r.Rows)
	}
}

func TestBadSweeps(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"base: stacktics/size2\naxis: []\n", `s.yaml:2: axis: unknown key (did you mean "axes"?)`},
		{"base: stacktics/size2\n", `s.yaml:1: axes: is required`},
		{"axes:\n  - {key: rules.pie_rule, values: [true]}\n", `s.yaml:1: base: is required`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.pie_rule, valus: [true]}\n", `s.yaml:3: axes[0].valus: unknown key (did you mean "values"?)`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.pie_rule, values: []}\n", `s.yaml:3: axes[0].values: want a non-empty list`},
		{"base: stacktics/size2\naxes:\n  - zip:\n      rules.pie_rule: [true, false]\n      rules.size: [2]\n", `s.yaml:5: axes[0].zip.rules.size: has 1 values, but the axis's first key has 2`},
		{"base: stacktics/size2\naxes:\n  - {key: games, values: [10, 20]}\n", `s.yaml:3: axes[0].values[0]: games is the same for every variant`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.pie_rule, values: [true, false], labels: [on]}\n", `s.yaml:3: axes[0].labels: has 1 labels for 2 values`},
		{"base: stacktics/size2\ngames: 0\naxes:\n  - {key: rules.pie_rule, values: [true]}\n", `s.yaml:2: games: must be between 1`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.pie_rule, values: [true, false]}\n  - {key: rules.pie_rule, values: [true, false]}\n", `axes[1].name: "pie_rule" names two axes`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.pie_rule, values: [true, 7]}\n",
			`variant pie_rule=7: preset stacktics/size2 (` + dir + `/s.yaml:3 axes[0].values[1]): rules.pie_rule: want true or false`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.pie_rul, values: [true]}\n",
			`(` + dir + `/s.yaml:3 axes[0].values[0]): rules.pie_rul: unknown key (did you mean "pie_rule"?)`},
		{"base: nosuch\naxes:\n  - {key: rules.pie_rule, values: [true]}\n", `nosuch: no such file, and no preset of that name`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.loaded_range, values: {from: 1, to: 3}}\n", `s.yaml:3: axes[0].values: a range wants from:, to: and step:`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.loaded_range, values: {from: 1, to: 3, step: 0}}\n", `s.yaml:3: axes[0].values: want from ≤ to and a step above 0`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.loaded_range, values: {from: 1, to: 3, stp: 1}}\n", `axes[0].values.stp: unknown key (did you mean "step"?)`},
		{"base: stacktics/size2\naxes:\n  - {key: rules.loaded_range, values: {from: 1, to: 1e6, step: 1}}\n", `makes 1000000 values, more than 1000`},
		{"base: stacktics/size2\ninvalid: maybe\naxes:\n  - {key: rules.pie_rule, values: [true]}\n", `s.yaml:2: invalid: want skip`},
		{"base: stacktics/size2\nexclude: [{pie_rul: true}]\naxes:\n  - {key: rules.pie_rule, values: [true]}\n", `s.yaml:2: exclude[0].pie_rul: no axis is named "pie_rul" (did you mean "pie_rule"?)`},
		{"base: stacktics/size2\nexclude: [{pie_rule: ture}]\naxes:\n  - {key: rules.pie_rule, values: [true, false]}\n", `exclude[0].pie_rule: axis pie_rule has no value ture (did you mean "true"?)`},
		{"base: stacktics/size2\nexclude: [{pie_rule: [true, false]}]\naxes:\n  - {key: rules.pie_rule, values: [true, false]}\n", `exclude: excludes every one of the sweep's 2 points`},
		{"base: stacktics/size2\nmetric: seat0_win\naxes:\n  - {key: rules.pie_rule, values: [true]}\n", `metric: unknown metric "seat0_win" (did you mean "seat0_wins"?)`},
	} {
		s, err := Load(write(t, dir, "s.yaml", c.text))
		if err == nil {
			opts := Options{}
			_, _, err = Prepare(s, quick, &opts)
		}
		var ve *variants.Error
		if err == nil || !errors.As(err, &ve) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\nerror %v\nwant %s", c.text, err, c.want)
		}
	}
	s, _ := Load("stacktics-size2")
	if n := s.Count(); n != len(s.Points()) {
		t.Errorf("Count %d, %d points", n, len(s.Points()))
	}
	var tooMany *TooManyError
	if _, _, err := Prepare(s, quick, &Options{MaxVariants: s.Count() - 1}); !errors.As(err, &tooMany) || tooMany.Count != s.Count() {
		t.Errorf("MaxVariants below the count: %v", err)
	}
	huge := &Sweep{Axes: make([]Axis, 70)}
	for i := range huge.Axes {
		huge.Axes[i].Labels = []string{"a", "b"}
	}
	if huge.Count() != math.MaxInt {
		t.Errorf("2^70 variants counted as %d", huge.Count())
	}
	for _, opts := range []Options{{Correction: "bonferroni"}, {Alpha: 2}} {
		if _, _, err := Prepare(s, quick, &opts); err == nil {
			t.Errorf("%+v accepted", opts)
		}
	}
}

// TestRangesExclusionsAndRefusals: a range of numbers makes an axis's
// values; exclude: leaves out combinations, and invalid: skip leaves out
// the points the rules refuse, counted and named.
func TestRangesExclusionsAndRefusals(t *testing.T) {
	s, err := Parse("s.yaml", []byte(`base: stacktics/size2
invalid: skip
exclude:
  - {loaded_range: 3, pie_rule: true}
axes:
  - {key: rules.loaded_range, values: {from: 0, to: 3, step: 1}}
  - {key: rules.pie_rule, values: [true, false]}
  - {key: players.0.c, values: {from: 0.1, to: 0.5, step: 0.1}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(s.Axes[0].Labels, s.Axes[2].Labels); got != "[0 1 2 3] [0.1 0.2 0.3 0.4 0.5]" {
		t.Errorf("range labels %s", got)
	}
	s.Axes = s.Axes[:2]
	opts := Options{}
	cfgs, points, err := Prepare(s, quick, &opts)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, pt := range points {
		labels = append(labels, s.Label(pt))
	}
	if len(cfgs) != 5 || opts.Skipped.Excluded != 1 || len(opts.Skipped.Refused) != 2 || slices.Contains(labels, "loaded_range=3, pie_rule=true") {
		t.Errorf("%d variants %v, skipped %+v", len(cfgs), labels, opts.Skipped)
	}
	if got := opts.Skipped.String(); !strings.HasPrefix(got, "Left out: 1 excluded by the space; 2 refused by the rules (the first, loaded_range=0, pie_rule=true: ") || !strings.Contains(got, "at least 1") {
		t.Errorf("skipped: %s", got)
	}
	res, err := Run(context.Background(), s, cfgs, points, opts)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := res.WriteTable(&table); err != nil || !strings.Contains(table.String(), "Left out: 1 excluded") {
		t.Errorf("table %v:\n%s", err, table.String())
	}
	if _, err := res.Figure(); err != nil {
		t.Errorf("figure of a sweep with points left out: %v", err)
	}
	// Without invalid: skip, the refused variant is an error.
	s.SkipInvalid = false
	if _, _, err := Prepare(s, quick, &Options{}); err == nil || !strings.Contains(err.Error(), "loaded_range") {
		t.Errorf("refused variant without skip: %v", err)
	}
}

// TestStoppedSweepLeavesNoStaleResults (issue 31): a sweep started again
// into a directory that holds a finished one removes the old sweep.json
// and its pages before playing, so a stop leaves no old results beside
// new variants.
func TestStoppedSweepLeavesNoStaleResults(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.yaml", "game: stacktics\nrules: {size: 2}\nplayers: [random, random]\ngames: 4\n")
	s, err := Load(write(t, dir, "s.yaml", "base: a.yaml\naxes:\n  - {key: rules.pie_rule, values: [true, false]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	opts := Options{Workers: 1, Out: out}
	runSweep(t, s, opts)
	cfgs, points, err := Prepare(s, nil, &opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	opts.OnGame = cancel
	if _, err := Run(ctx, s, cfgs, points, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("the second sweep was not stopped: %v", err)
	}
	for _, name := range []string{JSONFile, CSVFile, MarkdownFile, HTMLFile, "plots/" + PlotName + ".svg"} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("%s of the earlier sweep is still there", name)
		}
	}
}
