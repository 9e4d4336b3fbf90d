package reports

import (
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// TestBalanceIntervalsCoverOverPairs (issue 58): on a fair coin whose
// deals tie a pair's two games together (in 3 deals of 8 seat 0 wins both,
// in 3 seat 1, in 2 the same player wins both, so each seat wins one),
// seat 0 wins half the games: the
// AdvantageP1 interval over the pairs must contain ½ in about 95% of runs
// (at least 90% of 200 here), and the interval over games, which takes
// the pair's games as independent, is shown to cover less.
func TestBalanceIntervalsCoverOverPairs(t *testing.T) {
	const runs, pairs = 200, 50
	rng := pcg.New(58, 2)
	paired, unpaired := 0, 0
	for range runs {
		deal := make([][2]games.Player, pairs)
		for k := range deal {
			switch rng.IntN(8) {
			case 0, 1, 2: // seat 0 wins both
				deal[k] = [2]games.Player{games.Seat0, games.Seat0}
			case 3, 4, 5: // seat 1 wins both
				deal[k] = [2]games.Player{games.Seat1, games.Seat1}
			default: // one player wins both: each seat once
				deal[k] = [2]games.Player{games.Seat0, games.Seat1}
			}
		}
		s := pairedRun(pairs, mcts, func(k int) [2]games.Player { return deal[k] }, nil)
		if a := s.Balance.AdvantageP1; a.Low <= 0.5 && 0.5 <= a.High {
			paired++
		}
		if r := NewRate(s.Outcomes.Seat0, s.Games); r.Low <= 0.5 && 0.5 <= r.High {
			unpaired++
		}
	}
	t.Logf("AdvantageP1 contains ½ in %d of %d runs over pairs, %d over games", paired, runs, unpaired)
	if paired < runs*90/100 {
		t.Errorf("the paired interval contains ½ in only %d of %d runs", paired, runs)
	}
	if unpaired >= paired {
		t.Errorf("over games %d of %d, over pairs %d: the pairs' correlation is not in this test", unpaired, runs, paired)
	}
}
