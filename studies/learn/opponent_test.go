package learn

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"playtest/variants"
)

// TestFitOpponent: on Capstone a seat's pieces tell of its goal, so the
// fitted strength is above 0 and the held-out true goals are likelier
// under it than under the prior, with more evidence than the prior's
// goals; the fit is the same at 1 and 2 workers; a game that hides
// nothing (Stacktics) is refused, naming why.
func TestFitOpponent(t *testing.T) {
	cfg, err := variants.Load("capstone/threestone", []variants.Override{{Path: "players.0", Value: "{bot: greedy}"}, {Path: "players.1", Value: "{bot: greedy}"}})
	if err != nil {
		t.Fatal(err)
	}
	var fits []*OpponentModel
	for _, workers := range []int{1, 2} {
		m, err := FitOpponent(context.Background(), cfg, OpponentOptions{Games: 60, Workers: workers, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		m.Seconds = 0
		fits = append(fits, m)
	}
	m := fits[0]
	if !reflect.DeepEqual(fits[0], fits[1]) {
		t.Errorf("1 worker fitted %+v, 2 workers %+v", fits[0], fits[1])
	}
	if !(m.Strength > 0 && m.Gain > 0 && m.Evidence > m.PriorEvidence && m.HeldOut > 0) {
		t.Errorf("fitted %+v: want a strength above 0, a held-out gain and more evidence for the true goals", m)
	}
	plain, err := variants.Load("stacktics/size2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FitOpponent(context.Background(), plain, OpponentOptions{Games: 10, Workers: 1}); err == nil || !strings.Contains(err.Error(), "no evidence") {
		t.Errorf("Stacktics: %v, want a refusal naming the missing evidence", err)
	}
}
