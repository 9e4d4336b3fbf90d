package experiment

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playtest/internal/testenv"
	"playtest/reports"
	"playtest/reports/publish"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestRunToDirGolden runs a small seeded variant to a directory and
// compares report.md and the terminal table with golden files: both hold
// nothing that depends on the clock or the worker count.
func TestRunToDirGolden(t *testing.T) {
	dir := t.TempDir()
	cfg := load(t, "games=20", "seed=3", "players.0=greedy", "players.1={bot: mcts, iterations: 50, rollout_cap: 6, eval_scale: 6}")
	s, err := RunToDir(context.Background(), cfg, Options{Workers: 2}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary.json", "games.csv", "report.md", "report.html",
		"plots/outcomes.svg", "plots/outcomes.png", "plots/length.svg", "plots/length.png"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "report.golden.md", md, *update)
	var table bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "table.golden", table.Bytes(), *update)

	// playtest report DIR: the same report from the saved files alone.
	if err := os.Remove(filepath.Join(dir, "report.md")); err != nil {
		t.Fatal(err)
	}
	if err := publish.Write(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !bytes.Equal(again, md) {
		t.Error("the rebuilt report.md differs")
	}
	rows := 0
	f, _ := os.Open(filepath.Join(dir, "games.csv"))
	defer f.Close()
	if err := reports.ReadGames(f, func(*reports.GameRow) error { rows++; return nil }); err != nil || rows != 20 {
		t.Errorf("games.csv: %d rows, %v", rows, err)
	}
}

// TestReportEscapes puts markup in the variant's name and checks that no
// report carries it raw.
func TestReportEscapes(t *testing.T) {
	dir := t.TempDir()
	cfg := load(t, "games=4", "players.0=greedy", "players.1=greedy", `name=<script>alert("x")</script> | *bold*`)
	if _, err := RunToDir(context.Background(), cfg, Options{Workers: 1}, dir); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if strings.Contains(string(html), "<script>") || !strings.Contains(string(html), "&lt;script&gt;") {
		t.Error("report.html carries the variant name unescaped")
	}
	if strings.Contains(string(md), "<script>") || strings.Contains(string(md), "| *bold*") {
		t.Errorf("report.md carries the variant name unescaped:\n%s", md)
	}
}

// TestRunToDirCancelled checks that an interrupted run leaves no result
// file behind.
func TestRunToDirCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunToDir(ctx, load(t, "games=50"), Options{Workers: 1}, dir); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("a cancelled run left %v", entries)
	}
}
