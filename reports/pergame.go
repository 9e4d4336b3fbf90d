package reports

import (
	"playtest/games"
	"playtest/reports/howplays"
	"playtest/sim"
)

// PerGameMetrics names the per-game values every game has, for PerGame:
// seat 0's score (1 win, ½ draw, 0 loss), 0/1 events, and lengths.
var PerGameMetrics = []string{Seat0Score, "seat0_wins", "seat1_wins", "draws", "stalled", "plies", "decisions"}

// PerGame returns the function that reads the named value from a finished
// game: one of PerGameMetrics, or a game-specific metric (ok is false for a
// game that did not report it).
func PerGame(name string) func(r *sim.Record) (v float64, ok bool) {
	event := func(b bool) (float64, bool) {
		if b {
			return 1, true
		}
		return 0, true
	}
	switch name = CanonicalMetric(name); name {
	case Seat0Score:
		return func(r *sim.Record) (float64, bool) { return r.Result.ScoreFor(games.Seat0), true }
	case "seat0_wins":
		return func(r *sim.Record) (float64, bool) { return event(r.Result.Winner == games.Seat0) }
	case "seat1_wins":
		return func(r *sim.Record) (float64, bool) { return event(r.Result.Winner == games.Seat1) }
	case "draws":
		return func(r *sim.Record) (float64, bool) { return event(r.Result.IsDraw()) }
	case "stalled":
		return func(r *sim.Record) (float64, bool) {
			return event(r.Result.IsDraw() && games.IsStalled(r.Result.Reason))
		}
	case "plies":
		return func(r *sim.Record) (float64, bool) { return float64(r.Plies), true }
	case "decisions":
		return func(r *sim.Record) (float64, bool) { return float64(r.Decisions), true }
	}
	return func(r *sim.Record) (float64, bool) {
		for _, m := range r.Metrics {
			if m.Name == name {
				return m.Value, true
			}
		}
		return 0, false
	}
}

// PlayPerGame returns the function that reads one of How it plays'
// per-game figures (howplays.PerGame; named without PlayPrefix) from a
// traced game, its trace mapped with m; ok is false for a game without a
// trace, or one the figure leaves out (drama in a draw).
func PlayPerGame(name string, m howplays.Mapping) func(r *sim.Record) (float64, bool) {
	of, _, known := howplays.PerGame(name)
	return func(r *sim.Record) (float64, bool) {
		if !known || r.Trace == nil {
			return 0, false
		}
		g := howplays.NewGame(r, m)
		return of(&g)
	}
}
