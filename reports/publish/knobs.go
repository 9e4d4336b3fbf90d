package publish

import (
	"playtest/internal/knobs"
)

// KnobRow is a rule knob of the run in the report's rules section: its
// value, and the value the preset or file gave it when --set changed it.
type KnobRow struct {
	Name, Value string
	// From is the preset's or file's value; "" when --set left the knob.
	From    string
	Changed bool
}

// Knobs lists every rule knob the run played with, in the game's order.
func (r *Report) Knobs() []KnobRow {
	list, err := knobs.List(r.Summary.Rules)
	if err != nil {
		return nil
	}
	from := map[string]string{}
	for _, c := range r.Summary.RuleChanges {
		from[c.Knob] = c.From
	}
	rows := make([]KnobRow, len(list))
	for i, k := range list {
		f, changed := from[k.Name]
		rows[i] = KnobRow{Name: k.Name, Value: k.Value, From: f, Changed: changed}
	}
	return rows
}
