package play

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/runs/rundir"
	"playtest/sim/bots"
	"playtest/variants"
	"playtest/viewers/replay"
)

func load(t testing.TB, preset string, sets ...string) *variants.Config {
	t.Helper()
	var overrides []variants.Override
	for _, kv := range sets {
		if kv == "" {
			continue
		}
		o, err := variants.ParseSet(kv)
		if err != nil {
			t.Fatal(err)
		}
		overrides = append(overrides, o)
	}
	cfg, err := variants.Load(preset, overrides)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// script answers "1" (the first legal decision) at every prompt.
func script(prefix string) *strings.Reader {
	return strings.NewReader(prefix + strings.Repeat("1\n", 5000))
}

// TestEveryGamePlaysToTheEnd plays each game's preset from a script that
// always picks the first decision, in both seats, against the random bot:
// the game ends with a result, the record replays to the same end, and
// the person never sees what their seat may not (Capstone's other goal,
// STACKS' other hand).
func TestEveryGamePlaysToTheEnd(t *testing.T) {
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	for _, preset := range []string{"stacktics/size2", "capstone/capstone", "stacks/base", "capturecard/capturecard"} {
		for _, seat := range []games.Player{games.Seat0, games.Seat1} {
			t.Run(preset+"/"+seat.String(), func(t *testing.T) {
				cfg := load(t, preset)
				var out bytes.Buffer
				rec, err := Run(context.Background(), cfg, Options{Seat: seat, Bot: random, Seed: 7, In: script(""), Out: &out})
				if err != nil {
					t.Fatalf("%v\n%s", err, tail(out.String()))
				}
				if !strings.Contains(out.String(), "result: ") || rec.Result == "" || len(rec.Moves) == 0 {
					t.Fatalf("no result:\n%s", tail(out.String()))
				}
				// The result says what it means for the person.
				verdict := map[string]string{"draw": "a draw", seat.String() + " wins": "you win", seat.Opponent().String() + " wins": "you lose"}
				for key, want := range verdict {
					if strings.Contains(rec.Result, key) && !strings.Contains(out.String(), rec.Result+": "+want+"\n") {
						t.Errorf("%q is not followed by %q:\n%s", rec.Result, want, tail(out.String()))
					}
				}
				var replayed bytes.Buffer
				again, err := rec.Config()
				if err != nil {
					t.Fatal(err)
				}
				if err := replay.WriteMoves(&replayed, again, "header", rec.Moves, nil, replay.View{Final: true}); err != nil || !strings.Contains(replayed.String(), rec.Result) {
					t.Errorf("the record does not replay to %q: %v\n%s", rec.Result, err, replayed.String())
				}
				other := seat.Opponent().String()
				switch cfg.Definition.Name {
				case "capstone":
					if regexp.MustCompile(other + ` goal \(top first\): [a-z]`).MatchString(out.String()) {
						t.Errorf("the person saw %s's goal", other)
					}
				case "stacks":
					if !strings.Contains(out.String(), "hidden") {
						t.Errorf("the other hand is not hidden:\n%s", tail(out.String()))
					}
				}
			})
		}
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// TestCommands scripts the commands: bad input gets a message and the
// prompt again; hint, undo, board, moves and save work; quit leaves the
// game unfinished.
func TestCommands(t *testing.T) {
	cfg := load(t, "stacktics/size2")
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	dir := t.TempDir()
	saved := filepath.Join(dir, "g.json")
	var out bytes.Buffer
	in := strings.NewReader("nonsense\n0\nz9-z9\nhint\nhelp\nundo\n1\nboard\nmoves\nundo\nb1S-c2\nsave " + saved + "\nquit\n")
	rec, err := Run(context.Background(), cfg, Options{Seat: games.Seat0, Bot: random, Seed: 3, In: in, Out: &out})
	if !errors.Is(err, ErrQuit) {
		t.Fatalf("quit: %v\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{
		`"nonsense"`, "0 is not a decision: pick 1 to 20", `"z9-z9"`, "commands:",
		// Hints come from the variant's search bot, not the random opponent.
		"hint: alphabeta, 2,000 nodes (eval learned, model preset sha256:",
		"nothing to undo", "undone: back to your decision 1", "saved 3 entries to " + saved,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if got := strings.Count(text, "your decision (seat0)> "); got < 12 {
		t.Errorf("%d prompts: bad input must prompt again", got)
	}
	if rec.Moves[0] != "b1S-c2" || rec.Result != "" {
		t.Errorf("record %+v", rec)
	}
	back, err := ReadRecord(saved)
	if err != nil || len(back.Moves) != 3 || back.Moves[0] != "b1S-c2" || back.Seat != 0 || back.Schema != RecordSchema {
		t.Errorf("saved record %+v: %v", back, err)
	}
	if _, err := ReadRecord(filepath.Join(dir, "nosuch.json")); err == nil {
		t.Error("a missing record was read")
	}
}

// TestMovesHideTheOpponentsSecrets (issue 31): in Capstone the other
// seat's goal draws and goal order, in STACKS the cards drawn into the
// other hand, never reach the person: not in the bot's "plays" lines, not
// in the moves command's list. The person's own draws and orders do.
func TestMovesHideTheOpponentsSecrets(t *testing.T) {
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	for _, preset := range []string{"capstone/capstone", "capstone/threestone", "stacks/base"} {
		for _, seat := range []games.Player{games.Seat0, games.Seat1} {
			cfg := load(t, preset)
			var out bytes.Buffer
			in := strings.NewReader(strings.Repeat("moves\n1\n", 3000))
			rec, err := Run(context.Background(), cfg, Options{Seat: seat, Bot: random, Seed: 11, In: in, Out: &out})
			if err != nil {
				t.Fatal(err)
			}
			// Which entries were private, and whose: replayed here from
			// the record, by who drew or ordered.
			g, _ := cfg.NewGame()
			s := g.NewState()
			var mine, theirs []string
			for _, text := range rec.Moves {
				owner := s.CurrentPlayer()
				if owner == games.Chance {
					owner = s.(games.ChanceOwner).ChanceFor()
				} else if sd, ok := s.(games.SetupDecider); !ok || !sd.InSetup() {
					owner = games.NoPlayer // a public move
				}
				switch owner {
				case seat:
					mine = append(mine, text)
				case seat.Opponent():
					theirs = append(theirs, text)
				}
				m, _ := s.ParseMove(text)
				s.Apply(m)
			}
			if len(theirs) == 0 || len(mine) == 0 {
				t.Fatalf("%s %s: no private entries (%d mine, %d theirs)", preset, seat, len(mine), len(theirs))
			}
			transcript := out.String()
			transcript = transcript[:strings.LastIndex(transcript, "result: ")]
			for _, line := range strings.Split(transcript, "\n") {
				if strings.Contains(line, "plays ") && strings.HasPrefix(line, seat.Opponent().String()) {
					if setup := strings.Contains(line, "goal:"); setup {
						t.Fatalf("%s %s: %q", preset, seat, line)
					}
				}
			}
			// The longest moves list: numbered lines "N. who entry", the
			// first after a prompt.
			var entries []string
			for _, segment := range strings.Split(transcript, "> ") {
				var list []string
				for _, line := range strings.Split(segment, "\n") {
					if f := strings.Fields(line); len(f) >= 3 && strings.HasSuffix(f[0], ".") {
						list = append(list, f[len(f)-1])
					}
				}
				if len(list) > len(entries) {
					entries = list
				}
			}
			hidden := 0
			for _, e := range entries {
				if e == "(hidden)" {
					hidden++
				}
			}
			if hidden != len(theirs) {
				t.Errorf("%s %s: %d entries hidden in the moves list, the other seat had %d private ones", preset, seat, hidden, len(theirs))
			}
			for _, e := range mine {
				if !slices.Contains(entries, e) {
					t.Errorf("%s %s: the person's own %q is not in the moves list", preset, seat, e)
				}
			}
		}
	}
}

// FuzzSaveFile reads fuzzed saved games as playtest replay FILE.json does
// (issue 31): a record is refused or replayed, its board viewer page
// drawn, never a panic.
func FuzzSaveFile(f *testing.F) {
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	for _, preset := range []string{"stacktics/size2", "capstone/capstone", "stacks/base"} {
		var out bytes.Buffer
		rec, err := Run(context.Background(), load(f, preset), Options{Seat: games.Seat0, Bot: random, Seed: 5, In: script(""), Out: &out})
		if err != nil {
			f.Fatal(err)
		}
		b, _ := json.Marshal(rec)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "g.json")
		os.WriteFile(path, b, 0o644)
		rec, err := ReadRecord(path)
		if err != nil {
			return
		}
		cfg, err := rec.Config()
		if err != nil {
			return
		}
		_ = replay.WriteMoves(io.Discard, cfg, "header", rec.Moves, nil, replay.View{Unfinished: true})
		_ = replay.WriteMoves(io.Discard, cfg, "header", rec.Moves, nil, replay.View{Moves: true, Unfinished: true})
		if g, err := cfg.NewGame(); err == nil {
			_, _ = rundir.DrawGame(g, rec.Moves)
		}
	})
}

// TestColumns: the legal decisions fit the width, numbered left to right,
// never split; an item wider than the line stands alone.
func TestColumns(t *testing.T) {
	items := []string{"1:a", "2:bb", "3:ccc", "4:dddd", "5:e"}
	if got, want := columns(items, 20), "  1:a     2:bb\n  3:ccc   4:dddd\n  5:e\n"; got != want {
		t.Errorf("columns(20) =\n%q\nwant\n%q", got, want)
	}
	if got, want := columns(items, 5), "  1:a\n  2:bb\n  3:ccc\n  4:dddd\n  5:e\n"; got != want {
		t.Errorf("columns(5) = %q", got)
	}
	if got := columns(items, 0); got != "  1:a     2:bb    3:ccc   4:dddd  5:e\n" {
		t.Errorf("columns(0) = %q, want one line of 80", got)
	}
}

// TestHintBot: hints come from a search bot, never a random one.
func TestHintBot(t *testing.T) {
	for _, c := range []struct{ preset, sets, want string }{
		{"stacktics/size2", "", "alphabeta"},
		{"capstone", "", "alphabeta"},
		{"stacktics/size2", "players.0=random", "alphabeta"},
		{"capstone", "players.0=random,players.1=greedy", "ismcts"},
		{"stacktics/size2", "players.0=random,players.1=random", "mcts"},
	} {
		cfg := load(t, c.preset, strings.Split(c.sets, ",")...)
		spec, err := HintBot(cfg, games.Seat0)
		// The hint bot plays the preset's bot at its best: no variety
		// (its model, if it plays one, stays).
		if _, _, searches := spec.Budget(); err != nil || spec.Bot != c.want || !searches || c.want == "alphabeta" && strings.Contains(strings.Join(spec.Settings(), " "), "noise") {
			t.Errorf("%s %s: %+v, %v", c.preset, c.sets, spec, err)
		}
	}
}

// TestPlayIssue43: moves says there are none at the start and lists each
// entry numbered with who made it; a swap of sides is said; a hint names
// its menu number, and leaves out a heuristic value that tells nothing
// apart; a quit after a save records what the save holds; an interrupted
// game is saved to a file of its own.
func TestPlayIssue43(t *testing.T) {
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	var out bytes.Buffer
	dir := t.TempDir()
	saved := filepath.Join(dir, "g.json")
	in := strings.NewReader("moves\nhint\n1\nmoves\nsave " + saved + "\nquit\n")
	// Seed 5: the random bot swaps after the person's opening.
	rec, err := Run(context.Background(), load(t, "stacktics/size2"), Options{Seat: games.Seat0, Bot: random, Seed: 5, In: in, Out: &out})
	if !errors.Is(err, ErrQuit) {
		t.Fatalf("quit: %v", err)
	}
	text := out.String()
	for _, want := range []string{
		"no moves yet: the game is at its start",
		"   1. seat0 (you)    ",
		"   2. seat1          ",
		"saved 2 entries to " + saved,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if !regexp.MustCompile(`hint: alphabeta, 2,000 nodes \(eval learned, model preset sha256:[0-9a-f]{8}\) would play \d+:\S+ \(heuristic value`).MatchString(text) {
		t.Errorf("the hint has no menu number:\n%s", text)
	}
	if rec.Moves[1] == "swap" && !strings.Contains(text, "the sides were swapped: you now play army B") {
		t.Errorf("a swap went unsaid:\n%s", text)
	}
	if rec.Moves[1] != "swap" {
		t.Errorf("the bot kept (%s): pick a seed whose random bot swaps, so the sentence is tested", rec.Moves[1])
	}
	if rec.Unsaved() || rec.SavedTo != saved {
		t.Errorf("a game quit after its save reads unsaved: %+v", rec)
	}
	// Capstone's heuristic reads the same after every decision of a goal
	// choice: the hint says so instead of "+0.00".
	out.Reset()
	_, err = Run(context.Background(), load(t, "capstone/capstone"), Options{Seat: games.Seat0, Bot: random, Seed: 5, In: strings.NewReader("hint\nquit\n"), Out: &out})
	if !errors.Is(err, ErrQuit) || strings.Contains(out.String(), "+0.00") || !strings.Contains(out.String(), "the heuristic rates every decision here alike") {
		t.Errorf("capstone hint: %v\n%s", err, out.String())
	}
	path, err := SaveInterrupted(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(path)
	if back, err := ReadRecord(path); err != nil || len(back.Moves) != len(rec.Moves) {
		t.Errorf("an interrupted game's file: %v", err)
	}
}
