package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/internal/testenv"
)

// The adversarial cases of issue 43, one per clause, through the command
// line: nothing is written outside a study, and a study.json or
// tune-state.json edited by hand is refused with exit 2.

// cheapBots makes every variant of a command play random bots.
var cheapBots = []string{"--set", "players.0=random", "--set", "players.1=random"}

// unfinishStudy marks the study kept in dir unfinished, as if it was
// stopped, so that --resume plays it again.
func unfinishStudy(t *testing.T, dir string) {
	t.Helper()
	editFile(t, filepath.Join(dir, "study.json"), func(s string) string {
		return strings.Replace(s, `"finished": true`, `"finished": false`, 1)
	})
}

// editStudy rewrites dir's study.json through edit of its decoded JSON.
func editStudy(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "study.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err = json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// swapUnitNames swaps the names of a study's first two units.
func swapUnitNames(m map[string]any) {
	units := m["units"].([]any)
	a, b := units[0].(map[string]any), units[1].(map[string]any)
	a["name"], b["name"] = b["name"], a["name"]
}

// moveOut replaces dir/sub by a link to outside (a copy of it, so that a
// resume that follows the link finds a run to continue there).
func moveOut(t *testing.T, dir, sub, outside string) {
	t.Helper()
	if err := os.Rename(filepath.Join(dir, sub), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, sub)); err != nil {
		t.Fatal(err)
	}
}

// untouched fails the test if anything in dir changed after mark.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			files[p] = string(b)
		}
		return nil
	})
	return files
}

func TestAdversarialIssue43(t *testing.T) {
	testenv.SkipUnderRace(t)
	sweep := func(dir string) []string {
		return append([]string{"sweep", "stacktics-size2", "--games", "4", "--quiet", "--out", dir}, cheapBots...)
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string) []string
		want  string
		// outside is a directory the command must leave as it was.
		outside bool
	}{
		{
			name: "1 a sweep's unit directory is a link",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, sweep(filepath.Join(dir, "st"))...)
				unfinishStudy(t, filepath.Join(dir, "st"))
				units, _ := filepath.Glob(filepath.Join(dir, "st", "variants", "04-*"))
				moveOut(t, filepath.Join(dir, "st", "variants"), filepath.Base(units[0]), filepath.Join(dir, "outside"))
				return []string{"sweep", "--resume", "--out", filepath.Join(dir, "st"), "--quiet"}
			},
			want: "is a link", outside: true,
		},
		{
			name: "1 a sweep's variants/ is a link",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, sweep(filepath.Join(dir, "st"))...)
				unfinishStudy(t, filepath.Join(dir, "st"))
				moveOut(t, filepath.Join(dir, "st"), "variants", filepath.Join(dir, "outside"))
				return []string{"sweep", "--resume", "--out", filepath.Join(dir, "st"), "--quiet"}
			},
			want: "is a link", outside: true,
		},
		{
			name: "1 a run's plots/ is a link",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(reportedRun, "--out", filepath.Join(dir, "r"))...)
				moveOut(t, filepath.Join(dir, "r"), "plots", filepath.Join(dir, "outside"))
				return []string{"report", filepath.Join(dir, "r")}
			},
			want: "is a link", outside: true,
		},
		{
			name: "1 a run's report.md is a link",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(reportedRun, "--out", filepath.Join(dir, "r"))...)
				if err := os.MkdirAll(filepath.Join(dir, "outside"), 0o755); err != nil {
					t.Fatal(err)
				}
				moveOut(t, filepath.Join(dir, "r"), "report.md", filepath.Join(dir, "outside", "report.md"))
				return []string{"report", filepath.Join(dir, "r")}
			},
			want: "is a link", outside: true,
		},
		{
			name: "3 a sweep's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, sweep(dir)...)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"sweep", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a tournament's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, "tournament", "stacktics/size2", "--bot", "random", "--bot", "greedy", "--bot", "{bot: alphabeta, nodes: 100}", "--games", "2", "--quiet", "--out", dir)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"tournament", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a comparison's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append([]string{"compare", "size2", "size2-nopie", "--games", "4", "--quiet", "--out", dir}, cheapBots...)...)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"compare", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
		{
			name: "3 a ladder's unit names swapped",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, "skill", "stacktics/size2", "--budgets", "100,200", "--games", "2", "--quiet", "--out", dir)
				unfinishStudy(t, dir)
				editStudy(t, dir, swapUnitNames)
				return []string{"skill", "--resume", "--out", dir, "--quiet"}
			},
			want: "changed or damaged: unit 1",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := c.setup(t, dir)
			outside := filepath.Join(dir, "outside")
			before := snapshot(t, outside)
			code, _, errOut := run(t, args...)
			if code != ExitBadInput || !strings.Contains(errOut, c.want) || !oneMessage(errOut) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", args, code, errOut, ExitBadInput, c.want)
			}
			if c.outside {
				after := snapshot(t, outside)
				if len(before) == 0 || len(after) != len(before) {
					t.Errorf("outside held %d files, now %d", len(before), len(after))
				}
				for p, b := range before {
					if after[p] != b {
						t.Errorf("%s was rewritten through the link", p)
					}
				}
			}
		})
	}
}
