package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"go/format"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"playtest/internal/printable"
)

//go:embed template/*.tmpl
var templates embed.FS

// validName is a game's name: a Go package name that is also a catalog
// name and a preset directory.
var validName = regexp.MustCompile(`^[a-z][a-z0-9]{1,23}$`)

// NameEnv is the environment variable make new-game hands the name
// through: a name is never pasted into a shell line, where quoting alone
// fails on a name holding a quote.
const NameEnv = "NEWGAME_NAME"

func main() {
	name := flag.String("name", "", "the new game's name: lower-case letters and digits, starting with a letter (demo); default $"+NameEnv)
	root := flag.String("root", ".", "the playtest source tree")
	flag.Parse()
	if *name == "" {
		*name = os.Getenv(NameEnv)
	}
	if err := generate(*root, *name); err != nil {
		fmt.Fprintln(os.Stderr, "newgame:", printable.String(err.Error()))
		os.Exit(2)
	}
	fmt.Printf("wrote games/%s/, configs/%s/%s.yaml and its line in games/catalog/catalog.go\n", *name, *name, *name)
}

// generate writes the game's package, its preset and its catalog line
// under root. Nothing is written when the name is taken or invalid.
func generate(root, name string) error {
	if err := checkName(root, name); err != nil {
		return err
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

// checkName refuses a name that is not a lower-case Go identifier of 2 to
// 24 letters and digits, or that the new package could not take: a Go
// keyword, a predeclared name (string, nil, len), main or init, a package
// of Go's standard library (fmt, strings, slices) or one of this tree's
// own packages (the catalog and the games' files import them under their
// names, and the tree would no longer build).
func checkName(root, name string) error {
	const want = "want a lower-case Go identifier: 2 to 24 lower-case letters and digits, starting with a letter (make new-game NAME=mygame)"
	switch {
	case name == "":
		return errors.New("no name: " + want)
	case !validName.MatchString(name):
		return fmt.Errorf("the name %q: %s", name, want)
	case token.IsKeyword(name):
		return fmt.Errorf("the name %s: a Go keyword; choose another", name)
	case slices.Contains(predeclared, name):
		return fmt.Errorf("the name %s: a name Go predeclares (or main, init); choose another", name)
	}
	for _, p := range []string{filepath.Join(root, "games", name), filepath.Join(root, "configs", name)} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s exists: the game %s is already there", p, name)
		}
	}
	if dir, ok := stdPackage(name); ok {
		return fmt.Errorf("the name %s: a package of Go's standard library (%s); choose another", name, dir)
	}
	if dir, ok := treePackage(root, name); ok {
		return fmt.Errorf("the name %s: a package of this tree already (%s); choose another", name, dir)
	}
	return nil
}

// predeclared are Go's predeclared identifiers, and main and init.
var predeclared = []string{"any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64",
	"int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
	"true", "false", "iota", "nil", "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
	"max", "min", "new", "panic", "print", "println", "real", "recover", "main", "init"}

// stdPackage reports whether a package of the standard library that a
// program may import is called name (encoding/json's json counts), and
// its import path.
func stdPackage(name string) (string, bool) {
	src := filepath.Join(build.Default.GOROOT, "src")
	return findPackage(src, name, func(rel string) bool {
		first, _, _ := strings.Cut(rel, string(filepath.Separator))
		base := filepath.Base(rel)
		return first == "cmd" || base == "internal" || base == "vendor" || base == "testdata"
	})
}

// treePackage reports whether a directory of Go files in the tree under
// root is called name, and which.
func treePackage(root, name string) (string, bool) {
	return findPackage(root, name, func(rel string) bool {
		base := filepath.Base(rel)
		return strings.HasPrefix(base, ".") || base == "testdata" || base == "bin"
	})
}

// findPackage walks the directories under top, skipping those skip names
// (by their path relative to top), for one called name that holds Go files.
func findPackage(top, name string, skip func(rel string) bool) (string, bool) {
	found := ""
	filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || found != "" {
			return nil
		}
		rel, _ := filepath.Rel(top, path)
		if rel != "." && skip(rel) {
			return filepath.SkipDir
		}
		if d.Name() != name {
			return nil
		}
		if goFiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(goFiles) > 0 {
			found = filepath.ToSlash(rel)
			return filepath.SkipAll
		}
		return nil
	})
	return found, found != ""
}
