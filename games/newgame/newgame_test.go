package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"playtest/internal/testenv"
)

// TestNewGame (issue 46): from make new-game NAME=demo, in a copy of the
// source tree, to a passing go vet, go test of the new package and the
// catalog, a build, a shipped model and playtest run demo --games 10, with
// no hand edits.
func TestNewGame(t *testing.T) {
	testenv.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("builds playtest in a copy of the tree")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	root := t.TempDir()
	copyTree(t, "../..", root)
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("make", "new-game", "NAME=demo", "GO="+goBin)
	run(goBin, "vet", "./games/demo", "./games/catalog")
	run(goBin, "test", "-count=1", "./games/demo", "./games/catalog", "./games")
	if _, err := os.Stat(filepath.Join(root, "configs", "models", "demo", "demo.json")); err != nil {
		t.Errorf("no model for the preset: %v", err)
	}
	out := run(filepath.Join(root, "bin", "playtest"), "run", "demo", "--games", "10", "--quiet")
	if !strings.Contains(out, "demo: demo/demo") || !strings.Contains(out, "10 games") {
		t.Errorf("playtest run demo:\n%s", out)
	}
	if out := run(filepath.Join(root, "bin", "playtest"), "solve", "demo"); !strings.Contains(out, "Value with perfect play: draw.") {
		t.Errorf("tic-tac-toe is a draw; solve says:\n%s", out)
	}
	// A second game of the same name is refused, nothing written.
	cmd := exec.Command(goBin, "run", "./games/newgame", "-name", "demo")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "already there") {
		t.Errorf("a second demo: %v\n%s", err, out)
	}
}

// TestMakeNewGameName (issue 53): make new-game hands NAME to the
// generator through the environment, never through a shell line or make's
// own expansion; a bad name is one message and exit 2, nothing written.
func TestMakeNewGameName(t *testing.T) {
	testenv.SkipUnderRace(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	// What make new-game needs before the name is checked: the Makefile,
	// the module and the generator with what it imports.
	root := t.TempDir()
	for _, p := range []string{"Makefile", "go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("../..", p))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyTree(t, ".", filepath.Join(root, "games", "newgame"))
	copyTree(t, "../../internal/printable", filepath.Join(root, "internal", "printable"))
	canary := filepath.Join(t.TempDir(), "CANARY")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, name := range []string{
		"ab;touch " + canary + ";false",
		"$(shell touch " + canary + ")",
		"`touch " + canary + "`",
		"a'b\"c$$(touch " + canary + ")",
		"my game",
		"fmt",
		"",
	} {
		cmd := exec.Command("make", "--no-print-directory", "new-game", "NAME="+name, "GO="+goBin)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("NAME=%q: %v, want exit 2\n%s", name, err, out)
		}
		if !strings.Contains(string(out), "make new-game NAME=") && !strings.Contains(string(out), "newgame: the name") {
			t.Errorf("NAME=%q: no message naming the problem:\n%s", name, out)
		}
		if _, err := os.Stat(canary); err == nil {
			t.Fatalf("NAME=%q ran a command", name)
		}
		if entries, _ := os.ReadDir(filepath.Join(root, "games")); len(entries) != 1 {
			t.Errorf("NAME=%q wrote into games/: %v", name, entries)
		}
	}
}

// copyTree copies the source tree (not .git, bin or the test logs).
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() && (rel == ".git" || rel == "bin") {
			return filepath.SkipDir
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGenerateRefuses(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"", "Demo", "9lives", "func", "a-b", "x", "my game", "ab;touch x", "a\rb",
		// predeclared names, main and init, standard library packages
		"string", "nil", "len", "main", "init", "fmt", "strings", "slices", "json", "http"} {
		if err := generate(root, name); err == nil {
			t.Errorf("-name %q accepted", name)
		}
	}
	// The tree's own packages (the catalog imports them by name).
	for _, name := range []string{"catalog", "gamestest", "inarow", "model", "bots", "stats", "printable"} {
		if err := generate("../..", name); err == nil || !strings.Contains(err.Error(), "a package of this tree") && !strings.Contains(err.Error(), "already there") {
			t.Errorf("-name %s: %v", name, err)
		}
	}
	if err := generate(root, "demo"); err == nil || !strings.Contains(err.Error(), "catalog.go") {
		t.Errorf("a tree without games/catalog: %v", err)
	}
}

func TestAddToCatalog(t *testing.T) {
	src := []byte("package catalog\n\nimport (\n\t\"playtest/games\"\n\t\"playtest/games/stacks\"\n)\n\nvar All = []games.Definition{\n\tstacks.Definition,\n}\n")
	out, err := addToCatalog(src, "demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\t\"playtest/games/demo\"\n", "\tstacks.Definition,\n\tdemo.Definition,\n}"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("catalog lacks %q:\n%s", want, out)
		}
	}
	if _, err := addToCatalog([]byte("package catalog\n"), "demo"); err == nil {
		t.Error("a catalog of another shape accepted")
	}
}
