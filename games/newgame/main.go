package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

//go:embed template/*.tmpl
var templates embed.FS

// validName is a game's name: a Go package name that is also a catalog
// name and a preset directory.
var validName = regexp.MustCompile(`^[a-z][a-z0-9]{1,23}$`)

// reserved are names a new game may not take: the packages already in
// games/ and Go's keywords.
var reserved = []string{"catalog", "gamestest", "pcg", "newgame", "games", "break", "case", "chan", "const", "continue", "default",
	"defer", "else", "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var"}

func main() {
	name := flag.String("name", "", "the new game's name: lower-case letters and digits, starting with a letter (demo)")
	root := flag.String("root", ".", "the playtest source tree")
	flag.Parse()
	if err := generate(*root, *name); err != nil {
		fmt.Fprintln(os.Stderr, "newgame:", err)
		os.Exit(2)
	}
	fmt.Printf("wrote games/%s/, configs/%s/%s.yaml and its line in games/catalog/catalog.go\n", *name, *name, *name)
}

// generate writes the game's package, its preset and its catalog line
// under root. Nothing is written when the name is taken or invalid.
func generate(root, name string) error {
	switch {
	case !validName.MatchString(name):
		return fmt.Errorf("-name %q: want lower-case letters and digits, starting with a letter, 2 to 24 of them", name)
	case contains(reserved, name):
		return fmt.Errorf("-name %s: reserved (a package of games/ or a Go keyword)", name)
	}
	for _, p := range []string{filepath.Join(root, "games", name), filepath.Join(root, "configs", name)} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s exists: the game %s is already there", p, name)
		}
	}
	catalogFile := filepath.Join(root, "games", "catalog", "catalog.go")
	catalog, err := os.ReadFile(catalogFile)
	if err != nil {
		return err
	}
	newCatalog, err := addToCatalog(catalog, name)
	if err != nil {
		return err
	}
	data := struct{ Name, Title string }{name, strings.ToUpper(name[:1]) + name[1:]}
	files := map[string][]byte{}
	entries, err := templates.ReadDir("template")
	if err != nil {
		return err
	}
	for _, e := range entries {
		text, err := templates.ReadFile("template/" + e.Name())
		if err != nil {
			return err
		}
		t, err := template.New(e.Name()).Delims("[[", "]]").Parse(string(text))
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := t.Execute(&b, data); err != nil {
			return err
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %v", e.Name(), err)
		}
		out := strings.TrimSuffix(e.Name(), ".tmpl")
		if out == "name_test.go" {
			out = name + "_test.go"
		}
		files[filepath.Join(root, "games", name, out)] = src
	}
	files[filepath.Join(root, "configs", name, name+".yaml")] = []byte(preset(data.Name, data.Title))
	for path, b := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(catalogFile, newCatalog, 0o644)
}

// addToCatalog adds the game's import and its Definition at the end of
// catalog.All: the one line (and import) the catalog needs.
func addToCatalog(src []byte, name string) ([]byte, error) {
	text := string(src)
	imp := "\t\"playtest/games/" + name + "\"\n"
	anchor := "\t\"playtest/games\"\n"
	end := strings.Index(text, "\n}\n")
	all := strings.Index(text, "var All = []games.Definition{")
	if !strings.Contains(text, anchor) || all < 0 || end < all {
		return nil, errors.New("games/catalog/catalog.go does not look as newgame expects (an import of playtest/games and var All = []games.Definition{...})")
	}
	text = text[:end] + "\n\t" + name + ".Definition," + text[end:]
	text = strings.Replace(text, anchor, anchor+imp, 1)
	out, err := format.Source([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("games/catalog/catalog.go: %v", err)
	}
	return out, nil
}

// preset is the new game's preset: tic-tac-toe's board, alphabeta with
// noise over its first decisions so that games vary.
func preset(name, title string) string {
	return fmt.Sprintf(`# %[2]s preset, made by make new-game: change the rules and bots to your game's.
# Run it with: playtest run %[1]s/%[1]s
game: %[1]s
name: %[1]s/%[1]s
description: "%[2]s on 3 × 3 with three in a row (tic-tac-toe)"
rules:
  rows: 3
  cols: 3
  k: 3
# alphabeta sees the whole of a small game; noise over its first two
# decisions varies the openings (without it every game is the same).
players:
  - {bot: alphabeta, nodes: 2000, noise: 1, noise_moves: 2}
  - {bot: alphabeta, nodes: 2000, noise: 1, noise_moves: 2}
games: 1000
seed: 1
pairs: true
# What playtest check holds the preset to: no game is shorter than 5
# plies (a line takes 3 stones of one seat). Bound your game's figures here.
expect:
  - {metric: plies, stat: min, min: 5}
`, name, title)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
