package reports

import (
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"playtest/internal/knobs"
)

// KnobChanges lists what differs between the variants of two runs: the
// rule knobs whose values differ (in the game's order), then each player
// whose bot, budget or settings differ ("player 0"). Nil when the runs
// played the same rules and bots.
func KnobChanges(a, b *Summary) []knobs.Change {
	changes, err := knobs.Diff(a.Rules, b.Rules)
	if err != nil {
		changes = nil // a summary's rules are always a mapping
	}
	for i := range min(len(a.Players), len(b.Players)) {
		if pa, pb := a.Players[i].Describe(), b.Players[i].Describe(); pa != pb {
			changes = append(changes, knobs.Change{Knob: fmt.Sprintf("player %d", i), From: pa, To: pb})
		}
	}
	return changes
}

// knobHeader heads the table of what differs between two sides.
func knobHeader(a, b string) []string { return []string{"knob", a, b} }

func knobRows(changes []knobs.Change) [][]string {
	rows := make([][]string, len(changes))
	for i, c := range changes {
		rows[i] = []string{c.Knob, orNone(c.From), orNone(c.To)}
	}
	return rows
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// WriteKnobTable prints the knobs that differ between two sides (named a
// and b) as a terminal table, or a line saying that none does.
func WriteKnobTable(w io.Writer, a, b string, changes []knobs.Change) error {
	if len(changes) == 0 {
		_, err := fmt.Fprintln(w, "rules and bots: the same on both sides")
		return err
	}
	fmt.Fprintln(w, "what differs between the variants:")
	// Values are text, not figures: every column left-aligned.
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAlignment(tw.AlignLeft))
	t.Header(Cells(knobHeader(a, b))...)
	for _, row := range knobRows(changes) {
		_ = t.Append(Cells(row)...)
	}
	return t.Render()
}

// WriteKnobMarkdown writes the same as WriteKnobTable in Markdown.
func WriteKnobMarkdown(w io.Writer, a, b string, changes []knobs.Change) error {
	if len(changes) == 0 {
		_, err := fmt.Fprint(w, "Rules and bots: the same on both sides.\n\n")
		return err
	}
	fmt.Fprint(w, "What differs between the variants:\n\n")
	if err := WriteMarkdownTable(w, knobHeader(a, b), knobRows(changes)); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}
