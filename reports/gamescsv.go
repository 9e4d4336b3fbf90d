package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"playtest/games"
	"playtest/internal/bounded"
	"playtest/sim"
)

// GamesHeader is the start of games.csv's header: one row per game, these
// columns, then one column per game metric (wide format, so the file loads
// straight into a spreadsheet or pandas). A metric's cell is empty in a
// game that did not report it, and holds several values separated by
// spaces when a game reports it several times (STACKS match play: one per
// game of the match).
var GamesHeader = []string{"index", "seed", "pair", "swapped", "seat0_bot", "seat1_bot", "winner", "reason", "plies", "decisions"}

// GameRow is one row of games.csv. Metrics holds the game's figures in the
// order of the metric columns.
type GameRow struct {
	Index     int
	Seed      uint64
	Pair      int
	Swapped   bool
	Bots      [games.NumSeats]string
	Winner    string // seat0, seat1 or draw
	Reason    string
	Plies     int
	Decisions int
	Metrics   []games.Metric
}

// GamesWriter writes games.csv as games finish.
type GamesWriter struct {
	w       *csv.Writer
	info    RunInfo
	metrics []string
	column  map[string]int
}

// NewGamesWriter writes the header, with a column for each of metrics
// (the run's metric names, as the summary lists them), and returns a
// writer for the rows.
func NewGamesWriter(w io.Writer, info RunInfo, metrics []string) (*GamesWriter, error) {
	g := &GamesWriter{w: csv.NewWriter(w), info: info, metrics: metrics, column: map[string]int{}}
	for i, name := range metrics {
		g.column[name] = i
	}
	return g, g.w.Write(append(slices.Clone(GamesHeader), metrics...))
}

// Write writes one finished game.
func (g *GamesWriter) Write(r *sim.Record) error {
	bots := [2]string{g.info.Players[r.PlayerOf(0)].Bot, g.info.Players[r.PlayerOf(1)].Bot}
	winner := "draw"
	if !r.Result.IsDraw() {
		winner = r.Result.Winner.String()
	}
	cells := make([]string, len(g.metrics))
	for _, x := range r.Metrics {
		i, ok := g.column[x.Name]
		if !ok {
			return fmt.Errorf("game %d reports metric %q, which the run's summary does not list", r.Index, x.Name)
		}
		v := strconv.FormatFloat(x.Value, 'g', -1, 64)
		if cells[i] != "" {
			v = cells[i] + " " + v
		}
		cells[i] = v
	}
	return g.w.Write(append([]string{
		strconv.Itoa(r.Index), strconv.FormatUint(g.info.Seed, 10), strconv.Itoa(r.Deal), strconv.FormatBool(r.Swapped),
		bots[0], bots[1], winner, r.Result.Reason, strconv.Itoa(r.Plies), strconv.Itoa(r.Decisions),
	}, cells...))
}

// Flush writes any buffered rows and reports a write error.
func (g *GamesWriter) Flush() error {
	g.w.Flush()
	return g.w.Error()
}

// MaxLineSize bounds a games.csv line ReadGames accepts.
const MaxLineSize = 1 << 20

// ReadGames reads games.csv and calls f with each row in order. Metric
// kinds are not stored: every metric comes back as a value. Errors name
// the line (f's too); lines are at most MaxLineSize long.
func ReadGames(r io.Reader, f func(*GameRow) error) error {
	cr := csv.NewReader(bounded.Lines(r, MaxLineSize))
	header, err := cr.Read()
	if err != nil {
		return err
	}
	if len(header) < len(GamesHeader) || strings.Join(header[:len(GamesHeader)], ",") != strings.Join(GamesHeader, ",") {
		return fmt.Errorf("line 1: unexpected header %q", strings.Join(header, ","))
	}
	metrics := header[len(GamesHeader):]
	cr.FieldsPerRecord = len(header)
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err // csv errors name their line
		}
		row, err := parseRow(rec, metrics)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if err := f(row); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
}

func parseRow(rec, metrics []string) (*GameRow, error) {
	row := &GameRow{Bots: [2]string{rec[4], rec[5]}, Winner: rec[6], Reason: rec[7]}
	var err error
	ints := []struct {
		dst  *int
		text string
	}{{&row.Index, rec[0]}, {&row.Pair, rec[2]}, {&row.Plies, rec[8]}, {&row.Decisions, rec[9]}}
	for _, x := range ints {
		if *x.dst, err = strconv.Atoi(x.text); err != nil {
			return nil, fmt.Errorf("bad number %q", x.text)
		}
	}
	if row.Seed, err = strconv.ParseUint(rec[1], 10, 64); err != nil {
		return nil, fmt.Errorf("bad seed %q", rec[1])
	}
	if row.Swapped, err = strconv.ParseBool(rec[3]); err != nil {
		return nil, fmt.Errorf("bad swapped %q", rec[3])
	}
	for i, name := range metrics {
		for _, value := range strings.Fields(rec[len(GamesHeader)+i]) {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return nil, fmt.Errorf("bad %s value %q", name, value)
			}
			row.Metrics = append(row.Metrics, games.Value(name, v))
		}
	}
	return row, nil
}
