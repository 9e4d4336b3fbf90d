package solve

import (
	"fmt"
	"io"

	"playtest/reports"
)

// WriteTable prints the value, the openings and the note.
func (r *Result) WriteTable(w io.Writer) error {
	if r.Horizon > 0 {
		fmt.Fprintf(w, "%s: %s — forced results within %d decisions\n%d positions searched; %.1f s\n\n", r.Game, r.Variant, r.Horizon, r.Nodes, r.Seconds)
		if r.Value == Unknown {
			fmt.Fprintf(w, "From the start neither seat can force a win within %d decisions.\n\n", r.Horizon)
		} else {
			fmt.Fprintf(w, "From the start %s by force%s.\n\n", r.Value, plies(r.Plies, " in %d decisions"))
		}
	} else {
		fmt.Fprintf(w, "%s: %s — solved exactly\n%d positions, %d moves, %d finished positions; %.1f s\n\n", r.Game, r.Variant, r.Positions, r.Moves, r.Finished, r.Seconds)
		fmt.Fprintf(w, "Value with perfect play: %s%s.\n\n", r.Value, plies(r.Plies, " in %d decisions"))
	}
	t := reports.NewTable(w, "opening", "for seat 0", "decisions to the end", "replies that win", "replies")
	for _, o := range r.Openings {
		replies := ""
		for i, rep := range o.Replies {
			if i > 0 {
				replies += ", "
			}
			replies += fmt.Sprintf("%s: %s%s", rep.Move, rep.Value, plies(rep.Plies, " in %d"))
		}
		_ = t.Append(o.Move, o.Value, plies(o.Plies, "%d"), fmt.Sprintf("%d of %d", o.WinningReplies, o.AllReplies), replies)
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.Note)
	return err
}

func plies(p *int, format string) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(format, *p)
}
