package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"playtest/games"
	"playtest/internal/bounded"
	"playtest/sim"
)

// GamesHeader is the header of games.csv: one row per game.
var GamesHeader = []string{"index", "seed", "pair", "swapped", "seat0_bot", "seat1_bot", "winner", "reason", "plies", "decisions", "metrics"}

// GameRow is one row of games.csv. Metrics holds the game's figures as
// "name=value" pairs separated by spaces (a name may repeat: STACKS match
// play reports one value per game of the match).
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
	w    *csv.Writer
	info RunInfo
}

// NewGamesWriter writes the header and returns a writer for the rows.
func NewGamesWriter(w io.Writer, info RunInfo) (*GamesWriter, error) {
	g := &GamesWriter{w: csv.NewWriter(w), info: info}
	return g, g.w.Write(GamesHeader)
}

// Write writes one finished game.
func (g *GamesWriter) Write(r *sim.Record) error {
	bots := [2]string{g.info.Players[r.PlayerOf(0)].Bot, g.info.Players[r.PlayerOf(1)].Bot}
	winner := "draw"
	if !r.Result.IsDraw() {
		winner = r.Result.Winner.String()
	}
	var m strings.Builder
	for i, x := range r.Metrics {
		if i > 0 {
			m.WriteByte(' ')
		}
		m.WriteString(x.Name + "=" + strconv.FormatFloat(x.Value, 'g', -1, 64))
	}
	return g.w.Write([]string{
		strconv.Itoa(r.Index), strconv.FormatUint(g.info.Seed, 10), strconv.Itoa(r.Deal), strconv.FormatBool(r.Swapped),
		bots[0], bots[1], winner, r.Result.Reason, strconv.Itoa(r.Plies), strconv.Itoa(r.Decisions), m.String(),
	})
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
	cr.FieldsPerRecord = len(GamesHeader)
	header, err := cr.Read()
	if err != nil {
		return err
	}
	if strings.Join(header, ",") != strings.Join(GamesHeader, ",") {
		return fmt.Errorf("line 1: unexpected header %q", strings.Join(header, ","))
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err // csv errors name their line
		}
		row, err := parseRow(rec)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if err := f(row); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
}

func parseRow(rec []string) (*GameRow, error) {
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
	for _, pair := range strings.Fields(rec[10]) {
		name, value, ok := strings.Cut(pair, "=")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("bad metric %q", pair)
		}
		row.Metrics = append(row.Metrics, games.Value(name, v))
	}
	return row, nil
}
