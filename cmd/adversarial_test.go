package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"playtest/runs/runlog"
	"playtest/variants"

	"playtest/internal/testenv"
)

// The adversarial cases of issue 16, one per defect, through the command
// line.

// start runs playtest in a subprocess (the test binary itself).
func start(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "PLAYTEST_TEST_MAIN=1"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// exitCode waits for cmd and returns its exit code.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// TestSignalsStopSearchesAndExit sends SIGINT and SIGTERM to runs whose
// every decision would take minutes: each stops at once with 130 or 143,
// keeps no game cut short, and says how to resume.
func TestSignalsStopSearchesAndExit(t *testing.T) {
	// A rules script whose every call runs near its budget: the signal
	// stops the interpreter in the middle of one (issue 53).
	slow := scriptVariant(t, t.TempDir(), "slow", "def moves(state):\n", "def moves(state):\n    for i in range(1000000):\n        pass\n")
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		code int
		args []string
	}{
		{"SIGINT", syscall.SIGINT, 130, []string{"size3", "--games", "4", "--set", "players.0.nodes=100000000", "--set", "players.1.nodes=100000000"}},
		{"SIGTERM", syscall.SIGTERM, 143, []string{"size3", "--games", "4", "--set", "players.0.nodes=100000000", "--set", "players.1.nodes=100000000"}},
		{"SIGINT in a script", syscall.SIGINT, 130, []string{slow, "--games", "1000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, stderr := start(t, nil, append(append([]string{"run"}, c.args...), "--workers", "2", "--out", dir)...)
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the run did not start in a minute")
				}
			}
			time.Sleep(300 * time.Millisecond) // into the first searches
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan int, 1)
			go func() { done <- exitCode(t, cmd) }()
			select {
			case code := <-done:
				if code != c.code {
					t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
				}
			case <-time.After(2 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("still running two minutes after %v", c.sig)
			}
			if !strings.Contains(stderr.String(), "playtest run --resume --out "+dir) {
				t.Errorf("no resume hint: %s", stderr)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "games.jsonl")); len(b) != 0 && c.name != "SIGINT in a script" {
				t.Errorf("a game cut short was saved:\n%s", b)
			}
			if strings.Contains(stderr.String(), "rules script") {
				t.Errorf("the signal was taken for the script's failure: %s", stderr)
			}
		})
	}
}

// TestPanicIsAnInternalError: a bug exits 70 with one line naming where the
// stack trace is, not a trace on stderr with exit 2.
func TestPanicIsAnInternalError(t *testing.T) {
	buildRoot = func() *cobra.Command {
		root := NewRootCommand()
		root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
			var m map[string]int
			m["x"]++ // a nil map: a runtime panic
			return nil
		}})
		return root
	}
	defer func() { buildRoot = NewRootCommand }()
	t.Setenv("TMPDIR", t.TempDir())
	code, _, stderr := run(t, "boom")
	if code != ExitInternal || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || strings.Contains(stderr, "goroutine ") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	_, file, ok := strings.Cut(stderr, "stack trace in ")
	file, _, _ = strings.Cut(file, ";")
	trace, err := os.ReadFile(file)
	if !ok || err != nil || !bytes.Contains(trace, []byte("assignment to entry in nil map")) || !bytes.Contains(trace, []byte("goroutine ")) {
		t.Errorf("no stack trace in %q: %v", file, err)
	}
	t.Setenv(TraceEnv, "1")
	if code, _, stderr := run(t, "boom"); code != ExitInternal || !strings.Contains(stderr, "goroutine ") {
		t.Errorf("%s=1: exit %d, no trace on stderr", TraceEnv, code)
	}
}

// randomRun is a quick run of random bots.
// reportedRun makes a small finished run with its reports; randomRun the
// same without them, for the cases that damage only its log or manifest
// (drawing the plots is most of a small run's time under -race).
var (
	reportedRun = []string{"run", "size3", "--games", "12", "--seed", "7", "--set", "players.0=random", "--set", "players.1=random", "--quiet"}
	randomRun   = append(slices.Clip(reportedRun), "--no-reports")
)

// mustRun runs playtest and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return out
}

// editFile applies edit to a file's text.
func editFile(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeLines writes path: head, then n lines from format with 0 to n-1
// (head alone for n = 0).
func writeLines(t *testing.T, path, head string, n int, format string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// unfinish turns a finished run directory into one killed while writing
// its reports: the manifest not yet marked finished.
func unfinish(t *testing.T, dir string) {
	editFile(t, filepath.Join(dir, "manifest.json"), func(s string) string {
		return strings.Replace(s, `"finished": true`, `"finished": false`, 1)
	})
}

// TestAdversarialInputs replays the adversarial pass of issue 16 through
// the command line: each bad input gets exit 2 (or 1) and one line naming
// what is wrong, never a panic, and nothing half-written.
func TestAdversarialInputs(t *testing.T) {
	testenv.SkipUnderRace(t)
	for _, c := range []struct {
		name string
		// setup prepares dir and returns the command to run.
		setup func(t *testing.T, dir string) []string
		env   []string
		code  int
		want  string
		// after checks dir afterwards.
		after func(t *testing.T, dir string)
	}{
		{
			name: "16.1 impossible winner in the log",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				editFile(t, filepath.Join(dir, "games.jsonl"), func(s string) string {
					lines := strings.SplitAfter(s, "\n")
					lines[2] = strings.Replace(lines[2], `"winner":`, `"winner":5,"x":`, 1)
					return strings.Join(lines, "")
				})
				return []string{"run", "--resume", "--out", dir}
			},
			code: ExitBadInput, want: "games.jsonl line 3: game 2: winner 5 is neither a seat",
		},
		{
			name: "16.3 an empty shard merges to nothing",
			setup: func(t *testing.T, dir string) []string {
				for i := range 2 {
					mustRun(t, "run", "size3", "--games", "2", "--set", "players.0=random", "--set", "players.1=random", "--quiet",
						"--shard", fmt.Sprintf("%d/2", i), "--out", filepath.Join(dir, fmt.Sprint(i)))
				}
				return []string{"merge", filepath.Join(dir, "0"), filepath.Join(dir, "1"), "--out", filepath.Join(dir, "all")}
			},
			code: 0, want: "2 games",
		},
		{
			name: "16.4 merge over an unfinished run",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", filepath.Join(dir, "shard"))...)
				mustRun(t, append(randomRun, "--out", filepath.Join(dir, "busy"))...)
				unfinish(t, filepath.Join(dir, "busy"))
				return []string{"merge", filepath.Join(dir, "shard"), "--out", filepath.Join(dir, "busy")}
			},
			code: ExitBadInput, want: "holds an unfinished run",
		},
		{
			name: "16.5 merge into a link to its shard",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", filepath.Join(dir, "shard"))...)
				if err := os.Symlink(filepath.Join(dir, "shard"), filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
				return []string{"merge", filepath.Join(dir, "shard"), "--out", filepath.Join(dir, "link")}
			},
			code: ExitBadInput, want: "would destroy the shard",
			after: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "shard", "games.jsonl")); err != nil {
					t.Error("the shard lost its log")
				}
			},
		},
		{
			name: "16.6 a second writer",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				unlock, err := runlogLock(dir)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(unlock)
				return []string{"run", "--resume", "--out", dir}
			},
			code: ExitBadInput, want: fmt.Sprintf("is in use by process %d", os.Getpid()),
		},
		{
			name: "16.7 a manifest from another run",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				other := filepath.Join(t.TempDir(), "other")
				mustRun(t, append(append([]string{}, randomRun...), "--seed", "8", "--out", other)...)
				b, _ := os.ReadFile(filepath.Join(other, "manifest.json"))
				writeLines(t, filepath.Join(dir, "manifest.json"), string(b), 0, "")
				return []string{"run", "--resume", "--out", dir}
			},
			code: ExitBadInput, want: "come from different runs",
		},
		{
			name: "16.8 search trees larger than the machine",
			setup: func(t *testing.T, dir string) []string {
				return []string{"run", "--games", "2", "--set", "players.0={bot: mcts, iterations: 10000000}", "--out", filepath.Join(dir, "out")}
			},
			env:  []string{"PLAYTEST_MEMORY_MB=512"},
			code: ExitBadInput, want: "lower players.N.tree_mb or the iterations",
			after: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
					t.Error("the refused run created its directory")
				}
			},
		},
		{
			name: "16.8 a book bot's search tree larger than the machine",
			setup: func(t *testing.T, dir string) []string {
				return []string{"run", "--games", "2", "--set", "book=2", "--set", "book_bot={bot: mcts, iterations: 10000000}", "--out", filepath.Join(dir, "out")}
			},
			env:  []string{"PLAYTEST_MEMORY_MB=512"},
			code: ExitBadInput, want: "book_bot mcts up to",
			after: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
					t.Error("the refused run created its directory")
				}
			},
		},
		{
			name: "31.11 solve --max-states past the machine's memory",
			setup: func(*testing.T, string) []string {
				return []string{"solve", "stacktics/size2", "--max-states", "1000000000000"}
			},
			env:  []string{"PLAYTEST_MEMORY_MB=1024"},
			code: ExitBadInput, want: "lower --max-states to at most",
		},
		{
			name:  "31.11 solve's default bounded by the machine's memory",
			setup: func(*testing.T, string) []string { return []string{"solve", "stacktics/size2", "--quiet"} },
			env:   []string{"PLAYTEST_MEMORY_MB=64"},
			code:  ExitBadInput, want: "as many as fit in the 48 MiB playtest may use",
		},
		{
			name: "31.11 a sweep of 2^20 variants past the machine's memory",
			setup: func(t *testing.T, dir string) []string {
				path := writeLines(t, filepath.Join(dir, "huge.yaml"), "name: huge\nbase: stacktics/size3\naxes:\n",
					20, "  - {name: a%d, key: rules.pie_rule, values: [true, false]}\n")
				return []string{"sweep", path, "--max-variants", "100000000"}
			},
			env:  []string{"PLAYTEST_MEMORY_MB=8000"},
			code: ExitBadInput, want: "the sweep's 1,048,576 variants may take 28 GiB",
		},
		{
			name: "16.8 a sweep of 2^30 variants",
			setup: func(t *testing.T, dir string) []string {
				path := writeLines(t, filepath.Join(dir, "huge.yaml"), "name: huge\nbase: stacktics/size3\naxes:\n",
					30, "  - {name: a%d, key: rules.pie_rule, values: [true, false]}\n")
				return []string{"sweep", path}
			},
			code: ExitBadInput, want: "crosses 1,073,741,824 variants (30 axes",
		},
		{
			name:  "16.10 a variant file that never ends",
			setup: func(*testing.T, string) []string { return []string{"run", "/dev/zero"} },
			code:  ExitBadInput, want: "/dev/zero: larger than 1 MiB",
		},
		{
			name: "16.10 forty thousand keys",
			setup: func(t *testing.T, dir string) []string {
				return []string{"run", writeLines(t, filepath.Join(dir, "keys.yaml"), "game: stacktics\nrules:\n", 40000, "  k%d: 1\n")}
			},
			code: ExitBadInput, want: "keys.yaml:3: rules.k0: unknown key",
		},
		{
			name: "16.10 a log linked to /dev/full",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				if err := os.Remove(filepath.Join(dir, "games.jsonl")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("/dev/full", filepath.Join(dir, "games.jsonl")); err != nil {
					t.Fatal(err)
				}
				return []string{"run", "--resume", "--out", dir}
			},
			code: ExitBadInput, want: "games.jsonl line 1: a line longer than",
		},
		{
			name: "16.11 report on an impossible game length",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				editFile(t, filepath.Join(dir, "games.csv"), func(s string) string {
					lines := strings.SplitAfter(s, "\n")
					f := strings.Split(lines[1], ",")
					f[8] = "-9223372036854775808"
					lines[1] = strings.Join(f, ",")
					return strings.Join(lines, "")
				})
				return []string{"report", dir}
			},
			code: ExitBadInput, want: "games.csv: line 2: plies -9223372036854775808 outside the summary's range",
		},
		{
			name: "31.9 report on a games.csv whose winner was flipped",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				editFile(t, filepath.Join(dir, "games.csv"), func(s string) string {
					lines := strings.SplitAfter(s, "\n")
					f := strings.Split(lines[1], ",")
					f[6] = map[string]string{"seat0": "seat1", "seat1": "seat0", "draw": "seat0"}[f[6]]
					lines[1] = strings.Join(f, ",")
					return strings.Join(lines, "")
				})
				return []string{"report", dir}
			},
			code: ExitBadInput, want: "but the summary counts",
		},
		{
			name: "31.9 report on a games.csv whose seats contradict the pairing",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(randomRun, "--out", dir)...)
				editFile(t, filepath.Join(dir, "games.csv"), func(s string) string {
					lines := strings.SplitAfter(s, "\n")
					lines[1] = strings.Replace(lines[1], ",false,", ",true,", 1)
					return strings.Join(lines, "")
				})
				return []string{"report", dir}
			},
			code: ExitBadInput, want: "but the run plays it with seed",
		},
		{
			name: "16.13 killed while writing the reports",
			setup: func(t *testing.T, dir string) []string {
				mustRun(t, append(reportedRun, "--out", dir)...)
				unfinish(t, dir)
				writeLines(t, filepath.Join(dir, ".summary.json.123456"), "{", 0, "")
				writeLines(t, filepath.Join(dir, "plots", ".length.svg.987"), "<", 0, "")
				if code, _, errOut := run(t, append(randomRun, "--out", dir)...); code != ExitBadInput || !strings.Contains(errOut, "unfinished") {
					t.Errorf("a new run over it: exit %d, %s", code, errOut)
				}
				return []string{"run", "--resume", "--out", dir}
			},
			code: 0, want: "12 games",
			after: func(t *testing.T, dir string) {
				for _, f := range []string{".summary.json.123456", "plots/.length.svg.987"} {
					if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
						t.Errorf("%s left behind", f)
					}
				}
				if b, _ := os.ReadFile(filepath.Join(dir, "manifest.json")); !bytes.Contains(b, []byte(`"finished": true`)) {
					t.Errorf("the resumed run is not marked finished:\n%s", b)
				}
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := c.setup(t, dir)
			for _, kv := range c.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			code, out, errOut := run(t, args...)
			text := out + errOut
			if code != c.code || !strings.Contains(text, c.want) {
				t.Errorf("%v: exit %d, want %d and %q:\n%s", args, code, c.code, c.want, text)
			}
			if code != 0 && !oneMessage(errOut) {
				t.Errorf("not one line (or one list of a variant's problems):\n%s", errOut)
			}
			if c.after != nil {
				c.after(t, dir)
			}
		})
	}
}

// oneMessage reports whether stderr holds one error: one line, or a
// variant's list of problems (a header line, then at most
// variants.MaxListed indented lines and a line counting the rest), and no
// stack trace.
func oneMessage(errOut string) bool {
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if strings.Contains(errOut, "goroutine ") {
		return false
	}
	if len(lines) == 1 {
		return true
	}
	if !strings.HasSuffix(lines[0], " problems:") || len(lines) > variants.MaxListed+2 {
		return false
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "  ") {
			return false
		}
	}
	return true
}

// TestDiskFull fills the disk under a run (a file size limit): it stops at
// the first failed write with exit 1, says how to resume, and the resumed
// run ends as an uninterrupted one.
func TestDiskFull(t *testing.T) {
	testenv.SkipUnderRace(t)
	whole := t.TempDir()
	mustRun(t, append(randomRun, "--out", whole)...)
	dir := t.TempDir()
	cmd, stderr := start(t, []string{"PLAYTEST_TEST_FSIZE=3000"}, append(randomRun, "--out", dir)...)
	if code := exitCode(t, cmd); code != ExitFailure || !strings.Contains(stderr.String(), "continue with playtest run --resume --out "+dir) ||
		strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
		t.Fatalf("exit %d, want 1 with one line:\n%s", code, stderr)
	}
	mustRun(t, "run", "--resume", "--out", dir)
	if summaryFile(t, whole) != summaryFile(t, dir) {
		t.Error("the resumed summary differs from an uninterrupted run's")
	}
	// A full disk in report and merge is a failure (exit 1), not bad
	// input (issue 31).
	for _, args := range [][]string{{"report", whole}, {"merge", whole, "--out", filepath.Join(t.TempDir(), "merged")}} {
		cmd, stderr := start(t, []string{"PLAYTEST_TEST_FSIZE=3000"}, args...)
		if code := exitCode(t, cmd); code != ExitFailure {
			t.Errorf("%s on a full disk: exit %d, want 1: %s", args[0], code, stderr)
		}
	}
}

// runlogLock takes a run directory's writer lock, as another process would.
var runlogLock = runlog.Lock

// TestCheckIssue31: a bound on a metric the game reports but no game of
// the run measured is inconclusive (exit 3, with the JUnit written), not
// bad input; an output that cannot be written is bad input before any
// game is played.
func TestCheckIssue31(t *testing.T) {
	dir := t.TempDir()
	junit := filepath.Join(dir, "check.xml")
	// Without the pie rule no game can measure the pie's metric.
	code, out, errOut := run(t, "check", "stacktics/size2-nopie", "--games", "4", "--junit", junit, "--quiet", "--set", "expect=[{metric: pie.swap, max: 0.9}]")
	if code != 3 || !strings.Contains(out, "no game measured it") {
		t.Errorf("a metric without a sample: exit %d\n%s%s", code, out, errOut)
	}
	if b, err := os.ReadFile(junit); err != nil || !strings.Contains(string(b), "no game measured it") {
		t.Errorf("junit: %v\n%s", err, b)
	}
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, nil, 0o644)
	for _, args := range [][]string{
		{"--junit", filepath.Join(dir, "missing", "x.xml")},
		{"--junit", filepath.Join(file, "x.xml")},
		{"--junit", dir},
		{"--markdown", filepath.Join(dir, "missing", "x.md")},
		{"--out", filepath.Join(file, "out")},
	} {
		out := filepath.Join(dir, "run")
		all := append([]string{"check", "capstone", "--quiet"}, args...)
		if args[0] != "--out" {
			all = append(all, "--out", out)
		}
		code, _, errOut := run(t, all...)
		if code != 2 || !strings.Contains(errOut, args[0]+" ") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
		if _, err := os.Stat(filepath.Join(out, runlog.GamesFile)); err == nil {
			t.Errorf("%v: games were played", args)
		}
	}
}

// TestSignalStopsEveryCommand (issue 31): the first SIGINT stops commands
// that are not runs, in the middle of their longest work (an exact solve,
// a deep perft, a replay and a game against searches of ten million
// iterations, a game waiting for the person): exit 130, a short message,
// and none of them promises a resume it cannot give. The time each takes
// is measured by scripts/signal-table, not here.
func TestSignalStopsEveryCommand(t *testing.T) {
	huge := []string{"--set", "players.0.nodes=100000000", "--set", "players.1.nodes=100000000"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"solve", []string{"solve", "stacktics/size2"}, "interrupted; nothing was written"},
		{"solve --depth", []string{"solve", "stacktics/size2", "--depth", "12"}, "interrupted; nothing was written"},
		{"solve --search", []string{"solve", "connect4/standard", "--search"}, "interrupted; nothing was written"},
		{"perft", []string{"perft", "stacktics/size4", "--depth", "12"}, "interrupted while counting depth"},
		{"replay", append([]string{"replay", "stacktics/size3", "--game", "1"}, huge...), "interrupted; nothing was written"},
		{"play against a search", []string{"play", "stacktics/size3", "--seat", "1", "--bot", "{bot: mcts, iterations: 10000000}"}, "interrupted; the game was left unfinished"},
		{"play waiting for input", []string{"play", "stacktics/size3", "--seat", "0", "--bot", "random"}, "interrupted; the game was left unfinished"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A signal that comes before playtest watches for it kills
			// the process (on a loaded machine start-up can be slow): try
			// again, waiting longer. A command that ignores the signal
			// fails by the minute's timeout.
			for wait := 200 * time.Millisecond; ; wait *= 4 {
				code, stderr, early := interruptAfter(t, c.args, wait)
				if early && wait < 30*time.Second {
					continue
				}
				if code != 130 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "--resume") {
					t.Errorf("exit %d: %s", code, stderr)
				}
				return
			}
		})
	}
}

// TestInterruptedWorthLeavesNothing (issue 53): an interrupted worth says
// it was interrupted (not "context canceled") and removes the --out
// directory it made, still empty. The process signals itself once the
// directory is there (interruptEnv): in the middle of the study, at no
// cost of waiting.
func TestInterruptedWorthLeavesNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "new", "out")
	p, stderr := start(t, []string{interruptEnv + "=" + out}, "worth", "stacktics-size2-mechanics", "--out", out, "--quiet")
	if code := exitCode(t, p); code != 130 || !strings.Contains(stderr.String(), "interrupted; nothing was written") || strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "interrupt: stopping") {
		t.Errorf("the signal did not come while worth ran:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Dir(out)); !os.IsNotExist(err) {
		t.Errorf("the directories made for --out were left behind (%v)", err)
	}
}

// interruptEnv, set to a GLOB in a subprocess's environment, makes it
// send itself SIGINT once GLOB matches a file or directory.
const interruptEnv = "PLAYTEST_TEST_INTERRUPT_AT"

// interruptWhenThere watches, every millisecond, for glob's match, and
// then sends the process SIGINT, once.
func interruptWhenThere(glob string) {
	for range time.Tick(time.Millisecond) {
		if m, _ := filepath.Glob(glob); len(m) > 0 {
			_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
			return
		}
	}
}

// interruptAfter starts playtest with args (its stdin left open), sends SIGINT
// after wait, and returns the exit code and stderr; early says the signal
// killed the process before playtest watched for it.
func interruptAfter(t *testing.T, args []string, wait time.Duration) (code int, stderr string, early bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PLAYTEST_TEST_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdin, err := cmd.StdinPipe() // stays open: play waits for input
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(wait)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("still running a minute after SIGINT: %s", errb.String())
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, errb.String(), true
	}
	return cmd.ProcessState.ExitCode(), errb.String(), false
}

// TestNoSavedRunLost (issue 53): a run into a directory that holds a
// finished run is refused without --force (a CI baseline would be lost);
// a learning run into a run's directory is refused without --force, which
// removes the run's files first; a run into a study's directory is
// refused.
func TestNoSavedRunLost(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "baseline")
	small := []string{"stacktics/size2", "--games", "4", "--quiet", "--set", "players=[random, random]"}
	if code, _, errOut := run(t, append(append([]string{"run"}, small...), "--out", dir)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	code, _, errOut := run(t, append(append([]string{"run"}, small...), "--out", dir, "--seed", "9")...)
	if after, _ := os.ReadFile(filepath.Join(dir, "summary.json")); code != ExitBadInput || !strings.Contains(errOut, "holds a finished run") || !strings.Contains(errOut, "--force") || !bytes.Equal(before, after) {
		t.Errorf("a second run into a finished one: exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, append(append([]string{"run"}, small...), "--out", dir, "--seed", "9", "--force")...); code != 0 {
		t.Errorf("--force: exit %d: %s", code, errOut)
	}
	code, _, errOut = run(t, "learn", "stacktics/size2", "--games", "40", "--quiet", "--out", dir)
	if _, err := os.Stat(filepath.Join(dir, "learn-state.json")); code != ExitBadInput || !strings.Contains(errOut, "holds a run") || !strings.Contains(errOut, "--force") || err == nil {
		t.Errorf("learn into a run's directory: exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, "learn", "stacktics/size2", "--games", "40", "--quiet", "--out", dir, "--force"); code != 0 {
		t.Fatalf("learn --force: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.jsonl")); !os.IsNotExist(err) {
		t.Errorf("learn --force left the run's games beside its own (%v)", err)
	}
	if code, _, errOut := run(t, append(append([]string{"run"}, small...), "--out", dir, "--force")...); code != ExitBadInput || !strings.Contains(errOut, "holds a study") {
		t.Errorf("a run into a study's directory: exit %d: %s", code, errOut)
	}
}

// TestPresetBotsCopiedIntoAFile (issue 53): a preset's bots copied into a
// file with model: preset are refused naming the shipped models
// (preset:GAME/PRESET) and eval: hand; such a name loads; and players that
// play one model of other rules get one model-rules warning, which says
// when only a network's logistic base judges (size 3's network on size 2).
func TestPresetBotsCopiedIntoAFile(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel()
	dir := t.TempDir()
	variant := filepath.Join(dir, "copy.yaml")
	write := func(model string) {
		text := "game: stacktics\nrules: {size: 2}\nplayers:\n  - {bot: alphabeta, nodes: 100, eval: learned, model: " + model + "}\n  - {bot: alphabeta, nodes: 100, eval: learned, model: " + model + "}\ngames: 4\n"
		if err := os.WriteFile(variant, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("preset")
	code, _, errOut := run(t, "run", variant, "--quiet")
	if code != ExitBadInput || !strings.Contains(errOut, "preset:stacktics/size2") || !strings.Contains(errOut, "eval: hand") {
		t.Errorf("model: preset outside a preset: exit %d: %s", code, errOut)
	}
	write(`"preset:stacktics/size2"`)
	code, out, errOut := run(t, "run", variant, "--quiet")
	if code != 0 || !strings.Contains(out, "model preset:stacktics/size2 sha256:") {
		t.Errorf("model: preset:stacktics/size2: exit %d: %s%s", code, out, errOut)
	}
	write(`"preset:stacktics/size3"`)
	code, out, errOut = run(t, "run", variant, "--quiet")
	if n := strings.Count(out+errOut, "model learned under other rules"); code != 0 || n != 1 || !strings.Contains(out+errOut, "players 0 and 1 play") {
		t.Errorf("two players of one model of other rules: exit %d, %d warnings: %s%s", code, n, out, errOut)
	}
	// size 3's model is a network of a 5 × 5 board: on size 2's 4 × 4 its
	// logistic base judges alone, and the warning says so.
	if !strings.Contains(out+errOut, "and only its logistic base: its ntuple network reads another board") {
		t.Errorf("a network on another board: no word of its base playing alone: %s%s", out, errOut)
	}
}

// TestSmallerMessages (issue 53): a misspelt short preset name gets a
// did-you-mean; replay of a path that is nothing says what replay reads
// rather than listing every preset.
func TestSmallerMessages(t *testing.T) {
	if code, _, errOut := run(t, "run", "size22"); code != ExitBadInput || !strings.Contains(errOut, `did you mean preset "stacktics/size2"?`) {
		t.Errorf("run size22: exit %d: %s", code, errOut)
	}
	code, _, errOut := run(t, "replay", filepath.Join(t.TempDir(), "no-such-dir"), "--game", "1")
	if code != ExitBadInput || !strings.Contains(errOut, "no such run directory, file or preset") || strings.Contains(errOut, "stacktics/size5-7x7") {
		t.Errorf("replay no-such-dir: exit %d: %s", code, errOut)
	}
}
