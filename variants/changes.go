package variants

import (
	"slices"
	"strings"

	"playtest/internal/knobs"
	"playtest/internal/shell"
)

// RuleChanges lists the rule knobs the overrides changed: the variant
// against its own text (the preset or file) without them. Nil when no
// override touched the rules, or when they changed nothing.
func (c *Config) RuleChanges() []knobs.Change {
	if !c.overridesRules() {
		return nil
	}
	base, err := Parse(c.Source, c.DefaultName, c.Text, nil)
	if err != nil {
		return nil // cannot happen: the text decoded with the overrides on top
	}
	changes, err := knobs.Diff(base.Rules, c.Rules)
	if err != nil {
		return nil
	}
	return changes
}

// Label names the variant with what the overrides changed in its rules:
// "stacktics/size2 + board {rows: 5, cols: 3}, start_columns [0, 2]", or
// the name alone.
func (c *Config) Label() string {
	return LabelOf(c.Name, c.RuleChanges())
}

// LabelOf writes a variant's label from its name and rule changes.
func LabelOf(name string, changes []knobs.Change) string {
	if len(changes) == 0 {
		return name
	}
	return name + " + " + knobs.Label(changes)
}

// RuleArgs are the shell-quoted --set arguments that give another command
// the same rules as this variant's overrides ("--set
// 'rules.board={rows: 5, cols: 3}'"), in order; "" when none. The bots,
// games and seed are left out: a suggested command (a skill ladder, say)
// chooses its own.
func (c *Config) RuleArgs() string { return c.setArgs("rules") }

// StartArgs are RuleArgs with the overrides of the book and the opening
// too: what makes a suggested command play the same games from the same
// starts ("--set rules.cols=6 --set book=8").
func (c *Config) StartArgs() string { return c.setArgs("rules", "book", "book_bot", "opening") }

// PlayerArgs is --set arguments, shell-quoted, that give a command the
// variant's players as its overrides set them ("" when none did): with
// RuleArgs, what makes another command play the same bots on the same
// rules.
func (c *Config) PlayerArgs() string { return c.setArgs("players") }

// setArgs is the --set arguments, shell-quoted, of the overrides under
// the keys, in order, leaving out one that a later override replaces (the
// same key, or a key above it).
func (c *Config) setArgs(keys ...string) string {
	var args []string
	for i, o := range c.Overrides {
		if !slices.ContainsFunc(keys, func(key string) bool { return under(o.Path, key) }) ||
			slices.ContainsFunc(c.Overrides[i+1:], func(later Override) bool { return under(o.Path, later.Path) }) {
			continue
		}
		args = append(args, "--set", shell.Quote(o.Path+"="+o.Value))
	}
	return strings.Join(args, " ")
}

// overridesRules reports whether an override sets a rule knob.
func (c *Config) overridesRules() bool {
	for _, o := range c.Overrides {
		if under(o.Path, "rules") {
			return true
		}
	}
	return false
}

// under reports whether path is key or a key below it.
func under(path, key string) bool {
	return path == key || strings.HasPrefix(path, key+".")
}
