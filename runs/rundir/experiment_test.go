package rundir

import (
	"context"
	"errors"
	"strings"
	"testing"

	"playtest/games"
	"playtest/sim"
	"playtest/variants"
)

func load(t testing.TB, sets ...string) *variants.Config {
	t.Helper()
	overrides, err := variants.ParseSets(sets)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := variants.Load("stacktics/size2", overrides)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestRun(t *testing.T) {
	cfg := load(t, "games=40", "players.0=greedy", "players.1=greedy")
	seen := 0
	s, err := Run(context.Background(), cfg, Options{Workers: 2, OnRecord: func(r *sim.Record) {
		if r.Index != seen {
			t.Errorf("record %d seen at %d", r.Index, seen)
		}
		seen++
	}})
	if err != nil || seen != 40 {
		t.Fatal(err)
	}
	if s.Games != 40 || s.Game != "stacktics" || s.Variant != "stacktics/size2" || s.ConfigHash != cfg.Hash() {
		t.Errorf("summary %+v", s)
	}
	if len(s.Sides) != 2 || s.Timing.Workers != 2 {
		t.Errorf("sides %v, timing %+v", s.Sides, s.Timing)
	}
	// The pie rule is on in size 2: every game reports the swap choice.
	found := false
	for _, m := range s.Metrics {
		if m.Name == "pie.swap" && m.Rate.N == 40 {
			found = true
		}
	}
	if !found {
		t.Errorf("metrics %+v lack pie.swap over 40 games", s.Metrics)
	}
}

func TestRunCancelled(t *testing.T) {
	cfg := load(t, "games=100000")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := Run(ctx, cfg, Options{Workers: 2})
	if !errors.Is(err, context.Canceled) || s == nil || s.Games >= 100000 {
		t.Fatalf("err %v, summary %v", err, s)
	}
}

// TestEveryMetricIsExplained plays a few random games of every preset and
// checks that the game's glossary explains each figure they report, so
// tables and reports never show an unexplained metric.
func TestEveryMetricIsExplained(t *testing.T) {
	for _, name := range variants.Presets() {
		cfg, err := variants.Load(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Probe(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Metrics {
			if m.Doc == "" || m.Doc != cfg.Definition.Describe(m.Name) {
				t.Errorf("%s: metric %s has no glossary line", name, m.Name)
			}
			if games.SeatOfMetric(m.Name) >= 0 && strings.Contains(m.Doc, "seat N") {
				t.Errorf("%s: %s: %q does not name its seat", name, m.Name, m.Doc)
			}
		}
	}
}
