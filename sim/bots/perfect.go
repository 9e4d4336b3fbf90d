package bots

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/prove"
)

// PerfectParams are the parameters of the perfect bot.
type PerfectParams struct {
	Nodes   int `yaml:"nodes" json:"nodes" default:"50000000" doc:"most positions the prover may search to prove one move's value; a decision it cannot prove within them fails the game, never a silent fallback"`
	TableMB int `yaml:"table_mb" json:"table_mb" default:"256" doc:"the prover's table in MiB (16 bytes an entry), each worker's bot its own"`
}

// Validate checks the bounds.
func (p *PerfectParams) Validate() error {
	switch {
	case p.Nodes < 1000:
		return games.KnobErrorf("nodes", "must be at least 1000, got %d", p.Nodes)
	case p.TableMB < 1 || p.TableMB > 1<<16:
		return games.KnobErrorf("table_mb", "must be between 1 and 65536, got %d", p.TableMB)
	}
	return nil
}

// entries is the table's bound in entries.
func (p *PerfectParams) entries() int { return p.TableMB << 20 / prove.EntryBytes }

// proofStart returns the start of r's game where a proof of its positions
// is the game's, else why it is not (why; the user's choice of bot), or
// the rules' own error: a game of perfect information without chance
// (games.SolverRules, games.Provable) whose rules do not end games by
// their history (a repetition rule, a move cap), which a proof does not
// see.
func proofStart(r games.Rules) (s games.State, why string, err error) {
	sr, ok := r.(games.SolverRules)
	if !ok {
		return nil, "only games of perfect information without chance can be proven", nil
	}
	if games.SetsAside(r, sr) {
		return nil, "a proof does not see this variant's repetition rule or move cap", nil
	}
	g, err := r.NewGame()
	if err != nil {
		return nil, "", err
	}
	if s = g.NewState(); !games.Provable(s) {
		return nil, "the game's positions have no exact keys, or it hides information", nil
	}
	return s, "", nil
}

// ProofUser is implemented by the parameters of bots that play from
// proofs (perfect): CheckRules refuses, before any game, a variant whose
// start the prover does not settle within the bot's bound, or whose rules
// end games by their history (a proof does not see a repetition rule or a
// move cap). The variant loader calls it for every player and every bot
// given on the command line.
type ProofUser interface {
	CheckRules(r games.Rules) error
}

// RefusedError says why a bot cannot play a variant: the user's choice of
// bot, not a bug.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return e.Message }

// BadInput marks the refusal as the user's mistake.
func (e *RefusedError) BadInput() bool { return true }

// CheckRules proves the variant's start within Nodes positions.
func (p *PerfectParams) CheckRules(r games.Rules) error {
	s, why, err := proofStart(r)
	switch {
	case err != nil:
		return err
	case why != "":
		return &RefusedError{"perfect plays from proofs, and " + why + ": its perfect play is not defined"}
	case s.IsTerminal() || s.CurrentPlayer() == games.Chance:
		return nil
	}
	se, err := prove.New(s, prove.Options{Entries: p.entries(), MaxNodes: int64(p.Nodes)})
	if err != nil {
		return &RefusedError{err.Error()}
	}
	defer se.Close()
	switch _, err := se.Decide(s); {
	case errors.Is(err, prove.ErrBudget):
		return &RefusedError{fmt.Sprintf("perfect: the prover does not settle the variant's start within %s positions (nodes: %d); raise nodes, or start later (opening:)", Thousands(p.Nodes), p.Nodes)}
	case errors.Is(err, prove.ErrRepeats):
		return &RefusedError{"perfect: a position repeats on a line of play, so a value proven by search would depend on the path"}
	case err != nil:
		return err
	}
	return nil
}

// Perfect plays a move that keeps its seat's proven value (a win when one
// is forced, else a draw when one can be held), drawn uniformly at random
// among the moves that keep it from the bot's stream. Each move's value is
// proven by the prover (games/prove) within Nodes positions, its table
// kept from one decision to the next; a decision it cannot prove within
// them fails the game (a panic the runner records), never a silent
// fallback to a weaker move.
type Perfect struct {
	params PerfectParams
	seat   games.Player
	rng    *pcg.Rand
	se     *prove.Searcher
	keep   []games.Move
	stop   *atomic.Bool
}

// NewPerfect returns a perfect bot.
func NewPerfect(p PerfectParams) *Perfect { return &Perfect{params: p} }

// Reset starts a new game.
func (b *Perfect) Reset(seat games.Player, rng *pcg.Rand) { b.seat, b.rng = seat, rng }

// SetStop makes Choose return at once once *stop is set (implements
// Stoppable).
func (b *Perfect) SetStop(stop *atomic.Bool) { b.stop = stop }

// Choose plays a move that keeps the proven value.
func (b *Perfect) Choose(s games.State, legal []games.Move) games.Move {
	if b.se == nil {
		se, err := prove.New(s, prove.Options{Entries: b.params.entries(), Stop: b.stop})
		if err != nil {
			panic(fmt.Sprintf("perfect: %v", err))
		}
		b.se = se
	}
	// The position's value first (its proof mostly in the table from the
	// last decision), then one null-window proof a move: does it keep it?
	if b.stop != nil && b.stop.Load() {
		return legal[0] // the run is cancelled: the game is thrown away
	}
	var err error
	_, b.keep, err = b.se.Keeping(s, legal, b.keep[:0], int64(b.params.Nodes))
	switch {
	case errors.Is(err, context.Canceled):
		return legal[0] // a signal stopped the proof: the game is thrown away
	case errors.Is(err, prove.ErrBudget):
		panic(fmt.Sprintf("perfect: a move's value after %d plies was not proven within %s positions (nodes: %d)", s.Plies(), Thousands(b.params.Nodes), b.params.Nodes))
	case err != nil:
		panic(fmt.Sprintf("perfect: %v", err))
	case len(b.keep) == 0:
		panic(fmt.Sprintf("perfect: no move keeps the proven value after %d plies (a bug in the prover)", s.Plies()))
	}
	return b.keep[b.rng.IntN(len(b.keep))]
}
