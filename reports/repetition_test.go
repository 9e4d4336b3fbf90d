package reports

import "testing"

func TestRepetitionCounter(t *testing.T) {
	var c RepetitionCounter
	if c.Summary() != nil {
		t.Error("no games, yet a count")
	}
	for _, fp := range []uint64{5, 7, 5, 5, 9} {
		c.Add(fp)
	}
	if got := *c.Summary(); got != (Repetition{Distinct: 3, MostPlayed: 3}) {
		t.Errorf("Summary = %+v", got)
	}
	if r := c.Summary(); !r.Repeated(10) || r.Repeated(3) || !r.Mostly(10) || r.Mostly(5) {
		t.Errorf("3 different games: Repeated(10) %v, Repeated(3) %v (too few games to judge), Mostly(10) %v, Mostly(5) %v", r.Repeated(10), r.Repeated(3), r.Mostly(10), r.Mostly(5))
	}
	// A game without a fingerprint (an older log) makes the count unknown.
	c.Add(0)
	if c.Summary() != nil {
		t.Error("a game without a fingerprint was counted")
	}
	// Past MaxTrackedGames the games are plainly varied: counting stops.
	var many RepetitionCounter
	for i := range MaxTrackedGames + 10 {
		many.Add(uint64(i + 1))
	}
	if r := many.Summary(); r.Distinct != MaxTrackedGames || !r.AtLeast || r.Repeated(MaxTrackedGames+10) {
		t.Errorf("many games: %+v", r)
	}
	var none *Repetition
	if none.Repeated(100) {
		t.Error("an unknown count is not repetition")
	}
}

// TestRepetitionThresholds pins the words' thresholds: "fewer than 90%
// different" warns, "fewer than half" reaches the headline.
func TestRepetitionThresholds(t *testing.T) {
	for _, c := range []struct {
		distinct         int
		repeated, mostly bool
	}{{90, false, false}, {89, true, false}, {50, true, false}, {49, true, true}} {
		r := &Repetition{Distinct: c.distinct, MostPlayed: 2}
		if r.Repeated(100) != c.repeated || r.Mostly(100) != c.mostly {
			t.Errorf("%d different of 100: repeated %v, mostly %v; want %v, %v", c.distinct, r.Repeated(100), r.Mostly(100), c.repeated, c.mostly)
		}
	}
	if (&Repetition{Distinct: 1, MostPlayed: 9}).Repeated(9) {
		t.Error("9 games are too few to judge")
	}
}

// The repeated-games thresholds with twin pairs counted once: of 100
// games with 10 pairs of twins (90 samples), 81 different (90%) is not
// repeated and 80 is; 45 different (half) is not "mostly" and 44 is.
func TestRepetitionThresholdsWithTwins(t *testing.T) {
	for _, c := range []struct {
		distinct         int
		repeated, mostly bool
	}{{81, false, false}, {80, true, false}, {45, true, false}, {44, true, true}} {
		r := &Repetition{Distinct: c.distinct, Twins: 10, MostPlayed: 2}
		if r.Repeated(100) != c.repeated || r.Mostly(100) != c.mostly {
			t.Errorf("%d different of 90: repeated %v, mostly %v; want %v, %v", c.distinct, r.Repeated(100), r.Mostly(100), c.repeated, c.mostly)
		}
	}
	if got := (&Repetition{Distinct: 80, Twins: 10, MostPlayed: 3}).Describe(100); got != "only 80 of the 100 games were different (the most frequent was played 3 times; of 90, counting as one the two games of each of the 10 seat-swapped pairs that played one game twice)" {
		t.Errorf("describe: %s", got)
	}
}
