package replay

import (
	"fmt"
	"io"
	"strings"

	"playtest/experiment"
	"playtest/runlog"
	"playtest/sim"
	"playtest/variants"
)

// Moves plays game index of cfg again with the run's bots and streams
// (exactly as the run played it) and returns its moves in the game's
// notation, with the game's error if it failed.
func Moves(cfg *variants.Config, index int) ([]string, *sim.GameError, error) {
	job, err := experiment.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	job.Moves = true
	rec, err := sim.Replay(job, index, nil)
	if err != nil {
		return nil, nil, err
	}
	if rec.Err != nil {
		return rec.Err.Moves, rec.Err, nil
	}
	return rec.Moves, nil, nil
}

// Recorded returns the moves a run directory recorded for game index, or
// nil when it kept no moves; ok is false when the directory has no such
// game.
func Recorded(dir string, m *runlog.Manifest, index int) (moves []string, gameErr *sim.GameError, ok bool, err error) {
	if index < m.From || index >= m.To {
		return nil, nil, false, nil
	}
	_, err = runlog.Scan(dir, m.From, m.To, false, nil, func(r *sim.Record) error {
		if r.Index != index {
			return nil
		}
		ok, moves, gameErr = true, r.Moves, r.Err
		if r.Err != nil {
			moves = r.Err.Moves
		}
		return errStop
	})
	if err == errStop {
		err = nil
	}
	return moves, gameErr, ok, err
}

var errStop = fmt.Errorf("found")

// Write plays the moves from the start of a game of cfg and draws the
// board after each; a failed game ends with its error. Each move is read
// with the game's ParseMove, so it must be legal (or a possible chance
// outcome) where it stands.
func Write(w io.Writer, cfg *variants.Config, index int, moves []string, gameErr *sim.GameError) error {
	g, err := cfg.NewGame()
	if err != nil {
		return err
	}
	job, _ := experiment.Job(cfg)
	deal, swapped := job.Seating(index)
	seats := fmt.Sprintf("player 0 (%s) in seat 0, player 1 (%s) in seat 1", cfg.Players[0].Bot, cfg.Players[1].Bot)
	if swapped {
		seats = fmt.Sprintf("player 1 (%s) in seat 0, player 0 (%s) in seat 1", cfg.Players[1].Bot, cfg.Players[0].Bot)
	}
	fmt.Fprintf(w, "%s: %s, game %d (seed %d, deal %d): %s\n\n", cfg.Definition.Name, cfg.Name, index, cfg.Seed, deal, seats)
	s := g.NewState()
	fmt.Fprintln(w, indent(s.String()))
	for k, text := range moves {
		if gameErr != nil && k == len(moves)-1 {
			fmt.Fprintf(w, "\n%d. %s: %s — the game failed here: %s\n", k+1, s.CurrentPlayer(), text, gameErr.Message)
			return nil
		}
		who := s.CurrentPlayer()
		m, err := s.ParseMove(text)
		if err != nil {
			return fmt.Errorf("move %d %q: %v", k+1, text, err)
		}
		s.Apply(m)
		fmt.Fprintf(w, "\n%d. %s: %s\n%s\n", k+1, who, text, indent(s.String()))
	}
	if gameErr != nil {
		fmt.Fprintf(w, "\nthe game failed: %s\n", gameErr.Message)
		return nil
	}
	if !s.IsTerminal() {
		return fmt.Errorf("the game is not over after its %d recorded moves", len(moves))
	}
	r := s.Result()
	outcome := "draw"
	if !r.IsDraw() {
		outcome = r.Winner.String() + " wins"
	}
	_, err = fmt.Fprintf(w, "\nresult: %s (%s) after %d plies\n", outcome, r.Reason, s.Plies())
	return err
}

func indent(board string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(board, "\n"), "\n", "\n    ")
}
