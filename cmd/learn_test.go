package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/internal/testenv"
)

// quickLearnBots makes learn's games quick.
var quickLearnBots = []string{"--set", "players.0={bot: alphabeta, nodes: 150, noise: 0.5, noise_moves: 10}", "--set", "players.1={bot: alphabeta, nodes: 150, noise: 0.5, noise_moves: 10}"}

// TestLearnResumeCommand keeps a learning run in --out, resumes it from
// the directory alone (the same model.json), and refuses a resume given a
// variant or a setting, a fresh start in an unfinished run's directory,
// and a budget short of one generation.
func TestLearnResumeCommand(t *testing.T) {
	testenv.SkipUnderRace(t)
	out := filepath.Join(t.TempDir(), "m")
	args := append([]string{"learn", "stacktics/size2", "--games", "40", "--quiet", "--out", out}, quickLearnBots...)
	if code, _, errOut := run(t, args...); code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errOut)
	}
	first, err := os.ReadFile(filepath.Join(out, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	unfinishStudy(t, out)
	if code, _, errOut := run(t, "learn", "--resume", "--out", out, "--quiet", "--workers", "1"); code != 0 {
		t.Fatalf("learn --resume: exit %d: %s", code, errOut)
	}
	if again, _ := os.ReadFile(filepath.Join(out, "model.json")); string(again) != string(first) {
		t.Error("the resumed run wrote another model.json")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"learn", "stacktics/size2", "--resume", "--out", out}, "it takes no"},
		{[]string{"learn", "--resume", "--out", out, "--games", "10"}, "it takes no"},
		{[]string{"learn", "--resume"}, "give --out"},
		{[]string{"learn", "--resume", "--out", t.TempDir()}, "no study.json"},
		{[]string{"learn", "stacktics/size2", "--games", "40", "--generations", "2", "--budget", "50"}, "does not cover the first generation's 80"},
		{[]string{"learn", "stacktics/size2", "--max-time", "-1s"}, "--max-time"},
	} {
		if code, _, errOut := run(t, c.args...); code != ExitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d naming %q", strings.Join(c.args, " "), code, errOut, ExitBadInput, c.want)
		}
	}
	unfinishStudy(t, out)
	if code, _, errOut := run(t, args...); code != ExitBadInput || !strings.Contains(errOut, "--resume") {
		t.Errorf("a fresh start in an unfinished run's directory: exit %d, %q", code, errOut)
	}
}
