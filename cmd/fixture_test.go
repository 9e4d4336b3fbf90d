package cmd

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixtures are the outputs of commands that many tests start from (a
// small sweep, a run with its reports): each is made once per test
// process, in fixtures.root, and copied into every test that asks for it
// (fixture), so a test pays a copy rather than the games and figures.
var fixtures struct {
	sync.Mutex
	root string
	dirs map[string]string
}

// fixture makes dst a copy of what args write to --out (args without
// --out), running them the first time they are asked for.
func fixture(t *testing.T, dst string, args ...string) {
	t.Helper()
	key := strings.Join(args, "\x00")
	fixtures.Lock()
	src, ok := fixtures.dirs[key]
	if !ok {
		if fixtures.root == "" {
			root, err := os.MkdirTemp("", "playtest-fixtures-")
			if err != nil {
				fixtures.Unlock()
				t.Fatal(err)
			}
			fixtures.root, fixtures.dirs = root, map[string]string{}
		}
		src = filepath.Join(fixtures.root, fmt.Sprintf("f%03d", len(fixtures.dirs)))
		if code, _, errOut := run(t, append(args, "--out", src)...); code != 0 {
			fixtures.Unlock()
			t.Fatalf("fixture %v: exit %d: %s", args, code, errOut)
		}
		fixtures.dirs[key] = src
	}
	fixtures.Unlock()
	copyDir(t, src, dst)
}

// removeFixtures removes the fixtures made (TestMain, after the tests).
func removeFixtures() {
	if fixtures.root != "" {
		_ = os.RemoveAll(fixtures.root)
	}
}

// copyDir copies the tree src to dst (files and directories).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
