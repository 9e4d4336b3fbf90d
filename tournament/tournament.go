package tournament

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
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
	// Repetition counts the pairing's different games: two bots that
	// always answer alike replay a few games, and the score's interval,
	// which takes the pairs as independent, is then too narrow.
	Repetition *reports.Repetition `json:"repetition,omitempty"`
}

// SchemaV1 is the schema tag of a tournament's JSON.
const SchemaV1 = "playtest/tournament/v1"

// Options tune a round robin.
type Options struct {
	// Workers is the number of worker goroutines (0: all cores).
	Workers int
	// OnGame, if set, is called after each game, from one goroutine.
	OnGame func()
}

// Result is a finished round robin.
type Result struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	// Label names the variant with what --set changed in its rules.
	Label    string    `json:"label,omitempty"`
	Seed     uint64    `json:"seed"`
	Games    int       `json:"games_per_pairing"`
	Entrants []Entrant `json:"entrants"`
	// Ratings are Bradley-Terry Elo ratings, the first entrant at 0.
	Ratings  []Rating  `json:"ratings"`
	Pairings []Pairing `json:"pairings"`
}

// Validate checks that the entrants and games make a round robin: at
// least two entrants, and an even number of games per pairing (seat-swapped
// pairs).
func Validate(cfg *variants.Config, entrants []Entrant) error {
	if len(entrants) < 2 {
		return fmt.Errorf("a tournament needs at least two entrants, got %d", len(entrants))
	}
	if cfg.Games < 2 || cfg.Games%2 != 0 {
		return fmt.Errorf("--games %d: a pairing plays seat-swapped pairs, so it needs an even number of games, at least 2", cfg.Games)
	}
	return nil
}

// Pairings returns the number of pairings of n entrants.
func Pairings(n int) int { return n * (n - 1) / 2 }

// Run plays every pairing of the entrants on cfg's variant: cfg.Games
// games each, in seat-swapped pairs, every pairing on the same seeds.
func Run(ctx context.Context, cfg *variants.Config, entrants []Entrant, opts Options) (*Result, error) {
	if err := Validate(cfg, entrants); err != nil {
		return nil, err
	}
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	n := len(entrants)
	res := &Result{Schema: SchemaV1, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Seed: cfg.Seed, Games: cfg.Games, Entrants: entrants}
	score, played := square(n), square(n)
	for a := range n {
		for b := a + 1; b < n; b++ {
			job := &sim.Job{Game: g, Players: [2]bots.Spec{entrants[a].Spec, entrants[b].Spec}, Games: cfg.Games, Seed: cfg.Seed, Pairs: true}
			p := Pairing{A: a, B: b, Labels: [2]string{entrants[a].Label, entrants[b].Label}}
			var pairs stats.PairSeries
			var repeats reports.RepetitionCounter
			var failed error
			err := sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
				if opts.OnGame != nil {
					opts.OnGame()
				}
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
				repeats.Add(r.Fingerprint)
			})
			if err = cmp.Or(err, failed); err != nil {
				return nil, err
			}
			p.Score = pairs.Score(stats.Z95)
			p.Repetition = repeats.Summary()
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

// Ranking returns the entrants' indices from the highest Elo down (ties
// in entrant order).
func (r *Result) Ranking() []int {
	order := make([]int, len(r.Entrants))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.Ratings[b].Elo, r.Ratings[a].Elo) })
	return order
}

// rows gives the ratings table's rows and the pairwise table's, both in
// the order of Ranking; entrants keep their number (#) from the command
// line.
func (r *Result) rows() (ratings, scores [][]string, header []string) {
	order := r.Ranking()
	header = []string{"#"}
	for _, j := range order {
		header = append(header, fmt.Sprintf("vs #%d", j+1))
	}
	for rank, i := range order {
		ci := "anchor"
		if i > 0 {
			ci = fmt.Sprintf("%+.0f – %+.0f", r.Ratings[i].Low, r.Ratings[i].High)
		}
		ratings = append(ratings, []string{fmt.Sprint(rank + 1), fmt.Sprint(i + 1), r.Entrants[i].Label, fmt.Sprintf("%+.0f", r.Ratings[i].Elo), ci})
		row := []string{fmt.Sprint(i + 1)}
		for _, j := range order {
			row = append(row, r.cell(i, j))
		}
		scores = append(scores, row)
	}
	return ratings, scores, header
}

var ratingsHeader = []string{"rank", "#", "entrant", "Elo", "95% CI"}

const scoresNote = "score of the row entrant against the column entrant, per game over pairs (95% CI):"

// WriteTable prints the ratings, highest Elo first, and the pairwise score
// table in the same order.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s\nround robin of %d entrants, %d games per pairing in seat-swapped pairs, seed %d\n\n",
		r.Game, cmp.Or(r.Label, r.Variant), len(r.Entrants), r.Games, r.Seed)
	ratings, scores, header := r.rows()
	t := reports.NewTable(w, reports.Cells(ratingsHeader)...)
	for _, row := range ratings {
		_ = t.Append(reports.Cells(row)...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\n"+scoresNote)
	pt := reports.NewTable(w, reports.Cells(header)...)
	for _, row := range scores {
		_ = pt.Append(reports.Cells(row)...)
	}
	if err := pt.Render(); err != nil {
		return err
	}
	if note := r.repetitionNote(); note != "" {
		_, err := fmt.Fprintf(w, "\nwarning (repeated-games): %s\n", note)
		return err
	}
	return nil
}

// WriteMarkdown writes the same tables in Markdown.
func (r *Result) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "### playtest tournament: %s (%s)\n\nRound robin of %d entrants, %d games per pairing in seat-swapped pairs, seed %d. Elo is a Bradley-Terry fit with 95%% intervals, entrant #1 anchored at 0.\n\n",
		reports.MarkdownEscape(cmp.Or(r.Label, r.Variant)), reports.MarkdownEscape(r.Game), len(r.Entrants), r.Games, r.Seed)
	ratings, scores, header := r.rows()
	reports.WriteMarkdownTable(w, ratingsHeader, ratings)
	fmt.Fprint(w, "\n"+scoresNote+"\n\n")
	if err := reports.WriteMarkdownTable(w, header, scores); err != nil {
		return err
	}
	if note := r.repetitionNote(); note != "" {
		fmt.Fprintf(w, "\n> ⚠ **repeated-games**: %s\n", reports.MarkdownText(note))
	}
	return reports.WriteMarkdownFooter(w)
}

// repetitionNote names the pairings whose games repeat (fewer than 90%
// different), or "" when none does.
func (r *Result) repetitionNote() string {
	var parts []string
	for _, p := range r.Pairings {
		if rep := p.Repetition; rep.Repeated(r.Games) {
			parts = append(parts, fmt.Sprintf("#%d vs #%d: %d different games of %d", p.A+1, p.B+1, rep.Distinct, r.Games))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ". These bots repeat themselves: their scores describe a few lines of play, and the intervals, which take the pairs as independent, are too narrow; give deterministic bots variety (alphabeta: noise with noise_moves) or play a stochastic one."
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
