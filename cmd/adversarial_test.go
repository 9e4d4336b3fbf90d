package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
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
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd, stderr := start(t, nil, "run", "size3", "--games", "4", "--workers", "2", "--out", dir,
				"--set", "players.0.iterations=10000000", "--set", "players.1.iterations=10000000")
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
			if b, _ := os.ReadFile(filepath.Join(dir, "games.jsonl")); len(b) != 0 {
				t.Errorf("a game cut short was saved:\n%s", b)
			}
		})
	}
}

// TestSecondSignalQuits: the first signal cancels, the second exits at once
// with the first one's code.
func TestSecondSignalQuits(t *testing.T) {
	exited := make(chan int, 1)
	exitNow = func(code int) { exited <- code }
	defer func() { exitNow = os.Exit }()
	var stderr bytes.Buffer
	ctx, signalled, stop := watchSignals(&stderr)
	defer stop()
	_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the first SIGINT did not cancel")
	}
	if signalled() != syscall.SIGINT {
		t.Errorf("signalled %v", signalled())
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case code := <-exited:
		if code != 130 {
			t.Errorf("exit %d after SIGINT then SIGTERM, want 130", code)
		}
	case <-time.After(time.Minute):
		t.Fatal("the second signal did not exit")
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
