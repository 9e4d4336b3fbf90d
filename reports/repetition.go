package reports

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
}

// Repeated reports that fewer than 90% of the games were different.
func (r *Repetition) Repeated(games int) bool {
	return r != nil && !r.AtLeast && games >= 10 && 10*r.Distinct < 9*games
}

// Mostly reports that fewer than half of the games were different: the
// headline then says so.
func (r *Repetition) Mostly(games int) bool {
	return r.Repeated(games) && 2*r.Distinct < games
}

// RepetitionCounter counts games by fingerprint; the zero value is ready.
type RepetitionCounter struct {
	counts  map[uint64]int
	unknown bool // a game without a fingerprint: a log written before them
	full    bool
	most    int
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
	return &Repetition{Distinct: len(acc.counts), AtLeast: acc.full, MostPlayed: acc.most}
}
