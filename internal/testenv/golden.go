package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"playtest/internal/buildinfo"
)

// Golden compares got with the file testdata/name, after rewriting the file
// with got when update is set (the packages' -update flag).
func Golden(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	// Report footers name the build (playtest version): golden files hold
	// a placeholder, so they do not change with the toolchain or commit.
	got = bytes.ReplaceAll(got, []byte(buildinfo.Get().Short()), []byte("playtest BUILD"))
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update accepts it):\n%s\nwant:\n%s", name, got, want)
	}
}
