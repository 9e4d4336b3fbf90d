package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"playtest/games"
)

// WriteTable draws the summary's headline figures as terminal tables: the
// outcomes per seat, per side and per player with rates and 95% Wilson
// intervals, draws by reason (stalled games apart), game length, and the
// game-specific metrics.
func (s *Summary) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s\n", s.Game, s.VariantLabel())
	pairs := ""
	if s.Pairs {
		pairs = fmt.Sprintf(", %d seat-swapped pair%s", s.Games/2, map[bool]string{true: "", false: "s"}[s.Games/2 == 1])
	}
	fmt.Fprintf(w, "%d games%s, seed %d; players: %s vs %s\n", s.Games, pairs, s.Seed, playerName(s, 0), playerName(s, 1))
	if len(s.Opening) > 0 {
		fmt.Fprintf(w, "every game starts after the opening %s\n", strings.Join(s.Opening, " "))
	}
	if text := s.BookBotText(); text != "" {
		fmt.Fprintln(w, text)
	}
	if s.Failed > 0 {
		fmt.Fprintf(w, "%d more games failed (errors.jsonl) and are left out of every figure\n", s.Failed)
	}
	if s.Headline.Text != "" {
		fmt.Fprintf(w, "\n%s\n", s.Headline.Text)
	}
	s.writeWarnings(w)
	fmt.Fprintln(w)

	t := NewTable(w, "result", "games", "rate", "95% CI")
	add := func(label string, r Rate) {
		_ = t.Append(label, fmt.Sprint(r.Count), FormatPercent(r.Rate), FormatInterval(r.Low, r.High))
	}
	add("seat 0 wins (moved first)", s.Rates.Seat0)
	add("seat 1 wins", s.Rates.Seat1)
	add("draws", s.Rates.Draw)
	for _, reason := range SortedKeys(s.DrawReasons) {
		label := "draws: " + reason
		if games.IsStalled(reason) {
			label += " (stalled)"
		}
		add(label, s.DrawReasonRate(reason))
	}
	for _, side := range s.Sides {
		add("side "+side.Name+" wins", side.Wins)
	}
	for i, p := range s.Players {
		_ = t.Append(fmt.Sprintf("player %d (%s) W-D-L, score", i, p.Bot),
			fmt.Sprintf("%d-%d-%d", p.Wins, p.Draws, p.Losses), FormatPercent(p.Score.Mean), FormatInterval(p.Score.Low, p.Score.High))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if s.Rates.Interval == IntervalPairedWilson && s.PairStats != nil {
		fmt.Fprintf(w, "seat and draw intervals are over the %d seat-swapped pairs: the two games of a deal are not independent\n", s.PairStats.Seat0.Pairs)
	}

	fmt.Fprintf(w, "\nplies: mean %.1f, median %s (p05 %s, p95 %s, max %s)", s.Plies.Mean,
		short(s.Plies.Median), short(s.Plies.P05), short(s.Plies.P95), short(s.Plies.Max))
	if len(s.WinReasons) > 0 {
		fmt.Fprintf(w, "\nwins by: %s", FormatCounts(s.WinReasons))
	}
	b := s.Balance
	fmt.Fprintf(w, "\nbalance %.2f [%.2f, %.2f], seat-bias p = %.3g (%s, n = %d%s); branching factor %.1f, choices at %s of %s",
		b.Balance.Value, b.Balance.Low, b.Balance.High, b.SeatBiasP, seatBiasTestName(b), b.SeatBiasN, exactClause(b), b.BranchingFactor, FormatPercent(b.DecisionMoves), b.DecisionsText())
	if p := s.PairStats; p != nil {
		fmt.Fprintf(w, "\npairs (pentanomial, %d): seat 0 scores %s [%s], player 0 %s [%s]; within-pair correlation %.2f", p.Seat0.Pairs,
			FormatPercent(p.Seat0.Score), FormatInterval(p.Seat0.CI.Low, p.Seat0.CI.High), FormatPercent(p.Player0.Score), FormatInterval(p.Player0.CI.Low, p.Player0.CI.High), p.Correlation)
	}
	if text := s.HowItPlays.Summary(); text != "" {
		fmt.Fprintf(w, "\nhow it plays: %s Every figure: --format json (how_it_plays) or --out DIR (report.md).", text)
	}
	fmt.Fprintln(w)
	if err := s.writeOpenings(w); err != nil {
		return err
	}
	if len(s.Metrics) > 0 {
		fmt.Fprintln(w)
		mt := NewTable(w, "metric", "n", "value", "95% CI", "min – max")
		for _, m := range s.Metrics {
			if m.Rate != nil {
				_ = mt.Append(m.Name, fmt.Sprint(m.Rate.N), FormatPercent(m.Rate.Rate), FormatInterval(m.Rate.Low, m.Rate.High), "")
			} else {
				lo, hi := m.Mean.Interval()
				_ = mt.Append(m.Name, fmt.Sprint(m.Mean.N), fmt.Sprintf("%.2f", m.Mean.Mean), fmt.Sprintf("%.2f – %.2f", lo, hi),
					short(m.Mean.Min)+" – "+short(m.Mean.Max))
			}
		}
		if err := mt.Render(); err != nil {
			return err
		}
		fmt.Fprintln(w, "  rates: Wilson intervals; whole-number figures: percentile bootstrap intervals; others: normal intervals, clamped to the range seen")
		s.writeGlossary(w)
	}
	return nil
}

// writeGlossary explains the metrics under their table, one line each; a
// per-seat pair (x.seat0, x.seat1) shares one line, as x.seatN.
func (s *Summary) writeGlossary(w io.Writer) {
	type entry struct{ name, doc string }
	var entries []entry
	width := 0
	for _, m := range s.Metrics {
		if m.Doc == "" {
			continue
		}
		e := entry{m.Name, m.Doc}
		if seat := games.SeatOfMetric(m.Name); seat >= 0 {
			digit := fmt.Sprint(seat)
			e.name = strings.Replace(m.Name, "seat"+digit, "seatN", 1)
			e.doc = strings.ReplaceAll(m.Doc, "seat "+digit, "seat N")
		}
		if !slices.Contains(entries, e) {
			entries = append(entries, e)
			width = max(width, len(e.name))
		}
	}
	for _, e := range entries {
		fmt.Fprintf(w, "  %-*s  %s\n", width, e.name, e.doc)
	}
}

// DecisionsText says over how many decisions the branching factor and
// the share of decisions with a choice were found: "10910 decisions", or
// "10910 decisions (moves counted at 682 of them)" when random bots drew
// their moves without counting them (see sim.Record.Uncounted).
func (b Balance) DecisionsText() string {
	if b.UncountedDecisions == 0 {
		return fmt.Sprintf("%d decisions", b.PlayerDecisions)
	}
	return fmt.Sprintf("%d decisions (moves counted at %d of them)", b.PlayerDecisions, b.CountedDecisions())
}

// seatBiasTestName names a summary's seat-bias test; summaries written
// before the test was recorded used the binomial test.
func seatBiasTestName(b Balance) string {
	if b.SeatBiasTest == "" {
		return TestBinomial
	}
	return b.SeatBiasTest
}

// exactClause names the exact test's p beside the score test's, when the
// summary has one.
func exactClause(b Balance) string {
	if b.SeatBiasExactTest == "" {
		return ""
	}
	return fmt.Sprintf("; the %s gives p = %.3g", strings.TrimSuffix(strings.TrimSuffix(b.SeatBiasExactTest, " over seat-swapped pairs"), " over decisive games"), b.SeatBiasExactP)
}

// SeatBiasDescription says in words which seat-bias test a summary used
// and over how much: "exact sign-flip test over seat-swapped pairs (500)".
func SeatBiasDescription(b Balance) string {
	n := b.SeatBiasN
	if n == 0 && b.SeatBiasTest == "" {
		n = b.Completion.Count
	}
	return fmt.Sprintf("%s (%d)", seatBiasTestName(b), n)
}

// writeWarnings lists the warnings, one per paragraph.
func (s *Summary) writeWarnings(w io.Writer) { WriteWarnings(w, "", s.Warnings) }

// WriteWarnings lists warnings, one per paragraph, each after a blank line
// and labelled with whose they are when label is set (a sweep's variant,
// a comparison's side).
func WriteWarnings(w io.Writer, label string, warnings []Warning) {
	if label != "" {
		label += ": "
	}
	for _, warn := range warnings {
		fmt.Fprintf(w, "\nwarning (%s%s): %s\n", label, warn.Code, warn.Message)
	}
}

// writeOpenings draws the first-decision table.
func (s *Summary) writeOpenings(w io.Writer) error {
	o := s.Openings
	if o == nil {
		return nil
	}
	fmt.Fprintf(w, "\nopenings (first decision; %d distinct over %d games):\n", o.Distinct, o.Games)
	header := []any{"opening", "games", "share", "seat 0 wins", "95% CI"}
	swaps := o.HasSwap()
	if swaps {
		header = append(header, "swapped")
	}
	t := NewTable(w, header...)
	for _, r := range o.Rows {
		row := []any{r.Move, fmt.Sprint(r.Share.Count), FormatPercent(r.Share.Rate), FormatPercent(r.Seat0Wins.Rate), FormatInterval(r.Seat0Wins.Low, r.Seat0Wins.High)}
		if swaps {
			cell := ""
			if r.Swap != nil {
				cell = FormatPercent(r.Swap.Rate)
			}
			row = append(row, cell)
		}
		_ = t.Append(row...)
	}
	return t.Render()
}

// WriteStringTable draws a table of text cells (the first column
// left-aligned, the others right-aligned, as NewTable).
func WriteStringTable(w io.Writer, header []string, rows [][]string) error {
	t := NewTable(w, anys(header)...)
	for _, row := range rows {
		_ = t.Append(anys(row)...)
	}
	return t.Render()
}

func anys(cells []string) []any {
	out := make([]any, len(cells))
	for i, c := range cells {
		out[i] = c
	}
	return out
}

// NewTable starts a terminal table with the given header: the first column
// left-aligned, the others right-aligned, headers as written.
func NewTable(w io.Writer, header ...any) *tablewriter.Table {
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}}),
	)
	t.Header(header...)
	return t
}

// FormatByInterval writes x to the precision its interval [lo, hi]
// supports: two significant digits of the interval's width (33.1 for
// 33.08 ± 0.7; 0.468 for 0.4675 ± 0.049), never an exponent, and 0 for
// float noise such as 3.5e-18. Without a width it writes the value itself
// to at most four decimals (24, not 24.0000).
func FormatByInterval(x, lo, hi float64) string {
	w := hi - lo
	if !(w > 0) || math.IsInf(w, 0) {
		// No spread: the value as it is, to at most four decimals.
		return strconv.FormatFloat(math.Round(x*1e4)/1e4+0, 'f', -1, 64)
	}
	decimals := int(min(10, max(0, 1-math.Floor(math.Log10(w)))))
	text := strconv.FormatFloat(x, 'f', decimals, 64)
	if r, _ := strconv.ParseFloat(text, 64); r == 0 {
		return strconv.FormatFloat(0, 'f', decimals, 64)
	}
	return text
}

// Cells turns a row of strings into NewTable's Append arguments.
func Cells(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// WriteMarkdownTable writes a Markdown table: the header, an alignment row
// (the first column left, the others right) and the rows, every cell
// escaped with MarkdownEscape except a row's cell where raw[column] is true
// (cells that already are Markdown, such as links). The header is always
// escaped: its cells are names (an axis's, a metric's), never markup.
func WriteMarkdownTable(w io.Writer, header []string, rows [][]string, raw ...bool) error {
	line := func(cells []string, raw []bool) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			if i < len(raw) && raw[i] {
				out[i] = c
			} else {
				out[i] = escapeMarkdown(c, false)
			}
		}
		return "| " + strings.Join(out, " | ") + " |\n"
	}
	var b strings.Builder
	b.WriteString(line(header, nil))
	b.WriteString("|---|" + strings.Repeat("---:|", max(0, len(header)-1)) + "\n")
	for _, r := range rows {
		b.WriteString(line(r, raw))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func playerName(s *Summary, i int) string {
	if i < len(s.Players) {
		return s.Players[i].Describe()
	}
	return "?"
}

// Count writes n with its noun, plural but for one: "1 round", "3
// rounds" (the noun's plural is the noun and s).
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// short writes a number with at most one decimal, without trailing zeros.
func short(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }

// FormatPercent writes a rate as a percentage: "54.3%".
func FormatPercent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// FormatInterval writes a rate's interval in percent: "51.2 – 57.4%".
func FormatInterval(lo, hi float64) string { return fmt.Sprintf("%.1f – %.1f%%", 100*lo, 100*hi) }

// FormatCounts writes counts by name as "a 3, b 1", sorted by name.
func FormatCounts(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for _, k := range SortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// SortedKeys returns a count map's names in order.
func SortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// BookBotText says that a book bot chose the openings, and that they are
// not proven ("" without a book bot): the run's header, in the table and
// the reports.
func (s *Summary) BookBotText() string {
	if s.BookBot == "" {
		return ""
	}
	return fmt.Sprintf("Each deal's first %d decisions were chosen by the book bot %s (not proven: the figures are of the game after its openings).", s.Book, s.BookBot)
}
