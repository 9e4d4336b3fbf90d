package worth

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"

	"playtest/games"
	"playtest/reports"
	"playtest/reports/plots"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// SchemaV1 is the schema tag of a worth study's JSON.
const SchemaV1 = "playtest/worth/v1"

// Mechanic is one restriction to measure, with the label tables show.
type Mechanic struct {
	Label    string        `json:"label"`
	Restrict bots.Restrict `json:"restrict"`
	// Doc is the game's description of a named restriction.
	Doc string `json:"doc,omitempty"`
}

// Row is what one mechanic is worth.
type Row struct {
	Mechanic
	// Games is the games played, in seat-swapped pairs.
	Games int `json:"games"`
	// Restricted is the restricted player's score per game over the pairs
	// (a win 1, a draw ½), with its pentanomial interval and Elo.
	Restricted stats.PairScore `json:"restricted_score"`
	// Worth is what the restriction costs the restricted player: ½ less
	// its score, in points per game (above 0: the mechanic helps whoever
	// may use it), with the interval of the score's; Elo likewise, the
	// Elo difference the restriction costs (nil ends where infinite).
	Worth Estimate `json:"worth"`
	Elo   EloCost  `json:"elo"`
	// BySeat is the restricted player's score in the games it sat in
	// each seat, with Wilson intervals over those games.
	BySeat [games.NumSeats]reports.Rate `json:"by_seat"`
	// Lifted counts the restricted player's decisions whose every move the
	// restriction forbade (so it was lifted), of Decisions.
	Lifted    int `json:"lifted"`
	Decisions int `json:"decisions"`
	// Repetition counts the different games: few mean the pairs repeat
	// and the interval is too narrow.
	Repetition *reports.Repetition `json:"repetition,omitempty"`
}

// Estimate is a value with its 95% interval.
type Estimate struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// EloCost is the Elo a restriction costs, with its interval; nil where the
// score is 0 or 1.
type EloCost struct {
	Value *float64 `json:"value,omitempty"`
	Low   *float64 `json:"low,omitempty"`
	High  *float64 `json:"high,omitempty"`
}

// Result is a finished worth study.
type Result struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Label   string `json:"label,omitempty"`
	Seed    uint64 `json:"seed"`
	// Games is the games per mechanic; Player the bot both sides play.
	Games  int    `json:"games_per_mechanic"`
	Player string `json:"player"`
	Rows   []Row  `json:"mechanics"`
}

// Options tune a study.
type Options struct {
	// Workers is the number of worker goroutines (0: all cores).
	Workers int
	// OnGame, if set, is called after each game, from one goroutine.
	OnGame func()
}

// Named lists the restrictions g names, as mechanics.
func Named(g games.Game) []Mechanic {
	rs, ok := g.(games.Restricter)
	if !ok {
		return nil
	}
	var out []Mechanic
	for _, r := range rs.Restrictions() {
		out = append(out, Mechanic{Label: r.Name, Restrict: bots.Restrict{Name: r.Name}, Doc: r.Doc})
	}
	return out
}

// Forbid is the mechanic of never playing a move whose notation matches
// the expression.
func Forbid(expr string) Mechanic {
	return Mechanic{Label: "forbid " + expr, Restrict: bots.Restrict{Forbid: expr}}
}

// Run measures each mechanic on the variant: its first player's bot
// against itself restricted, cfg.Games games in seat-swapped pairs on the
// variant's seed (the same deals for every mechanic).
func Run(ctx context.Context, cfg *variants.Config, mechanics []Mechanic, opts Options) (*Result, error) {
	if len(mechanics) == 0 {
		return nil, &InputError{fmt.Sprintf("%s names no restriction to measure: give --restrict NAME or --forbid REGEX", cfg.Definition.Name)}
	}
	if cfg.Games < 2 || cfg.Games%2 != 0 {
		return nil, &InputError{fmt.Sprintf("--games %d: want an even number, at least 2 (seat-swapped pairs)", cfg.Games)}
	}
	base := cfg.Players[0]
	res := &Result{Schema: SchemaV1, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Seed: cfg.Seed,
		Games: cfg.Games, Player: base.Describe()}
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	for _, m := range mechanics {
		restricted, err := base.WithRestriction(m.Restrict)
		if err == nil {
			err = restricted.CheckRestriction(g)
		}
		if err != nil {
			return nil, &InputError{fmt.Sprintf("%s: %v", m.Label, err)}
		}
		row, err := play(ctx, cfg, base, restricted, m, opts)
		if err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, *row)
	}
	return res, nil
}

// InputError is a study the user asked for that cannot be run.
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

// BadInput marks the error as the user's input (exit 2).
func (e *InputError) BadInput() bool { return true }

// play plays one mechanic's games: player 0 unrestricted, player 1 held
// to the restriction.
func play(ctx context.Context, cfg *variants.Config, base, restricted bots.Spec, m Mechanic, opts Options) (*Row, error) {
	c := *cfg
	c.Players = [games.NumSeats]bots.Spec{base, restricted}
	c.Pairs = true
	job, err := rundir.Job(&c)
	if err != nil {
		return nil, err
	}
	job.Trace = 0
	row := &Row{Mechanic: m, Games: cfg.Games}
	var pairs stats.PairSeries
	var repeats reports.RepetitionCounter
	var seatScore [games.NumSeats]float64
	var seatGames [games.NumSeats]int
	var failed error
	err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if opts.OnGame != nil {
			opts.OnGame()
		}
		if r.Err != nil {
			failed = cmp.Or(failed, error(r.Err))
			return
		}
		seat := r.SeatOf(1)
		s := r.Result.ScoreFor(seat)
		pairs.Add(r.Index, s)
		repeats.Add(r.Fingerprint)
		seatScore[seat] += s
		seatGames[seat]++
		row.Lifted += r.Lifted
		// The restricted player's decisions: half of the seats' (the
		// games are symmetric in pairs), counted exactly where possible.
		row.Decisions += r.PlayerDecisions / 2
	})
	if err = cmp.Or(err, failed); err != nil {
		return nil, fmt.Errorf("%s: %w", m.Label, err)
	}
	row.Restricted = pairs.Score(stats.Z95)
	sc := row.Restricted
	row.Worth = Estimate{Value: 0.5 - sc.Score, Low: 0.5 - sc.CI.High, High: 0.5 - sc.CI.Low}
	row.Elo = EloCost{Value: negate(sc.Elo), Low: negate(sc.EloHigh), High: negate(sc.EloLow)}
	for seat := range row.BySeat {
		n := seatGames[seat]
		iv := stats.WilsonMean(seatScore[seat]/float64(max(n, 1)), n, stats.Z95)
		row.BySeat[seat] = reports.Rate{Count: int(math.Round(seatScore[seat])), N: n, Rate: seatScore[seat] / float64(max(n, 1)), Low: iv.Low, High: iv.High}
	}
	row.Repetition = repeats.Summary()
	return row, nil
}

func negate(x *float64) *float64 {
	if x == nil {
		return nil
	}
	v := -*x
	return &v
}

// Verdict says in words what the row shows.
func (r *Row) Verdict() string {
	w := r.Worth
	switch {
	case r.Repetition.Repeated(r.Games):
		return "the games repeat: the interval overstates what is known"
	case w.Low > 0:
		return "worth having: the restricted player loses"
	case w.High < 0:
		return "a handicap: the restricted player does better without it"
	case w.Low >= -0.05 && w.High <= 0.05:
		return "worth little: within ±5 points either way"
	}
	return "not shown either way: more games would tell"
}

// WriteTable prints the study as a table with notes.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: what each mechanic is worth, %d games a mechanic in seat-swapped pairs (seed %d)\n", cmp.Or(r.Label, r.Variant), r.Games, r.Seed)
	fmt.Fprintf(w, "%s against itself held to each restriction.\n", r.Player)
	header, rows := r.cells(false)
	if err := reports.WriteStringTable(w, header, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, note)
	return err
}

// note explains the table.
const note = "worth: the points of score per game the restricted player loses (½ less its score over pairs), with the 95% pentanomial interval; Elo the same as an Elo difference; by seat: the restricted player's score in each seat (a mechanic one seat alone has, such as the pie swap, shows there); lifted: the restricted player's decisions whose every move the restriction forbade, of about half the games' decisions by a seat."

func (r *Result) cells(md bool) ([]string, [][]string) {
	header := []string{"mechanic", "worth, points (95% CI)", "Elo (95% CI)", "restricted in seat 0", "in seat 1", "lifted", "verdict"}
	esc := func(s string) string { return s }
	if md {
		esc = reports.MarkdownEscape
	}
	var rows [][]string
	for _, row := range r.Rows {
		rows = append(rows, []string{
			esc(row.Label),
			fmt.Sprintf("%+.1f (%+.1f – %+.1f)", 100*row.Worth.Value, 100*row.Worth.Low, 100*row.Worth.High),
			fmt.Sprintf("%s (%s – %s)", elo(row.Elo.Value), elo(row.Elo.Low), elo(row.Elo.High)),
			rateCell(row.BySeat[0]), rateCell(row.BySeat[1]),
			fmt.Sprintf("%s of ~%s", bots.Thousands(row.Lifted), bots.Thousands(row.Decisions)),
			esc(row.Verdict()),
		})
	}
	return header, rows
}

func elo(x *float64) string {
	if x == nil {
		return "∞"
	}
	return fmt.Sprintf("%+.0f", *x)
}

func rateCell(r reports.Rate) string {
	return fmt.Sprintf("%s (%s)", reports.FormatPercent(r.Rate), reports.FormatInterval(r.Low, r.High))
}

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error { return reports.WriteJSON(w, r) }

// WriteMarkdown writes worth.md, with the chart when figure is set.
func (r *Result) WriteMarkdown(w io.Writer, figure bool) error {
	fmt.Fprintf(w, "# What each mechanic is worth: %s (%s)\n\n", reports.MarkdownEscape(cmp.Or(r.Label, r.Variant)), reports.MarkdownEscape(r.Game))
	fmt.Fprintf(w, "%s against itself held to each restriction, %d games a mechanic in seat-swapped pairs on the same deals (seed %d).\n\n",
		reports.MarkdownEscape(r.Player), r.Games, r.Seed)
	if figure {
		fmt.Fprintf(w, "![what each mechanic is worth](plots/%s.svg)\n\n", PlotName)
	}
	header, rows := r.cells(true)
	if err := reports.WriteMarkdownTable(w, header, rows, true); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", reports.MarkdownText(note))
	var docs []string
	for _, row := range r.Rows {
		if row.Doc != "" {
			docs = append(docs, fmt.Sprintf("- %s: %s", reports.MarkdownCode(row.Label), reports.MarkdownEscape(row.Doc)))
		}
	}
	if len(docs) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(docs, "\n"))
	}
	return reports.WriteMarkdownFooter(w)
}

// PlotName is the chart's file name, without extension.
const PlotName = "worth"

// Figure draws each mechanic's worth in points with its interval, and the
// line of no worth.
func (r *Result) Figure() (*plot.Plot, error) {
	labels := make([]string, len(r.Rows))
	est := make([]reports.MetricEstimate, len(r.Rows))
	for i, row := range r.Rows {
		labels[i] = row.Label
		est[i] = reports.MetricEstimate{Value: 100 * row.Worth.Value, Low: 100 * row.Worth.Low, High: 100 * row.Worth.High, N: row.Restricted.Pairs}
	}
	title := fmt.Sprintf("%s: what each mechanic is worth (%d games each)", cmp.Or(r.Label, r.Variant), r.Games)
	return plots.EstimatesAgainst(title, "mechanic (the restricted player may not use it)", "points of score lost per game", labels, est, 0)
}
