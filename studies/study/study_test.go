package study

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/runs/runlog"
)

func manifest(t *testing.T, shard runlog.Shard) *Manifest {
	t.Helper()
	units := []Unit{{Name: "a", Dir: "variants/01-a", ConfigHash: "sha256:01"}, {Name: "b", Dir: "variants/02-b", ConfigHash: "sha256:02"}}
	m, err := New("sweep", "s", "playtest sweep s", shard, units, map[string]int{"games": 10})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReadRefusesDamagedManifests: a study.json that cannot describe a
// study (another schema, no units, a shard out of range, a unit directory
// outside the study or shared by two units) is refused as bad input, and
// a good one reads back as written.
func TestReadRefusesDamagedManifests(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*Manifest)
		want   string
	}{
		{"good", func(*Manifest) {}, ""},
		{"schema", func(m *Manifest) { m.Schema = "playtest/study/v0" }, "schema"},
		{"no kind", func(m *Manifest) { m.Kind = "" }, "no kind"},
		{"no units", func(m *Manifest) { m.Units = nil }, "no units"},
		{"shard", func(m *Manifest) { m.Shard = runlog.Shard{Index: 4, Count: 4} }, "shard 4 of 4"},
		{"outside", func(m *Manifest) { m.Units[1].Dir = "../elsewhere" }, "is not inside the study's"},
		{"absolute", func(m *Manifest) { m.Units[1].Dir = "/tmp/x" }, "is not inside the study's"},
		{"the study's own", func(m *Manifest) { m.Units[1].Dir = "./" }, "is not inside the study's"},
		{"shared", func(m *Manifest) { m.Units[1].Dir = "variants/01-a/" }, "is not apart from"},
		{"nested", func(m *Manifest) { m.Units[1].Dir = "variants/01-a/b" }, "is not apart from"},
	} {
		dir := t.TempDir()
		m := manifest(t, runlog.Shard{Index: 1, Count: 4})
		c.change(m)
		if err := m.Write(dir); err != nil {
			t.Fatal(err)
		}
		got, err := Read(dir)
		switch {
		case c.want == "" && (err != nil || got.Identity() != m.Identity() || got.Shard != m.Shard):
			t.Errorf("%s: %v", c.name, err)
		case c.want != "":
			var se *Error
			if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want a study.Error naming %q", c.name, err, c.want)
			}
		}
	}
	if _, err := Read(t.TempDir()); !errors.Is(err, ErrNoManifest) {
		t.Errorf("an empty directory: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{"), 0o644)
	if _, err := Read(dir); err == nil {
		t.Error("a torn manifest was read")
	}
}

// TestIdentity: every shard of a study has the study's identity; another
// design or another unit's variant makes another study.
func TestIdentity(t *testing.T) {
	a, b := manifest(t, runlog.Shard{}), manifest(t, runlog.Shard{Index: 2, Count: 3})
	if a.Identity() != b.Identity() {
		t.Error("two shards of one study differ")
	}
	b.Units[0].ConfigHash = "sha256:03"
	if a.Identity() == b.Identity() {
		t.Error("another unit's variant, the same study")
	}
	c := manifest(t, runlog.Shard{})
	c.Design, _ = json.Marshal(map[string]int{"games": 11})
	if a.Identity() == c.Identity() {
		t.Error("another design, the same study")
	}
}

// TestBegin: a fresh start refuses a directory with an unfinished study
// and takes one with a finished study; a resume needs the same study and
// shard.
func TestBegin(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, runlog.Shard{})
	if _, err := Begin(dir, m, true); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
		t.Errorf("a resume of nothing: %v", err)
	}
	if _, err := Begin(dir, m, false); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(dir, manifest(t, runlog.Shard{}), false); err == nil || !strings.Contains(err.Error(), "holds an unfinished sweep") {
		t.Errorf("a fresh start over an unfinished study: %v", err)
	}
	if _, err := Begin(dir, manifest(t, runlog.Shard{Index: 0, Count: 2}), true); err == nil || !strings.Contains(err.Error(), "holds the whole run of sweep \"s\", not shard 0 of 2") {
		t.Errorf("a resume of another shard: %v", err)
	}
	if got, err := Begin(dir, manifest(t, runlog.Shard{}), true); err != nil || got.Finished {
		t.Errorf("a resume: %v", err)
	}
	if err := Finish(dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(dir, manifest(t, runlog.Shard{}), false); err != nil {
		t.Errorf("a fresh start over a finished study: %v", err)
	}
}

// TestNoManifestIsBadInput: resuming a directory that holds no study is
// the user's mistake (exit 2), and still ErrNoManifest.
func TestNoManifestIsBadInput(t *testing.T) {
	_, err := Read(t.TempDir())
	var bi interface{ BadInput() bool }
	if !errors.Is(err, ErrNoManifest) || !errors.As(err, &bi) || !bi.BadInput() {
		t.Errorf("%v", err)
	}
}

// TestGrowRefuses: growing a study of another kind than asked, or a
// shard's directory, is refused before anything is read or written.
func TestGrowRefuses(t *testing.T) {
	dir := t.TempDir()
	redesign := func(json.RawMessage) (any, error) { t.Error("redesigned"); return nil, nil }
	if _, err := Grow(dir, manifest(t, runlog.Shard{}), "skill", 20, redesign); err == nil || !strings.Contains(err.Error(), "holds a sweep, not a skill") {
		t.Errorf("another kind: %v", err)
	}
	if _, err := Grow(dir, manifest(t, runlog.Shard{Index: 1, Count: 2}), "sweep", 20, redesign); err == nil || !strings.Contains(err.Error(), "merge the shards first") {
		t.Errorf("a shard: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); !os.IsNotExist(err) {
		t.Errorf("a refused growth wrote %s", ManifestFile)
	}
}
