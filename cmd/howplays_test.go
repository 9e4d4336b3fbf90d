package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/internal/testenv"
)

// brokenSets is Stacktics size 2 with its trees in the corners: a1Sxd4
// captures across the open diagonal, a first-move win (issue 45).
var brokenSets = []string{"--set", "rules.start_columns=[0,3]"}

// The broken rule set is named as such: the headline and a broken-rules
// warning give the forced win, proven; the designer's start is not named.
func TestBrokenRulesHeadline(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	code, out, errOut := run(t, append([]string{"run", "size2", "--games", "20", "--format", "json", "--quiet"}, brokenSets...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s struct {
		Headline struct{ Text string } `json:"headline"`
		Broken   *struct {
			Proof *struct {
				Winner int      `json:"winner"`
				Plies  int      `json:"plies"`
				Line   []string `json:"line"`
			} `json:"proof"`
		} `json:"broken_rules"`
		Warnings []struct{ Code, Message string } `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Headline.Text, "The rules are broken: seat 0 wins by force in 1: a1Sxd4 — the rules, not the bots") {
		t.Errorf("headline %q", s.Headline.Text)
	}
	if s.Broken == nil || s.Broken.Proof == nil || s.Broken.Proof.Plies != 1 || s.Broken.Proof.Winner != 0 {
		t.Errorf("broken_rules %+v", s.Broken)
	}
	if len(s.Warnings) != 1 || s.Warnings[0].Code != "broken-rules" || strings.Contains(s.Warnings[0].Message, "blundering") {
		t.Errorf("warnings %+v: want broken-rules alone, not blaming the bots", s.Warnings)
	}
	code, out, _ = run(t, "run", "size2", "--games", "20", "--format", "json", "--quiet")
	if code != 0 || strings.Contains(out, "broken_rules") || strings.Contains(out, "The rules are broken") {
		t.Errorf("the designer's size 2 is named broken (exit %d)", code)
	}
}

// check judges a bound against the proven result: the balance bound fails
// (exit 1), never inconclusive; a bound without a sample says the game
// ends at ply 1.
func TestBrokenRulesCheck(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "broken.yaml")
	text := `game: stacktics
name: broken-size2
rules: {size: 2, board: {rows: 4, cols: 4}, start_columns: [0, 3]}
players:
  - {bot: alphabeta, nodes: 500, noise: 0.5, noise_moves: 14}
  - {bot: alphabeta, nodes: 500, noise: 0.5, noise_moves: 14}
games: 20
pairs: true
expect:
  - {metric: seat0_score, min: 0.4, max: 0.6}
  - {metric: seat0_wins, min: 0.3}
  - {metric: large_vs_small_medium.large_loser_wins, max: 0.5}
`
	checkFailsAgainstTheProof(t, file, text,
		"| seat0\\_score | \\[0.4, 0.6\\] | 1 | — (proven: seat 0 wins by force in 1: a1Sxd4 — the rules, not the bots) | 20 | ✗ fail (proven) |",
		"| seat0\\_wins | ≥ 0.3 | 1 |",
		"✓ pass (proven) |",
		"no game measured it: every game ends by ply 1")
}

// checkFailsAgainstTheProof writes the variant text to file, runs check on
// it and wants exit 1 (a bound fails against a proof) and every line.
func checkFailsAgainstTheProof(t *testing.T, file, text string, wants ...string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "check", file, "--quiet")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the balance bound fails against the proof): %s %s", code, out, errOut)
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckAgainstTheProvenValue (issue 58): on 4,4,3, which seat 0 wins,
// a balance bound fails against the proof of the variant's value, whatever
// the bots and however the games repeat; the headline names the proof.
func TestCheckAgainstTheProvenValue(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	file := filepath.Join(t.TempDir(), "k3.yaml")
	text := `game: mnk
name: four-three
rules: {rows: 4, cols: 4, k: 3}
players:
  - {bot: greedy}
  - {bot: greedy}
games: 40
expect:
  - {metric: seat0_score, min: 0.4, max: 0.6}
  - {metric: draws, max: 0.1}
`
	checkFailsAgainstTheProof(t, file, text,
		"Proven value: seat 0 wins with perfect play (proven by a search of",
		"| seat0\\_score | \\[0.4, 0.6\\] | 1 | — (seat 0 wins with perfect play (proven by a search of",
		"| ✗ fail (proven) |",
		"| draws | ≤ 0.1 | 0 |",
		"✓ pass (proven) |",
		"A bound marked proven is judged against perfect play's value")
}

// A sweep marks the broken variant's cell; tune drops it as broken.
func TestBrokenRulesSweepAndTune(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	dir := t.TempDir()
	sweep := filepath.Join(dir, "sweep.yaml")
	if err := os.WriteFile(sweep, []byte(`name: trees
base: stacktics/size2
games: 20
set: {players.0: {bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 14}, players.1: {bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 14}}
axes:
  - {name: trees, key: rules.start_columns, values: [[1, 2], [0, 3]]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "sweep", sweep, "--quiet", "--out", filepath.Join(dir, "sw"))
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	md, err := os.ReadFile(filepath.Join(dir, "sw", "sweep.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(md)
	var marked []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "⚠ broken") {
			marked = append(marked, line)
		}
	}
	if len(marked) != 1 || !strings.Contains(marked[0], "\\[0, 3\\]") {
		t.Errorf("marked rows %q, want the [0, 3] row alone:\n%s", marked, out)
	}
	tune := filepath.Join(dir, "tune.yaml")
	if err := os.WriteFile(tune, []byte(`name: trees
base: stacktics/size2
games: 40
set: {players.0: {bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 14}, players.1: {bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 14}}
axes:
  - {name: trees, key: rules.start_columns, values: [[1, 2], [0, 3], [0, 2]]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "tune", tune, "--quiet", "--first-games", "20", "--format", "json")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errOut)
	}
	var res struct {
		Candidates []struct {
			Values    []string `json:"values"`
			DroppedBy string   `json:"dropped_by"`
			Why       string   `json:"why"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		broken := c.Values[0] == "[0, 3]"
		if (c.DroppedBy == "broken") != broken || broken && !strings.Contains(c.Why, "seat 0 wins by force in 1: a1Sxd4") {
			t.Errorf("candidate %v: dropped by %q (%s)", c.Values, c.DroppedBy, c.Why)
		}
	}
}

// compare shows How it plays for both variants and pairs a play. figure
// game by game through each variant's model; without a model, or for a
// figure of a set of games, it refuses (exit 2).
func TestCompareHowItPlays(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	code, out, errOut := run(t, "compare", "size2", "size2-nopie", "--games", "8", "--quiet")
	if code != 0 || !strings.Contains(out, "how it plays (each variant's own traced games") || !strings.Contains(out, "Played after decided") {
		t.Fatalf("exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut = run(t, "compare", "size2", "size2-nopie", "--games", "8", "--quiet", "--metric", "play.after_decided", "--format", "json")
	var res struct {
		Metric string `json:"metric"`
		Diff   struct {
			N int `json:"n"`
		} `json:"difference"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Metric != "play.after_decided" || res.Diff.N == 0 {
		t.Errorf("paired play.after_decided: exit %d %s, %+v", code, errOut, res)
	}
	for _, args := range [][]string{
		{"compare", "capstone/capstone", "capstone/threestone", "--games", "4", "--metric", "play.after_decided"},
		{"compare", "size2", "size2-nopie", "--games", "4", "--metric", "play.tree_complexity"},
	} {
		if code, _, errOut := run(t, append(args, "--quiet")...); code != ExitBadInput {
			t.Errorf("%v: exit %d %s, want 2", args, code, errOut)
		}
	}
}

// playtest worth runs an embedded study into a directory (JSON, Markdown,
// HTML and the chart), and refuses an unknown restriction with a
// suggestion (exit 2).
func TestWorthCommand(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "w")
	code, out, errOut := run(t, "worth", "stacktics-size2-mechanics", "--games", "8", "--out", dir, "--quiet", "--set", "players.0={bot: alphabeta, nodes: 300}")
	if code != 0 || !strings.Contains(out, "no-swap") || !strings.Contains(out, "no-capture") || !strings.Contains(out, "8 games a mechanic") {
		t.Fatalf("exit %d %s\n%s", code, errOut, out)
	}
	for _, f := range []string{"worth.json", "worth.md", "worth.html", "plots/worth.svg", "plots/worth.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	code, _, errOut = run(t, "worth", "size2", "--restrict", "no-swp", "--games", "4", "--quiet")
	if code != ExitBadInput || !strings.Contains(errOut, `did you mean "no-swap"?`) {
		t.Errorf("an unknown restriction: exit %d %s", code, errOut)
	}
}
