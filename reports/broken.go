package reports

import (
	"fmt"
	"strings"

	"playtest/games"
	"playtest/sim/bots"
)

// Broken says a run's rule set looks broken rather than its bots: every
// game ended within a few plies, or every game played the same short line.
// Where the game allows a proof (perfect information with exact position
// keys), a shallow one names the forced win; elsewhere Text says what was
// seen.
type Broken struct {
	// Proof is the forced win found, nil where none could be sought.
	Proof *games.Proof `json:"proof,omitempty"`
	// LastPly is the ply by which every game ended.
	LastPly int `json:"last_ply"`
	// Text says it in one line: "seat 0 wins by force in 1: a1Sxd4 — the
	// rules, not the bots".
	Text string `json:"text"`
}

// Thresholds of Broken.
const (
	// ShortGamePlies: a run whose every game ended by this ply is checked
	// for a forced win.
	ShortGamePlies = 4
	// ShortLinePlies: so is a run whose games all played one line of at
	// most this many plies.
	ShortLinePlies = 12
	// QuickProofPlies: every run whose game allows a proof is checked for
	// a forced win within this many decisions from the start, whatever its
	// games' length (weak bots can miss one).
	QuickProofPlies = 3
)

// broken checks the run for rules that decide the game by themselves.
func (a *Aggregator) broken(s *Summary) *Broken {
	if a.games == 0 {
		return nil
	}
	last := int(a.plies.Quantile(1))
	oneLine := s.Repetition != nil && s.Repetition.Distinct == 1 && a.games >= 2 && last <= ShortLinePlies
	if last > ShortGamePlies && !oneLine {
		// Games long enough, yet weak bots may miss a win the rules hand
		// out at the start: a quick proof before any warning blames them.
		if a.info.Prove == nil {
			return nil
		}
		if !a.quickProved {
			// The same for every summary of the run: proven once.
			a.quickProof, _ = a.info.Prove(QuickProofPlies)
			a.quickProved = true
		}
		if pf := a.quickProof; pf != nil {
			return &Broken{Proof: pf, LastPly: last, Text: ForcedWinText(pf)}
		}
		return nil
	}
	b := &Broken{LastPly: last}
	searched := false
	if a.info.Prove != nil {
		// One decision more than the plies: a pie choice is a decision
		// but not a ply.
		b.Proof, searched = a.info.Prove(last + 1)
	}
	switch {
	case b.Proof != nil:
		b.Text = ForcedWinText(b.Proof)
	case searched:
		return nil // no forced win so soon: the bots' play, which the other warnings judge
	case oneLine && last > ShortGamePlies:
		b.Text = fmt.Sprintf("every game played the same line and ended at ply %d; look at the rules before the bots", last)
	default:
		b.Text = fmt.Sprintf("every game ends by ply %d; look at the rules before the bots", last)
	}
	return b
}

// ForcedWinText says a proof in one line: "seat 0 wins by force in 1:
// a1Sxd4 — the rules, not the bots".
func ForcedWinText(p *games.Proof) string {
	return fmt.Sprintf("seat %d wins by force in %d: %s — the rules, not the bots", p.Winner, p.Plies, strings.Join(p.Line, " "))
}

// WarnBrokenRules is the warning code of a Broken rule set.
const WarnBrokenRules = "broken-rules"

// ProvenStart is the variant's value from its start (after its opening)
// with perfect play, proven by search: the cheap proof tried before the
// bots are blamed for what a run shows.
type ProvenStart struct {
	// Winner is the seat perfect play wins for; Draw says neither does.
	Winner games.Player `json:"winner"`
	Draw   bool         `json:"draw,omitempty"`
	// Positions is the positions the proof searched.
	Positions int64 `json:"positions"`
	// Text says it: "a draw with perfect play (proven by a search of
	// 430,466 positions)".
	Text string `json:"text"`
}

// NewProvenStart describes a proven value: the winner's seat, or a draw.
func NewProvenStart(winner games.Player, draw bool, positions int64) *ProvenStart {
	p := &ProvenStart{Winner: winner, Draw: draw, Positions: positions}
	what := fmt.Sprintf("seat %d wins with perfect play", winner)
	if draw {
		p.Winner, what = games.NoPlayer, "a draw with perfect play"
	}
	p.Text = fmt.Sprintf("%s (proven by a search of %s positions)", what, bots.Thousands(int(positions)))
	return p
}

// proven proves the variant's value once a run (the same for every
// summary of it), unless a forced win already says more.
func (a *Aggregator) proven(s *Summary) *ProvenStart {
	if a.info.Settle == nil || s.Broken != nil && s.Broken.Proof != nil {
		return nil
	}
	if !a.settleTried {
		a.settled, a.settleTried = a.info.Settle(), true
	}
	return a.settled
}

// ProofText says the proof that judges the seat outcomes, or "" for none:
// "proven: seat 0 wins by force in 1: …", "seat 0 wins with perfect play
// (proven by a search of 22 positions)".
func (s *Summary) ProofText() string {
	switch {
	case s.Broken != nil && s.Broken.Proof != nil:
		return "proven: " + s.Broken.Text
	case s.Proven != nil:
		return s.Proven.Text
	}
	return ""
}

// ProvenValue is what a proof says a built-in metric's value is with
// perfect play (seat0_wins, seat1_wins, draws, stalled, balance,
// seat0_score; and plies with a forced win's play); ok false for other
// metrics or without a proof.
func (s *Summary) ProvenValue(metric string) (v float64, ok bool) {
	if s.Broken == nil || s.Broken.Proof == nil {
		return s.Proven.value(metric)
	}
	p := s.Broken.Proof
	seat0 := 0.0
	if p.Winner == games.Seat0 {
		seat0 = 1
	}
	switch CanonicalMetric(metric) {
	case "seat0_wins", Seat0Score:
		return seat0, true
	case "seat1_wins":
		return 1 - seat0, true
	case "draws", "stalled", "balance":
		return 0, true
	case "plies":
		return float64(p.Plies), true
	}
	return 0, false
}

// value is what the proven value says a seat outcome is with perfect play.
func (p *ProvenStart) value(metric string) (float64, bool) {
	if p == nil {
		return 0, false
	}
	seat0, decisive := 0.0, 1.0
	switch {
	case p.Draw:
		seat0, decisive = 0.5, 0
	case p.Winner == games.Seat0:
		seat0 = 1
	}
	switch CanonicalMetric(metric) {
	case Seat0Score:
		return seat0, true
	case "seat0_wins":
		return decisive * seat0, true
	case "seat1_wins":
		return decisive * (1 - seat0), true
	case "draws":
		return 1 - decisive, true
	case "balance":
		return 1 - decisive, true
	case "stalled":
		return 0, true
	}
	return 0, false
}
