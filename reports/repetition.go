package reports

import "fmt"

// MaxTrackedGames bounds the distinct games a summary tells apart: past it
// the games are plainly varied and counting stops (Repetition.AtLeast), so
// a run of millions of games keeps a bounded table.
const MaxTrackedGames = 1 << 16

// Repetition says how many different games the run's games were, told
// apart by their sequences of decisions (sim.Record.Fingerprint). Bots that
// answer every position the same way (alphabeta without noise, greedy)
// replay the same few games: the figures then describe those few lines of
// play, and more games add no information.
type Repetition struct {
	// Distinct is the number of different games, up to MaxTrackedGames;
	// AtLeast says counting stopped there.
	Distinct int  `json:"distinct"`
	AtLeast  bool `json:"at_least,omitempty"`
	// MostPlayed is how many times the most frequent game was played.
	MostPlayed int `json:"most_played"`
	// Twins counts the seat-swapped pairs whose two games were the same
	// game: bots alike in both seats play a pair's games alike, which
	// repeats nothing the intervals (over the pairs) count twice, so such
	// a pair counts as one game.
	Twins int `json:"twins,omitempty"`
}

// Repeated reports that fewer than 90% of the games were different, a
// pair's twin games counted once.
func (r *Repetition) Repeated(games int) bool {
	if r == nil {
		return false
	}
	n := games - r.Twins
	return !r.AtLeast && n >= 10 && 10*r.Distinct < 9*n
}

// Mostly reports that fewer than half of the games were different (a
// pair's twin games counted once): the headline then says so.
func (r *Repetition) Mostly(games int) bool {
	return r.Repeated(games) && 2*r.Distinct < games-r.Twins
}

// Describe says how many games were different, for a warning or the
// headline: "only 32 of the 200 games were different (the most frequent
// was played 17 times)", with the pairs whose games were twins counted
// once.
func (r *Repetition) Describe(games int) string {
	text := fmt.Sprintf("only %d of the %d games were different (the most frequent was played %d times", r.Distinct, games, r.MostPlayed)
	if r.Twins > 0 {
		text += fmt.Sprintf("; of %d, counting as one the two games of each of the %d seat-swapped pairs that played one game twice", games-r.Twins, r.Twins)
	}
	return text + ")"
}

// RepetitionCounter counts games by fingerprint; the zero value is ready.
type RepetitionCounter struct {
	counts  map[uint64]int
	unknown bool // a game without a fingerprint: a log written before them
	full    bool
	most    int
	// halves holds the first game's fingerprint of each seat-swapped
	// pair whose second has not come yet (AddPaired); twins counts the
	// pairs whose two games were the same.
	halves map[int]uint64
	twins  int
}

// AddPaired counts a game of a seat-swapped pair (deal is its pair's
// index), and the pair as twins when both its games were the same.
func (acc *RepetitionCounter) AddPaired(deal int, fp uint64) {
	acc.Add(fp)
	if acc.halves == nil {
		acc.halves = map[int]uint64{}
	}
	first, ok := acc.halves[deal]
	if !ok {
		acc.halves[deal] = fp
		return
	}
	delete(acc.halves, deal)
	if fp != 0 && fp == first {
		acc.twins++
	}
}

// Add counts a game by its fingerprint (0: none, which makes the count
// unknown).
func (acc *RepetitionCounter) Add(fp uint64) {
	switch {
	case fp == 0:
		acc.unknown = true
		return
	case acc.counts == nil:
		acc.counts = map[uint64]int{}
	}
	n, seen := acc.counts[fp]
	if !seen && len(acc.counts) >= MaxTrackedGames {
		acc.full = true
		return
	}
	acc.counts[fp] = n + 1
	acc.most = max(acc.most, n+1)
}

// Summary is the count, or nil when some game had no fingerprint.
func (acc *RepetitionCounter) Summary() *Repetition {
	if acc.unknown || acc.counts == nil {
		return nil
	}
	return &Repetition{Distinct: len(acc.counts), AtLeast: acc.full, MostPlayed: acc.most, Twins: acc.twins}
}
