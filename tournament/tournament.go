package tournament

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// Entrant is one bot setting with the label the tables show.
type Entrant struct {
	Label string    `json:"label"`
	Spec  bots.Spec `json:"spec"`
}

// Pairing is the record of one entrant against another.
type Pairing struct {
	A, B   int             `json:"-"`
	Labels [2]string       `json:"entrants"`
	Wins   int             `json:"wins"`
	Draws  int             `json:"draws"`
	Losses int             `json:"losses"`
	Score  stats.PairScore `json:"score"` // A's score per game over pairs
}

// Result is a finished round robin.
type Result struct {
	Game     string    `json:"game"`
	Variant  string    `json:"variant"`
	Seed     uint64    `json:"seed"`
	Games    int       `json:"games_per_pairing"`
	Entrants []Entrant `json:"entrants"`
	// Ratings are Bradley-Terry Elo ratings, the first entrant at 0.
	Ratings  []Rating  `json:"ratings"`
	Pairings []Pairing `json:"pairings"`
}

// Run plays every pairing of the entrants on cfg's variant: cfg.Games
// games each, in seat-swapped pairs, every pairing on the same seeds.
func Run(ctx context.Context, cfg *variants.Config, entrants []Entrant, workers int) (*Result, error) {
	if len(entrants) < 2 {
		return nil, fmt.Errorf("a tournament needs at least two entrants, got %d", len(entrants))
	}
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	n := len(entrants)
	res := &Result{Game: cfg.Definition.Name, Variant: cfg.Name, Seed: cfg.Seed, Games: cfg.Games, Entrants: entrants}
	score, played := square(n), square(n)
	for a := range n {
		for b := a + 1; b < n; b++ {
			job := &sim.Job{Game: g, Players: [2]bots.Spec{entrants[a].Spec, entrants[b].Spec}, Games: cfg.Games, Seed: cfg.Seed, Pairs: true}
			p := Pairing{A: a, B: b, Labels: [2]string{entrants[a].Label, entrants[b].Label}}
			var pairs stats.PairSeries
			var failed error
			err := sim.Run(ctx, job, sim.Options{Workers: workers}, func(r *sim.Record) {
				if r.Err != nil {
					failed = cmp.Or(failed, error(r.Err))
					return
				}
				s := r.Result.ScoreFor(r.SeatOf(0)) // entrant a is player 0
				switch s {
				case 1:
					p.Wins++
				case 0.5:
					p.Draws++
				default:
					p.Losses++
				}
				score[a][b] += s
				score[b][a] += 1 - s
				played[a][b]++
				played[b][a]++
				pairs.Add(r.Index, s)
			})
			if err = cmp.Or(err, failed); err != nil {
				return nil, err
			}
			p.Score = pairs.Score(stats.Z95)
			res.Pairings = append(res.Pairings, p)
		}
	}
	res.Ratings = fitElo(score, played)
	return res, nil
}

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// WriteTable prints the ratings and the pairwise score table.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s\nround robin of %d entrants, %d games per pairing in seat-swapped pairs, seed %d\n\n",
		r.Game, r.Variant, len(r.Entrants), r.Games, r.Seed)
	t := reports.NewTable(w, "#", "entrant", "Elo", "95% CI")
	for i, e := range r.Entrants {
		ci := "anchor"
		if i > 0 {
			ci = fmt.Sprintf("%+.0f – %+.0f", r.Ratings[i].Low, r.Ratings[i].High)
		}
		_ = t.Append(fmt.Sprint(i+1), e.Label, fmt.Sprintf("%+.0f", r.Ratings[i].Elo), ci)
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nscore of the row entrant against the column entrant, per game over pairs (95% CI):")
	header := []any{"#"}
	for i := range r.Entrants {
		header = append(header, fmt.Sprintf("vs #%d", i+1))
	}
	pt := reports.NewTable(w, header...)
	for i := range r.Entrants {
		row := []any{fmt.Sprint(i + 1)}
		for j := range r.Entrants {
			row = append(row, r.cell(i, j))
		}
		_ = pt.Append(row...)
	}
	return pt.Render()
}

// cell writes i's score against j.
func (r *Result) cell(i, j int) string {
	for _, p := range r.Pairings {
		s := p.Score
		switch {
		case p.A == i && p.B == j:
		case p.A == j && p.B == i:
			s.Score, s.CI.Low, s.CI.High = 1-s.Score, 1-s.CI.High, 1-s.CI.Low
		default:
			continue
		}
		return fmt.Sprintf("%.0f%% (%.0f–%.0f)", 100*s.Score, 100*s.CI.Low, 100*s.CI.High)
	}
	return "—"
}

// Label makes an entrant's label from the text that set it: the text
// itself, without braces and "bot:".
func Label(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(strings.TrimSuffix(t, "}"), "{")
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "bot:"))
	return t
}
