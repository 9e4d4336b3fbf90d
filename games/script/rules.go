package script

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"playtest/games"
)

// Rules are a scripted game's knobs, as its KNOBS mapping declares them
// (each knob's default gives its type), with the script itself
// (implements games.KnobSet). A run's config hash covers them and the
// script's digest.
type Rules struct {
	script *Script
	names  []string
	values map[string]starlark.Value
	// solver marks the rules playtest solve plays (ForSolver): no ply cap.
	solver bool
}

// Definition describes the game a script defines, for the variant that
// names it (game: ./mygame.star): its name is "script:" and the file's
// base name.
func (s *Script) Definition() (games.Definition, error) {
	names, err := s.knobs()
	if err != nil {
		return games.Definition{}, err
	}
	if err := s.checkSolverKnobs(names); err != nil {
		return games.Definition{}, err
	}
	for _, fn := range []string{"start", "turn", "moves", "play", "result"} {
		if s.function(fn) == nil {
			return games.Definition{}, s.refuse("", "the script defines no function %s(): a rules script needs start(knobs), turn(state), moves(state), play(state, move) and result(state) (docs/scripted-rules.md)", fn)
		}
	}
	name := strings.TrimSuffix(filepath.Base(s.File), filepath.Ext(s.File))
	title, _ := starlark.AsString(s.global("TITLE"))
	summary, _ := starlark.AsString(s.global("SUMMARY"))
	return games.Definition{
		Name: "script:" + name, Title: cmp.Or(title, name), Summary: cmp.Or(summary, "a game scripted in "+filepath.Base(s.File)),
		NewRules: func() games.Rules {
			r, _ := s.NewRules() // checked above
			return r
		},
	}, nil
}

// knobs reads the script's KNOBS: a dict of knob names and defaults.
func (s *Script) knobs() ([]string, error) {
	v := s.global("KNOBS")
	if v == nil {
		return nil, nil
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, s.refuse("", "KNOBS is a %s: want a dict of knob names and their defaults, e.g. KNOBS = {\"rows\": 3}", v.Type())
	}
	var names []string
	for _, item := range d.Items() {
		name, ok := starlark.AsString(item[0])
		if !ok || name == "" || name == "script" {
			return nil, s.refuse("", "KNOBS: the knob %s: want a name (a non-empty string, not \"script\")", item[0])
		}
		if _, err := toGo(item[1]); err != nil {
			return nil, s.refuse("", "KNOBS[%q]: %v", name, err)
		}
		names = append(names, name)
	}
	return names, nil
}

// checkSolverKnobs refuses a SOLVER_KNOBS that is not a dict of the
// script's knobs, each with its default's type.
func (s *Script) checkSolverKnobs(names []string) error {
	v := s.global("SOLVER_KNOBS")
	if v == nil {
		return nil
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return s.refuse("", "SOLVER_KNOBS is a %s: want a dict of knobs and the values playtest solve plays them at", v.Type())
	}
	defaults, _ := s.global("KNOBS").(*starlark.Dict)
	for _, kv := range d.Items() {
		name, _ := starlark.AsString(kv[0])
		if !slices.Contains(names, name) {
			return s.refuse("", "SOLVER_KNOBS names %s, which is not a knob of KNOBS (%s)", kv[0], strings.Join(names, ", "))
		}
		if def, _, _ := defaults.Get(kv[0]); def.Type() != kv[1].Type() {
			return s.refuse("", "SOLVER_KNOBS[%q] is %s: want a value of type %s, as its default %s", name, kv[1], def.Type(), def)
		}
	}
	return nil
}

// NewRules returns the script's rules with every knob at its default.
func (s *Script) NewRules() (*Rules, error) {
	names, err := s.knobs()
	if err != nil {
		return nil, err
	}
	r := &Rules{script: s, names: names, values: map[string]starlark.Value{}}
	if d, ok := s.global("KNOBS").(*starlark.Dict); ok {
		for _, name := range names {
			v, _, _ := d.Get(starlark.String(name))
			r.values[name] = v
		}
	}
	return r, nil
}

// Script is the script the rules come from.
func (r *Rules) Script() *Script { return r.script }

// KnobNames lists the knobs in the order KNOBS declares them.
func (r *Rules) KnobNames() []string { return r.names }

// SetKnob sets a knob from its decoded YAML value, which must have its
// default's type (an int where the default is a float is taken).
func (r *Rules) SetKnob(name string, value any) error {
	def, ok := r.values[name]
	if !ok {
		return games.KnobErrorf(name, "is not a knob of %s (its KNOBS: %s)", filepath.Base(r.script.File), strings.Join(r.names, ", "))
	}
	v, err := fromGo(value)
	if err != nil {
		return games.KnobErrorf(name, "%v", err)
	}
	if _, isFloat := def.(starlark.Float); isFloat {
		if i, isInt := v.(starlark.Int); isInt {
			f, _ := starlark.AsFloat(i)
			v = starlark.Float(f)
		}
	}
	if v.Type() != def.Type() {
		return games.KnobErrorf(name, "want a %s, as its default %s, got %s", def.Type(), def, v)
	}
	r.values[name] = v
	return nil
}

// knobDict is the knobs as a frozen dict for the script's calls.
func (r *Rules) knobDict() *starlark.Dict {
	d := starlark.NewDict(len(r.names))
	for _, name := range r.names {
		_ = d.SetKey(starlark.String(name), r.values[name])
	}
	d.Freeze()
	return d
}

// Validate asks the script's check(knobs), if it defines one: None for
// valid knobs, or a message, or (knob, message).
func (r *Rules) Validate() error {
	if r.script.function("check") == nil {
		return nil
	}
	v, err := r.script.call("check", r.knobDict())
	if err != nil {
		return err
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil
	case starlark.String:
		return games.KnobErrorf("", "%s", string(x))
	case starlark.Tuple:
		if len(x) == 2 {
			knob, ok1 := starlark.AsString(x[0])
			msg, ok2 := starlark.AsString(x[1])
			if ok1 && ok2 {
				if _, known := r.values[knob]; known {
					return games.KnobErrorf(knob, "%s", msg)
				}
			}
		}
	}
	return r.script.refuse("check", "returned %s: want None for valid knobs, a message, or (knob, message)", v)
}

// NewGame builds the game; call it after Validate.
func (r *Rules) NewGame() (games.Game, error) { return newGame(r) }

// MarshalJSON writes the knobs in order, then the script's digest: what
// a run's config hash and its reports' list of rules show.
func (r *Rules) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for _, name := range r.names {
		v, err := toGo(r.values[name])
		if err != nil {
			return nil, err
		}
		k, _ := json.Marshal(name)
		val, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s:%s,", k, val)
	}
	digest, _ := json.Marshal(r.script.Digest)
	if r.solver {
		// The solver's copy plays without the host's ply cap: its rules
		// differ from the variant's (solve's note says what was set aside).
		b.WriteString("\"host_ply_cap\":false,")
	}
	fmt.Fprintf(&b, "\"script\":%s}", digest)
	return b.Bytes(), nil
}

// toGo converts a knob's value for JSON: None, bools, ints, floats,
// strings, and lists or dicts of them.
func toGo(v starlark.Value) (any, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int:
		i, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("%s does not fit 64 bits", x)
		}
		return i, nil
	case starlark.Float:
		return float64(x), nil
	case starlark.String:
		return string(x), nil
	case *starlark.List, starlark.Tuple:
		var out []any
		iter := starlark.Iterate(x)
		defer iter.Done()
		var item starlark.Value
		for iter.Next(&item) {
			g, err := toGo(item)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	case *starlark.Dict:
		out := map[string]any{}
		for _, kv := range x.Items() {
			k, ok := starlark.AsString(kv[0])
			if !ok {
				return nil, fmt.Errorf("a dict key %s is not a string", kv[0])
			}
			g, err := toGo(kv[1])
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %s cannot be a knob's value (want None, a bool, int, float, string, or a list or dict of them)", v.Type())
}

// fromGo converts a decoded YAML value into a frozen Starlark value.
func fromGo(v any) (starlark.Value, error) {
	var out starlark.Value
	switch x := v.(type) {
	case nil:
		out = starlark.None
	case bool:
		out = starlark.Bool(x)
	case int:
		out = starlark.MakeInt(x)
	case int64:
		out = starlark.MakeInt64(x)
	case float64:
		out = starlark.Float(x)
	case string:
		out = starlark.String(x)
	case []any:
		items := make([]starlark.Value, len(x))
		for i, e := range x {
			g, err := fromGo(e)
			if err != nil {
				return nil, err
			}
			items[i] = g
		}
		out = starlark.NewList(items)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := starlark.NewDict(len(x))
		for _, k := range keys {
			g, err := fromGo(x[k])
			if err != nil {
				return nil, err
			}
			_ = d.SetKey(starlark.String(k), g)
		}
		out = d
	default:
		return nil, fmt.Errorf("a %T cannot be a knob's value", v)
	}
	out.Freeze()
	return out, nil
}

// ForSolver returns the rules playtest solve plays (implements
// games.SolverRules): with the knobs of the script's SOLVER_KNOBS set,
// which should turn off the endings that depend on the history (a
// repetition rule, a move cap), as the solver counts endless play a draw
// itself.
func (r *Rules) ForSolver() games.Rules {
	c := &Rules{script: r.script, names: r.names, values: maps.Clone(r.values), solver: true}
	if d, ok := r.script.global("SOLVER_KNOBS").(*starlark.Dict); ok {
		for _, kv := range d.Items() {
			name, _ := starlark.AsString(kv[0])
			if _, known := c.values[name]; known && kv[1].Type() == c.values[name].Type() {
				c.values[name] = kv[1]
			}
		}
	}
	return c
}

// plyCap is the decisions of the seats after which the host ends a game
// (DefaultMaxPlies): MAX_PLIES, or twice the knob max_plies, or the
// default; none for playtest solve.
func (r *Rules) plyCap() (int, error) {
	if r.solver {
		return 0, nil
	}
	if v := r.script.global("MAX_PLIES"); v != nil {
		n, err := starlark.AsInt32(v)
		if err != nil || n < 1 || n > 1_000_000 {
			return 0, r.script.refuse("", "MAX_PLIES is %s: want a whole number from 1 to 1000000, the most moves a game may last (the host ends it then, a draw for max-plies)", v)
		}
		return n, nil
	}
	if n := r.MoveCap(); n > 0 {
		return max(DefaultMaxPlies, min(2*n, 2_000_000)), nil
	}
	return DefaultMaxPlies, nil
}

// MoveCap is the knob max_plies, where the script has one (0 otherwise).
func (r *Rules) MoveCap() int {
	if v, ok := r.values["max_plies"].(starlark.Int); ok {
		if n, ok := v.Int64(); ok && n > 0 && n < 1<<31 {
			return int(n)
		}
	}
	return 0
}
