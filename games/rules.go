package games

import (
	"fmt"
	"path"
	"reflect"
	"strings"
)

// Rules is a game's knob set: the `rules:` mapping of a variant file. A
// game's rules type is a pointer to a struct whose fields carry a `yaml` tag
// (the knob's name), a `doc` tag (its meaning) and a `default` tag (its
// default, as shown to users). Knobs whose default depends on other knobs are
// pointer or slice fields left nil until Validate resolves them.
type Rules interface {
	// Validate checks every knob and every combination of knobs and fills
	// in the defaults that depend on other knobs. Errors are *KnobError.
	Validate() error
	// NewGame builds the immutable game; call it only after Validate.
	NewGame() (Game, error)
}

// KnobSet is implemented by rules whose knobs are declared at run time
// rather than as a struct's fields: a scripted game's, by its script.
// Variant files decode their rules: mapping through it: each knob in
// KnobNames' order, its YAML value decoded (a bool, int, float64, string,
// []any or map[string]any) and handed to SetKnob, which refuses an
// unknown knob or a wrong type with a *KnobError; Validate then checks
// the whole.
type KnobSet interface {
	Rules
	KnobNames() []string
	SetKnob(name string, value any) error
}

// RulesError is implemented by errors in a game's rules themselves, such
// as a scripted game's script failing: the engine panics with one, and a
// run stops at it (it would fail every game) instead of losing one game.
type RulesError interface {
	error
	RulesError()
}

// KnobError reports an impossible knob value or combination. Knob is the
// knob's name (a dotted path for nested keys, e.g. "board.rows").
type KnobError struct {
	Knob    string
	Message string
}

func (e *KnobError) Error() string { return e.Knob + ": " + e.Message }

// KnobErrorf builds a *KnobError.
func KnobErrorf(knob, format string, args ...any) error {
	return &KnobError{Knob: knob, Message: fmt.Sprintf(format, args...)}
}

// Definition describes one game of the catalog.
type Definition struct {
	// Name is the game's catalog name, used by the `game:` key.
	Name string
	// Title is the game's display name.
	Title string
	// Summary is one line about the game.
	Summary string
	// NewRules returns rules with every knob at its default (knobs with
	// dependent defaults left unset).
	NewRules func() Rules
	// Metrics explain the figures the game reports (Metrics.AppendMetrics),
	// one line each, for glossaries in tables and reports.
	Metrics []MetricDoc
}

// MetricDoc explains one game metric, or a family of them: in Name a *
// stands for any text within one dot-separated part ("turns.*.seat*"
// covers "turns.stack.seat0").
type MetricDoc struct {
	Name string
	Doc  string
}

// Describe returns the line that explains metric, or "" if none does. In a
// per-seat metric (a part "seat0" or "seat1") the doc's "seat N" names the
// seat.
func (d *Definition) Describe(metric string) string {
	for _, m := range d.Metrics {
		if ok, _ := path.Match(strings.ReplaceAll(m.Name, ".", "/"), strings.ReplaceAll(metric, ".", "/")); ok {
			if seat := SeatOfMetric(metric); seat >= 0 {
				return strings.ReplaceAll(m.Doc, "seat N", fmt.Sprintf("seat %d", seat))
			}
			return m.Doc
		}
	}
	return ""
}

// SeatOfMetric returns the seat a per-seat metric is about (its part
// "seat0" or "seat1"), or -1.
func SeatOfMetric(metric string) int {
	for _, part := range strings.Split(metric, ".") {
		switch part {
		case "seat0":
			return 0
		case "seat1":
			return 1
		}
	}
	return -1
}

// Knob documents one knob of a game.
type Knob struct {
	Name    string
	Type    string
	Default string
	Doc     string
}

// Knobs lists the knobs of a rules (or bot parameters) value in declaration
// order, read from the struct tags of its type. A knob that is a group of
// knobs (STACKS' match) is followed by its members, named group.member.
func Knobs(r any) []Knob {
	return knobsOf(reflect.TypeOf(r), "")
}

// KnobFields are the knob fields of struct type t in declaration order,
// the fields of an embedded struct standing in its place (a bot's shared
// parameters, bots.Learning): each with its Index path for FieldByIndex.
func KnobFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if !f.Anonymous && KnobName(f) != "" {
			out = append(out, f)
		}
	}
	return out
}

func knobsOf(t reflect.Type, prefix string) []Knob {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []Knob
	for _, f := range KnobFields(t) {
		name := KnobName(f)
		out = append(out, Knob{
			Name:    prefix + name,
			Type:    typeName(f.Type),
			Default: f.Tag.Get("default"),
			Doc:     f.Tag.Get("doc"),
		})
		if group := f.Type; prefix == "" && (group.Kind() == reflect.Struct || group.Kind() == reflect.Pointer && group.Elem().Kind() == reflect.Struct) {
			out = append(out, knobsOf(group, name+".")...)
		}
	}
	return out
}

// KnobName returns the YAML name of a struct field, or "" if the field is
// not a knob.
func KnobName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return typeName(t.Elem())
	case reflect.Slice:
		return "list of " + typeName(t.Elem())
	case reflect.Struct:
		var parts []string
		for _, f := range KnobFields(t) {
			parts = append(parts, KnobName(f))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	if t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64 {
		return "integer"
	}
	return t.Kind().String()
}
