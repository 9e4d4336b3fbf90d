package rundir

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"playtest/runs/runlog"
	"playtest/sim"
)

// fuzzRun is a small finished run the resume fuzzer damages.
var fuzzRun struct {
	once          sync.Once
	manifest, log []byte
	err           error
}

// FuzzResume damages a finished run's manifest and log and resumes it
// (issue 31): the resume never panics; when it refuses, it is bad input
// (exit 2) and neither file has changed; when it goes ahead, the log it
// leaves reads back as the run's every game.
func FuzzResume(f *testing.F) {
	fuzzRun.once.Do(func() {
		dir := f.TempDir()
		cfg := load(f, "games=6", "seed=4", "players.0=random", "players.1=random")
		if _, fuzzRun.err = RunToDir(context.Background(), cfg, DirOptions{Records: runlog.RecordsFull}, dir); fuzzRun.err != nil {
			return
		}
		fuzzRun.manifest, _ = os.ReadFile(filepath.Join(dir, runlog.ManifestFile))
		fuzzRun.log, _ = os.ReadFile(filepath.Join(dir, runlog.GamesFile))
	})
	if fuzzRun.err != nil {
		f.Fatal(fuzzRun.err)
	}
	m, l := fuzzRun.manifest, fuzzRun.log
	f.Add(m, l)
	f.Add(m, l[:len(l)-7])
	f.Add(bytes.Replace(m, []byte(`"from": 0`), []byte(`"from": 2`), 1), l)
	f.Add(m, bytes.Replace(l, []byte(`"winner":0`), []byte(`"winner":1`), 1))
	f.Add(m, bytes.Replace(l, []byte("\n"), []byte("\n{\n"), 1))
	f.Fuzz(func(t *testing.T, manifest, log []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, runlog.ManifestFile), manifest, 0o644)
		os.WriteFile(filepath.Join(dir, runlog.GamesFile), log, 0o644)
		m, err := runlog.ReadManifest(dir)
		if err != nil {
			return // the command refuses it before RunToDir
		}
		cfg, err := m.Config()
		if err != nil {
			return
		}
		_, err = RunToDir(context.Background(), cfg, DirOptions{Resume: true, Records: m.Records, Shard: m.Shard}, dir)
		if err != nil {
			var bad interface{ BadInput() bool }
			if !errors.As(err, &bad) || !bad.BadInput() {
				t.Fatalf("refused, but not as bad input: %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, runlog.GamesFile)); !bytes.Equal(b, log) {
				t.Fatalf("refused (%v), but the log changed", err)
			}
			return
		}
		next, err := runlog.Scan(dir, m.From, m.To, nil, func(*sim.Record) error { return nil })
		if err != nil || next != m.To {
			t.Fatalf("after the resume the log reads to game %d of [%d, %d): %v", next, m.From, m.To, err)
		}
	})
}
