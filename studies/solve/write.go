package solve

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"playtest/reports"
)

// WriteTable prints the value, the openings and the note.
func (r *Result) WriteTable(w io.Writer) error {
	if r.Horizon > 0 {
		fmt.Fprintf(w, "%s: %s — forced results within %s\n%d positions searched; %.1f s\n\n", r.Game, cmp.Or(r.Label, r.Variant), decisions(r.Horizon), r.Nodes, r.Seconds)
		if r.Value == Unknown {
			fmt.Fprintf(w, "%s neither seat can force a win within %d decisions.\n\n", r.where(), r.Horizon)
		} else {
			fmt.Fprintf(w, "%s %s by force%s.\n\n", r.where(), r.Value, inDecisions(r.Plies))
		}
	} else if r.Searched {
		fmt.Fprintf(w, "%s: %s — proven by alpha-beta search\n%d positions searched, %d bounds kept%s; %.1f s\n\n", r.Game, cmp.Or(r.Label, r.Variant), r.Nodes, r.Positions, r.symmetryNote(), r.Seconds)
		if len(r.From) > 0 {
			fmt.Fprintf(w, "%s:\n", r.where())
		}
		fmt.Fprintf(w, "Value with perfect play: %s.\n\n", r.Value)
	} else {
		fmt.Fprintf(w, "%s: %s — solved exactly\n%d positions, %d moves, %d finished positions%s; %.1f s\n\n", r.Game, cmp.Or(r.Label, r.Variant), r.Positions, r.Moves, r.Finished, r.symmetryNote(), r.Seconds)
		if len(r.From) > 0 {
			fmt.Fprintf(w, "%s:\n", r.where())
		}
		fmt.Fprintf(w, "Value with perfect play: %s%s.\n\n", r.Value, inDecisions(r.Plies))
	}
	if len(r.Line) > 0 {
		fmt.Fprintf(w, "The line that proves it: %s.\n\n", lineText(r.Line))
	}
	replier := "replier"
	if len(r.Openings) > 0 && r.Openings[0].Replier != "" {
		replier = r.Openings[0].Replier
	}
	opener := "seat 0's opening"
	if len(r.From) > 0 {
		opener = r.Mover + "'s move"
	}
	t := reports.NewTable(w, opener, "value for seat 0", "decisions to the end", "replies that win for "+replier, replier+"'s replies, value for "+replier)
	for _, o := range r.Openings {
		replies := ""
		for i, rep := range o.Replies {
			if i > 0 {
				replies += ", "
			}
			replies += fmt.Sprintf("%s: %s%s", rep.Move, rep.Value, plies(rep.Plies, " in %d"))
		}
		counted := fmt.Sprintf("%d of %d", o.WinningReplies, o.AllReplies)
		if o.AllReplies == 0 {
			counted = "—" // a finished game, or replies a search does not prove one by one
		}
		_ = t.Append(o.Move, o.Value, plies(o.Plies, "%d"), counted, replies)
	}
	if err := t.Render(); err != nil {
		return err
	}
	var proven []Opening
	for _, o := range r.Openings {
		if len(o.Line) > 0 {
			proven = append(proven, o)
		}
	}
	if len(proven) > 0 {
		fmt.Fprintln(w, "\nThe lines that prove each opening's value (the winner ends as fast as it can, the loser holds out longest):")
		for _, o := range proven {
			fmt.Fprintf(w, "  %s (%s for seat 0): %s\n", o.Move, o.Value, lineText(o.Line))
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.Note)
	return err
}

// where says where the proof starts: "From the start", or "After d d c
// (seat1 to move)".
func (r *Result) where() string {
	if len(r.From) == 0 {
		return "From the start"
	}
	return fmt.Sprintf("After %s (%s to move)", strings.Join(r.From, " "), r.Mover)
}

// origin names the position the proof starts from: "the start", or "the
// position after d d c".
func (r *Result) origin() string {
	if len(r.From) == 0 {
		return "the start"
	}
	return "the position after " + strings.Join(r.From, " ")
}

// lineText writes a line of play: "seat0 b1S-c2, seat1 keep, …".
func lineText(line []string) string { return strings.Join(line, ", ") }

// inDecisions writes " in N decisions" ("" without a count).
func inDecisions(p *int) string {
	if p == nil {
		return ""
	}
	return " in " + decisions(*p)
}

func plies(p *int, format string) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(format, *p)
}

// symmetryNote says the counts are of positions up to the board's
// symmetries, where they are.
func (r *Result) symmetryNote() string {
	if r.UpToSymmetry {
		return " (up to the board's symmetries: each counted once with its images)"
	}
	return ""
}
