package variants

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/games"
)

// TestOpeningIsValidated checks that every entry of an opening: is played
// in order, and that a bad one is one message naming the file's line, the
// entry and the legal choices there.
func TestOpeningIsValidated(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string // substrings of the error; none: it loads
	}{
		{"list", "game: connect4\nopening:\n  - d\n  - c\n", nil},
		{"string", "game: connect4\nopening: d c d\n", nil},
		{"empty", "game: connect4\nopening: []\n", nil},
		{"illegal move in a list", "game: connect4\nopening:\n  - d\n  - x\n",
			[]string{"bad.yaml:4:", "opening[1]:", `"x": not a legal move here`, "the legal ones there: a b c d e f g"}},
		{"illegal move in a string", "game: connect4\nopening: d d d d d d d\n",
			[]string{"bad.yaml:2:", "opening: entry 7 of 7", `"d": not a legal move here`, "a b c e f g"}},
		{"not a move", "game: connect4\nopening:\n  - {col: d}\n",
			[]string{"bad.yaml:3:", "opening[0]: want a move", "a mapping"}},
		{"not a list", "game: connect4\nopening: {a: b}\n",
			[]string{"bad.yaml:2:", "opening: want a list of moves"}},
		{"the game ends", "game: mnk\nrules: {rows: 3, cols: 3, k: 3}\nopening: a1 a2 b1 b2 c1\n",
			[]string{"bad.yaml:3:", "opening: the game is over after these 5 entries"}},
		{"pie choice as its own entry", "game: stacktics\nrules: {size: 2}\nopening: [b1S-c2, keep, b4LMS-a4]\n", nil},
		{"pie choice missing", "game: stacktics\nrules: {size: 2}\nopening: [b1S-c2, b4LMS-a4]\n",
			[]string{"bad.yaml:3:", "opening[1]:", `"b4LMS-a4": not a legal move here`, "keep", "swap"}},
		{"chance outcome", "game: stacks\nopening: ['[draw:2]', 'draw:3']\n", nil},
		{"impossible chance outcome", "game: stacks\nopening: ['[draw:9]']\n",
			[]string{"bad.yaml:2:", "opening[0]:", "not a chance outcome that can happen here", "draw:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("bad.yaml", "bad", []byte(tt.yaml), nil)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if s := cfg.OpeningState(mustGame(t, cfg)); len(cfg.OpeningMoves) != len(cfg.Opening) || (len(cfg.Opening) > 0 && s.IsTerminal()) {
					t.Errorf("opening %q, %d moves", cfg.Opening, len(cfg.OpeningMoves))
				}
				return
			}
			wantVariantError(t, err, tt.want)
		})
	}
}

// TestOpeningHash checks that an opening: is in the config hash, spelt
// as the game writes its moves, and that a variant without one hashes as
// before the key existed.
func TestOpeningHash(t *testing.T) {
	parse := func(text string) *Config {
		t.Helper()
		c, err := Parse("a.yaml", "a", []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	none := parse("game: connect4\n")
	empty := parse("game: connect4\nopening: []\n")
	list := parse("game: connect4\nopening: [d, c]\n")
	text := parse("game: connect4\nopening: 'd  c'\n")
	other := parse("game: connect4\nopening: [c, d]\n")
	if none.Hash() != empty.Hash() {
		t.Error("an empty opening changes the hash")
	}
	if list.Hash() != text.Hash() {
		t.Error("a list and a string of the same moves hash differently")
	}
	if list.Hash() == none.Hash() || list.Hash() == other.Hash() {
		t.Error("the opening is not in the hash")
	}
	if strings.Join(list.Line([]string{"e"}), " ") != "d c e" {
		t.Errorf("Line: %q", list.Line([]string{"e"}))
	}
}

// TestPresetHashesAreStable checks every preset's config hash against the
// one recorded in testdata/preset-hashes.txt: a change to the hash's
// canonical form would orphan every run directory and study written before
// it. PLAYTEST_UPDATE_GOLDEN=1 rewrites the file (for a deliberate change).
func TestPresetHashesAreStable(t *testing.T) {
	path := filepath.Join("testdata", "preset-hashes.txt")
	var got strings.Builder
	for _, name := range Presets() {
		cfg, err := Load(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%s %s\n", name, cfg.Hash())
	}
	if os.Getenv("PLAYTEST_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, hash, _ := strings.Cut(sc.Text(), " ")
		want[name] = hash
	}
	for _, line := range strings.Split(strings.TrimSpace(got.String()), "\n") {
		name, hash, _ := strings.Cut(line, " ")
		if w, ok := want[name]; !ok {
			t.Errorf("%s: no recorded hash (a new preset: PLAYTEST_UPDATE_GOLDEN=1 records it)", name)
		} else if w != hash {
			t.Errorf("%s: hash %s, recorded %s", name, hash, w)
		}
	}
}

func mustGame(t *testing.T, c *Config) games.Game {
	t.Helper()
	g, err := c.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// wantVariantError checks that err is one *variants.Error whose message
// holds every one of want.
func wantVariantError(t *testing.T, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatal("loaded")
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%T %v: not a *variants.Error", err, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
}
