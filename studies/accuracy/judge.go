package accuracy

import (
	"context"
	"errors"
	"fmt"

	"playtest/games"
	"playtest/games/prove"
	"playtest/sim"
	"playtest/sim/bots"
)

// Decision is one judged decision of a game.
type Decision struct {
	// Entry is the decision's index among the game's entries (from 0),
	// Ply the plies played before it.
	Entry int `json:"entry"`
	Ply   int `json:"ply"`
	// Player is the player (0 or 1, not the seat) who decided.
	Player int `json:"player"`
	// Value is the position's proven outcome for the mover (+1 a win, 0
	// a draw, −1 a loss), After the outcome after the move it played.
	Value int `json:"value"`
	After int `json:"after"`
	// Varied says the bot's variety settings (noise) applied to it.
	Varied bool `json:"varied,omitempty"`
	// Unproven says why the decision was not judged ("bound": a proof
	// passed its bound on positions); Value and After are then 0.
	Unproven string `json:"unproven,omitempty"`
}

// Kept reports whether the move kept the position's value.
func (d Decision) Kept() bool { return d.Unproven == "" && d.After >= d.Value }

// Game is one judged game: its judged decisions, and the decisions it
// did not judge.
type Game struct {
	Index int `json:"index"`
	// Deal is the game's seat-swapped pair (its index without pairs), and
	// Fingerprint its sequence of decisions (sim.Record's): the study
	// counts the different games, since repeated ones judge one line of
	// play many times.
	Deal        int    `json:"deal"`
	Fingerprint uint64 `json:"fingerprint,omitempty"`
	// Plies is the game's length, for the phases.
	Plies     int        `json:"plies"`
	Decisions []Decision `json:"decisions"`
	// Skipped counts the seats' decisions not judged: the opening's, the
	// book's and those before MinPlies.
	Skipped int `json:"skipped,omitempty"`
	// Err is the game's own error (a bot's failure), which left it
	// unjudged.
	Err string `json:"error,omitempty"`
}

// judge proves the decisions of one played game.
type judge struct {
	se      *prove.Searcher
	nodes   int64
	players [games.NumSeats]bots.Spec
	opening int
	minPly  int
}

func newJudge(ctx context.Context, g games.Game, opts *Options, players [games.NumSeats]bots.Spec, opening int) (*judge, error) {
	se, err := prove.New(g.NewState(), prove.Options{Entries: opts.TableMB << 20 / prove.EntryBytes, Context: ctx})
	if err != nil {
		return nil, err
	}
	return &judge{se: se, nodes: opts.Nodes, players: players, opening: opening, minPly: opts.MinPlies}, nil
}

// game judges rec, played from g's start: each seat's decision after the
// opening and the book, at MinPlies or later, is proven before and after
// its move. Each game starts from an empty table, so its judgement does
// not depend on the games judged before it by the same worker.
func (j *judge) game(ctx context.Context, g games.Game, rec *sim.Record) (*Game, error) {
	out := &Game{Index: rec.Index, Deal: rec.Deal, Fingerprint: rec.Fingerprint, Plies: rec.Plies}
	if rec.Err != nil {
		out.Err = rec.Err.Message
		return out, nil
	}
	j.se.Reset()
	s := g.NewState()
	var choices [games.NumSeats]int // each seat's bot's decisions so far
	known, value := false, 0        // s's proven value for its mover, when known
	booked := j.opening + rec.Booked
	for k, text := range rec.Moves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := s.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("game %d: entry %d %q: %v", rec.Index, k+1, text, err)
		}
		p := s.CurrentPlayer()
		if p != games.Seat0 && p != games.Seat1 {
			known = false
			s.Apply(m)
			continue
		}
		if k < booked || s.Plies() < j.minPly {
			if k >= booked {
				choices[p]++
			}
			out.Skipped++
			known = false
			s.Apply(m)
			continue
		}
		choices[p]++
		player := rec.PlayerOf(p)
		d := Decision{Entry: k, Ply: s.Plies(), Player: player, Varied: j.players[player].VariedDecision(choices[p])}
		if !known {
			j.se.Budget(j.nodes)
			v, err := j.se.Decide(s)
			if d.Unproven, err = unproven(err); err != nil {
				return nil, err
			}
			value = v.Outcome
		}
		if d.Unproven == "" {
			j.se.Budget(j.nodes)
			after, err := j.se.After(s, m)
			if d.Unproven, err = unproven(err); err != nil {
				return nil, err
			}
			if d.Unproven == "" {
				if after > value {
					return nil, fmt.Errorf("game %d: entry %d %q scores %+d where the position is proven %+d (a bug in the prover)", rec.Index, k+1, text, after, value)
				}
				d.Value, d.After = value, after
			}
		}
		out.Decisions = append(out.Decisions, d)
		s.Apply(m)
		// The next position's value follows from the move's.
		known = d.Unproven == "" && !s.IsTerminal()
		if known {
			value = d.After
			if s.CurrentPlayer() != p {
				value = -d.After
			}
		}
	}
	return out, nil
}

// unproven says why a proof's error left a decision unjudged ("bound"),
// or returns the error when it stops the study (a signal, a bug).
func unproven(err error) (string, error) {
	switch {
	case err == nil:
		return "", nil
	case errors.Is(err, prove.ErrBudget):
		return "bound", nil
	}
	return "", err
}
