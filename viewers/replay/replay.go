package replay

import (
	"context"
	"fmt"
	"io"
	"strings"

	"playtest/games"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/variants"
)

// Moves plays game index of cfg again with the run's bots and streams
// (exactly as the run played it) and returns its moves in the game's
// notation, with the game's error if it failed.
func Moves(ctx context.Context, cfg *variants.Config, index int) ([]string, *sim.GameError, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	job.Moves = true
	rec, err := sim.Replay(ctx, job, index, nil)
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
	_, err = runlog.Scan(dir, m.From, m.To, nil, func(r *sim.Record) error {
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

// PlyError says --ply asks for an entry past the end of the game.
type PlyError struct{ Ply, Entries int }

func (e *PlyError) Error() string {
	return fmt.Sprintf("--ply %d: the game has %d entries (moves and chance outcomes)", e.Ply, e.Entries)
}

// BadInput marks the error as the user's (exit code 2).
func (e *PlyError) BadInput() bool { return true }

// View chooses what Write shows of a game: every board (the zero View),
// the board after one entry of the record (Ply), the move list alone
// (Moves), or the final board (Final).
type View struct {
	// Ply, if positive, shows only the board after entry Ply of the record
	// (moves and chance outcomes, numbered as the full replay and Moves
	// number them).
	Ply int
	// Moves lists the record one line per turn: a seat's decisions in a
	// row, with the chance outcomes that are theirs, on one line.
	Moves bool
	// Final shows only the board at the end and the result.
	Final bool
	// Unfinished accepts a record that stops before the end (a saved
	// game in progress).
	Unfinished bool
}

// Write plays the moves from the start of a game of cfg and draws the
// board after each (or what view asks for); a failed game ends with its
// error. Each move is read with the game's ParseMove, so it must be legal
// (or a possible chance outcome) where it stands.
func Write(w io.Writer, cfg *variants.Config, index int, moves []string, gameErr *sim.GameError, view View) error {
	job, err := rundir.Job(cfg)
	if err != nil {
		return err
	}
	deal, _ := job.Seating(index)
	header := fmt.Sprintf("%s: %s, game %d (seed %d, deal %d): %s", cfg.Definition.Name, cfg.Name, index, cfg.Seed, deal, Seats(cfg, index))
	return WriteMoves(w, cfg, header, moves, gameErr, view)
}

// Seats says which player sat in which seat in game index of cfg's run.
func Seats(cfg *variants.Config, index int) string {
	job := &sim.Job{Games: cfg.Games, Pairs: cfg.Pairs}
	if _, swapped := job.Seating(index); swapped {
		return fmt.Sprintf("player 1 (%s) in seat 0, player 0 (%s) in seat 1", cfg.Players[1].Bot, cfg.Players[0].Bot)
	}
	return fmt.Sprintf("player 0 (%s) in seat 0, player 1 (%s) in seat 1", cfg.Players[0].Bot, cfg.Players[1].Bot)
}

// WriteMoves is Write for any record of a game of cfg (a run's game, a
// game played with playtest play), under a header line.
func WriteMoves(w io.Writer, cfg *variants.Config, header string, moves []string, gameErr *sim.GameError, view View) error {
	g, err := cfg.NewGame()
	if err != nil {
		return err
	}
	if view.Ply > len(moves) {
		return &PlyError{Ply: view.Ply, Entries: len(moves)}
	}
	fmt.Fprintf(w, "%s\n\n", header)
	s := g.NewState()
	every := view.Ply == 0 && !view.Moves && !view.Final
	if every {
		fmt.Fprintln(w, indent(s.String()))
	}
	turns := turnWriter{w: w}
	setup, _ := s.(games.SetupDecider)
	owner, _ := s.(games.ChanceOwner)
	for k, text := range moves {
		who := s.CurrentPlayer()
		inSetup := setup != nil && setup.InSetup()
		forSeat := games.NoPlayer
		if who == games.Chance && owner != nil {
			forSeat = owner.ChanceFor()
		}
		if gameErr != nil && k == len(moves)-1 {
			turns.flush()
			fmt.Fprintf(w, "\n%d. %s: %s — the game failed here: %s\n", k+1, who, text, gameErr.Message)
			return nil
		}
		m, err := s.ParseMove(text)
		if err != nil {
			return fmt.Errorf("move %d %q: %v", k+1, text, err)
		}
		s.Apply(m)
		switch {
		case every:
			fmt.Fprintf(w, "\n%d. %s: %s\n%s\n", k+1, who, text, indent(s.String()))
		case view.Moves:
			turns.add(k+1, who, forSeat, inSetup, text)
		case view.Ply == k+1:
			_, err := fmt.Fprintf(w, "after %d. %s: %s (%d plies played)\n%s\n", k+1, who, text, s.Plies(), indent(s.String()))
			return err
		}
	}
	turns.flush()
	if view.Ply == 0 && len(moves) == 0 && !every && !view.Moves {
		fmt.Fprintln(w, indent(s.String()))
	}
	if gameErr != nil {
		fmt.Fprintf(w, "\nthe game failed: %s\n", gameErr.Message)
		return nil
	}
	if !s.IsTerminal() {
		if view.Unfinished {
			if view.Final {
				fmt.Fprintf(w, "position after %d entries:\n%s\n", len(moves), indent(s.String()))
			}
			_, err := fmt.Fprintf(w, "\nthe game was left unfinished after %d entries\n", len(moves))
			return err
		}
		return fmt.Errorf("the game is not over after its %d recorded moves", len(moves))
	}
	if view.Final {
		fmt.Fprintf(w, "final position after %d entries:\n%s\n", len(moves), indent(s.String()))
	}
	r := s.Result()
	outcome := "draw"
	if !r.IsDraw() {
		outcome = r.Winner.String() + " wins"
	}
	_, err = fmt.Fprintf(w, "\nresult: %s (%s) after %d plies\n", outcome, r.Reason, s.Plies())
	return err
}

// turnWriter writes the record one line per turn: a seat's decisions in a
// row share a line, numbered by the entry that opens it. Chance outcomes,
// in brackets, go on the line of the seat they are for when the game says
// (games.ChanceOwner: a card drawn into that seat's hand), else on the
// line of the decision that follows them; those before the first decision
// that belong to no seat (a deal) form a line of their own.
type turnWriter struct {
	w       io.Writer
	who     games.Player
	setup   bool // the line holds setup decisions (games.SetupDecider)
	first   int
	entries []string
	pending []string // chance outcomes waiting for the next decision
	from    int      // the entry that opened pending
	owned   bool     // pending belongs to a seat (games.ChanceOwner)
	started bool     // a seat has decided
}

func (t *turnWriter) add(k int, who, forSeat games.Player, setup bool, text string) {
	if who == games.Chance {
		if forSeat != games.NoPlayer && len(t.pending) == 0 && len(t.entries) > 0 && forSeat == t.who && setup == t.setup {
			t.entries = append(t.entries, "["+text+"]") // the current line's seat draws
			return
		}
		if owned := forSeat != games.NoPlayer; len(t.pending) > 0 && !t.started && owned && !t.owned {
			t.line(t.from, games.Chance, t.pending) // a deal, before the seats' draws
			t.pending = t.pending[:0]
		}
		if len(t.pending) == 0 {
			t.from, t.owned = k, forSeat != games.NoPlayer
		}
		t.pending = append(t.pending, "["+text+"]")
		return
	}
	if !t.started && len(t.pending) > 0 {
		t.line(t.from, games.Chance, t.pending) // the setup
		t.pending = t.pending[:0]
	}
	t.started = true
	if len(t.entries) > 0 && (who != t.who || setup != t.setup) {
		t.line(t.first, t.who, t.entries) // the pending chance outcomes open the next line
		t.entries = t.entries[:0]
	}
	if len(t.entries) == 0 {
		t.first, t.who, t.setup = k, who, setup
		if len(t.pending) > 0 {
			t.first = t.from
		}
	}
	t.entries = append(append(t.entries, t.pending...), text)
	t.pending = t.pending[:0]
}

// flush writes the open line, then any chance outcomes still waiting.
func (t *turnWriter) flush() {
	if len(t.entries) > 0 {
		t.line(t.first, t.who, t.entries)
		t.entries = t.entries[:0]
	}
	if len(t.pending) > 0 {
		t.line(t.from, games.Chance, t.pending)
		t.pending = t.pending[:0]
	}
}

func (t *turnWriter) line(k int, who games.Player, entries []string) {
	fmt.Fprintf(t.w, "%d. %s: %s\n", k, who, strings.Join(entries, " "))
}

func indent(board string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(board, "\n"), "\n", "\n    ")
}
