package howplays

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"playtest/sim"
	"playtest/sim/bots"
)

// Report is how a run's games played: the figures over its traced games,
// the mapping their traces were read with, and example traces to draw.
type Report struct {
	// Games is the number of traced games the figures are over (the run's
	// first sim.DefaultTrace), Over "games" or "pairs".
	Games int    `json:"games"`
	Over  string `json:"over"`
	// Mapping turned the traces' leads into chances of winning; View says
	// whose estimate the trace is.
	Mapping Mapping `json:"mapping"`
	View    string  `json:"view"`
	// Static says the bots do not search: the run traced one game in
	// sim.StaticTraceEvery, each position judged by its static evaluation
	// (sim.TraceCount).
	Static  bool     `json:"static,omitempty"`
	Figures []Figure `json:"figures"`
	// AfterDecided counts the decisive games by the share of the game
	// played after it was decided, in tenths (AfterDecided[9]: 90% to
	// 100%).
	AfterDecided []int `json:"after_decided"`
	// Examples are the traces of a typical game and of the extremes.
	Examples []Example `json:"examples"`
	// Reliability says how far the traced chances come true.
	Reliability *Reliability `json:"reliability,omitempty"`
}

// Example is one traced game's trace, to draw.
type Example struct {
	Label string `json:"label"`
	Index int    `json:"index"`
	// P is seat 0's chance of winning before each decision, then the
	// result; Turning the decisions that moved it by TurningStep or more.
	P       []float64 `json:"p"`
	Turning []int     `json:"turning,omitempty"`
	Winner  string    `json:"winner"`
}

// Views of a trace.
const (
	ViewOpen   = "one estimate from the whole position: every seat sees everything in this game"
	ViewHidden = "each seat's own estimate from what it may see, combined (seat 0's chance is the mean, in logits, of seat 0's estimate and one less seat 1's): together the two views see both hands, so the trace shows who is ahead in fact, where one seat's view would lag behind what the other holds"
)

// Build measures the traced records, read with a logistic fitted to them
// here (calibrate: cross-fitted, and refitted in the figures' resamples),
// from the learned model's mapping m when the bots play one (nil: from
// nothing). hidden says the game hides information (View).
func Build(recs []*sim.Record, m *Mapping, pairs, hidden, static bool, seed uint64) *Report {
	if len(recs) == 0 {
		return nil
	}
	gs := make([]Game, len(recs))
	for i, r := range recs {
		gs[i] = NewGame(r, Mapping{})
	}
	units := unitsOf(gs, pairs)
	cal := calibrate(gs, units, pairs, m)
	mapping := cal.all
	rep := &Report{Games: len(gs), Over: "games", Mapping: mapping, View: ViewOpen, AfterDecided: make([]int, 10), Static: static}
	if pairs {
		rep.Over = "pairs"
	}
	if hidden {
		rep.View = ViewHidden
	}
	rep.Figures = measureAll(units, seed, cal)
	for i := range gs {
		if gs[i].Decisive() {
			rep.AfterDecided[min(int(gs[i].AfterDecided()*10), 9)]++
		}
	}
	rep.Examples = examples(gs)
	rep.Reliability = measureReliability(gs)
	return rep
}

// examples picks a typical decisive game (the median length), the most
// dramatic win and the game decided earliest (the largest share played
// after it), each the first in index order among equals.
func examples(gs []Game) []Example {
	var decisive []*Game
	for i := range gs {
		if gs[i].Decisive() {
			decisive = append(decisive, &gs[i])
		}
	}
	if len(decisive) == 0 {
		return nil
	}
	byLength := slices.Clone(decisive)
	slices.SortStableFunc(byLength, func(a, b *Game) int { return cmp.Compare(a.Decisions(), b.Decisions()) })
	typical := byLength[len(byLength)/2]
	dramatic, early := decisive[0], decisive[0]
	for _, g := range decisive {
		if g.Drama() > dramatic.Drama() {
			dramatic = g
		}
		if g.AfterDecided() > early.AfterDecided() {
			early = g
		}
	}
	var out []Example
	for _, pick := range []struct {
		label string
		g     *Game
	}{{"typical (median length)", typical}, {"most dramatic", dramatic}, {"decided earliest", early}} {
		ex := Example{Label: pick.label, Index: pick.g.Index, Turning: pick.g.TurningPoints(), Winner: "seat 0"}
		if pick.g.Seat0 == 0 {
			ex.Winner = "seat 1"
		}
		for _, p := range pick.g.P {
			ex.P = append(ex.P, math.Round(p*1000)/1000)
		}
		out = append(out, ex)
	}
	return out
}

// Find returns the figure of that name, false if the report has none.
func (r *Report) Find(name string) (Figure, bool) {
	if r == nil {
		return Figure{}, false
	}
	for _, f := range r.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// Format writes a figure's value (or either end of its interval) in its
// unit: shares as percentages, the rest with two decimals (one for
// log₁₀ and plies).
func (f Figure) Format(v float64) string {
	switch f.Unit {
	case UnitShare:
		return fmt.Sprintf("%.1f%%", 100*v)
	case UnitDigits, UnitPlies:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// Anchor is the figure's glossary anchor in the reports and docs.
func (f Figure) Anchor() string { return "fig-" + f.Name }

// Summary says in plain sentences what the figures say of how the game
// plays, each number with its interval and the bots' caveat: figures
// describe the game as these bots play it.
func (r *Report) Summary() string {
	if r == nil {
		return ""
	}
	var parts []string
	if f, ok := r.Find("decided_at"); ok {
		if a, ok := r.Find("after_decided"); ok {
			parts = append(parts, fmt.Sprintf("A decisive game is decided (the winner's chance stays above 90%%) at decision %s on average [%s, %s], and %s of it [%s, %s] is played after that", f.Format(f.Value), f.Format(f.Low), f.Format(f.High), a.Format(a.Value), a.Format(a.Low), a.Format(a.High)))
		}
	}
	if f, ok := r.Find("lead_changes"); ok {
		s := fmt.Sprintf("the lead changes hands %s times a game [%s, %s]", f.Format(f.Value), f.Format(f.Low), f.Format(f.High))
		if c, ok := r.Find("comeback"); ok {
			s += fmt.Sprintf(" and %s of the wins [%s, %s] are comebacks from below 25%%", c.Format(c.Value), c.Format(c.Low), c.Format(c.High))
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	text := strings.Join(parts, "; ") + fmt.Sprintf(" (%s traced games, as these bots play).", bots.Thousands(r.Games))
	return strings.ToUpper(text[:1]) + text[1:]
}
