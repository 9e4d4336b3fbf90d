package runlog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"playtest/sim"
)

// TestScanPair hands the two logs' games over pair by pair in index order,
// stops when asked (the readers of both logs end), stops at the shorter
// log, and returns the pair function's error.
func TestScanPair(t *testing.T) {
	root := t.TempDir()
	dirs := [2]string{filepath.Join(root, "a"), filepath.Join(root, "b")}
	long := make([]int, 300)
	for i := range long {
		long[i] = i
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeLog(t, dirs[0], long, "")
	writeLog(t, dirs[1], long[:200], "")
	var got int
	err := ScanPair(dirs, [2]int{300, 300}, func(ra, rb *sim.Record) (bool, error) {
		if ra.Index != got || rb.Index != got {
			t.Fatalf("pair %d: games %d and %d", got, ra.Index, rb.Index)
		}
		got++
		return false, nil
	})
	if err != nil || got != 200 {
		t.Errorf("%d pairs, %v: want the 200 of the shorter log", got, err)
	}
	got = 0
	if err := ScanPair(dirs, [2]int{300, 300}, func(*sim.Record, *sim.Record) (bool, error) { got++; return got == 7, nil }); err != nil || got != 7 {
		t.Errorf("stopped after %d pairs, %v", got, err)
	}
	boom := errors.New("boom")
	if err := ScanPair(dirs, [2]int{300, 300}, func(*sim.Record, *sim.Record) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("the pair's error: %v", err)
	}
}
