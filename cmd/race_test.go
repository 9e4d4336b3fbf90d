package cmd

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRaceCoversGoroutines: every package whose code starts a goroutine is
// among the Makefile's RACE packages, which make test runs under -race
// (the others are single-goroutine code, where the detector finds nothing).
func TestRaceCoversGoroutines(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^RACE = (.*)$`).FindSubmatch(mk)
	if line == nil {
		t.Fatal("the Makefile has no RACE line")
	}
	race := strings.Fields(string(line[1]))
	covered := func(dir string) bool {
		for _, p := range race {
			base, tree := strings.CutSuffix(strings.TrimPrefix(p, "./"), "/...")
			if dir == base || tree && strings.HasPrefix(dir, base+"/") {
				return true
			}
		}
		return false
	}
	goStmt := regexp.MustCompile(`(?m)^\s*go (func\b|[A-Za-z_][A-Za-z0-9_.]*\()`)
	found := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "docs" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if goStmt.Match(b) {
			found++
			dir, _ := filepath.Rel("..", filepath.Dir(path))
			if !covered(filepath.ToSlash(dir)) {
				t.Errorf("%s starts a goroutine, but its package ./%s is not in the Makefile's RACE", path, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no goroutine found anywhere: the scan is broken")
	}
}
