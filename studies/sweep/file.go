package sweep

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/configs"
	"playtest/variants"
)

// Dir is the directory of the embedded sweeps in configs.
const Dir = "sweeps"

// BaseKey is the axis key that chooses the base variant (a preset or a
// file) instead of setting a knob.
const BaseKey = "base"

// DefaultMetric is the metric a sweep plots when it names none.
const DefaultMetric = "seat0_wins"

// Sweep is a decoded sweep file.
type Sweep struct {
	// Source is the file's path, or "sweep <name>" for an embedded one.
	Source      string
	Name        string
	Description string
	// Base is the variant every point starts from (a preset or a file),
	// unless an axis sets BaseKey.
	Base string
	// Games and Seed, when set, apply to every variant; otherwise the
	// first variant's apply to all, so that they share seeds.
	Games int
	Seed  *uint64
	// Metric is the metric plotted against the axes.
	Metric string
	// Set are overrides applied to every variant.
	Set []Setting
	// Axes are crossed, the first varying slowest.
	Axes []Axis
	// Exclude are combinations of axis values left out of the space.
	Exclude []Exclusion
	// Objective is the space's objective: node for playtest tune (package
	// tune decodes it; a sweep ignores it), nil when it has none.
	Objective *yaml.Node
	// SkipInvalid leaves out the points whose variant is refused (a
	// combination of knobs the rules do not allow) instead of failing
	// (invalid: skip).
	SkipInvalid bool
	// dir resolves relative file paths of a sweep read from a file.
	dir string
}

// Axis is one dimension of a sweep: the labels of its values and, for each
// value, the settings it makes (several when the axis zips keys).
type Axis struct {
	Name   string
	Labels []string
	Values [][]Setting
}

// Exclusion leaves out every point whose value on each named axis is
// one of the listed ones: Values[axis] holds value indices, nil for an
// axis not named.
type Exclusion struct {
	Values [][]int
	// Origin names the sweep file's line of the exclusion.
	Origin string
}

// Excludes reports whether the exclusion leaves out the point.
func (e Exclusion) Excludes(pt Point) bool {
	for ax, allowed := range e.Values {
		if allowed != nil && !slices.Contains(allowed, pt.Values[ax]) {
			return false
		}
	}
	return true
}

// Setting sets one key of a variant (or the base, for BaseKey) to YAML text.
type Setting struct {
	Key, Value string
	// Origin names the sweep file's line that made the setting.
	Origin string
}

var topKeys = []string{"name", "description", "base", "games", "seed", "metric", "set", "axes", "exclude", "invalid", "objective"}
var axisKeys = []string{"name", "key", "values", "zip", "labels"}

// reserved are the variant keys an axis may not vary: the sweep sets them
// for every variant alike.
var reserved = []string{"games", "seed", "pairs", "name", "description", "expect"}

// Names lists the embedded sweeps, sorted.
func Names() []string { return NamesIn(Dir) }

// NamesIn lists the embedded spaces of configs/DIR (sweeps, tunes), sorted.
func NamesIn(dir string) []string {
	var names []string
	_ = fs.WalkDir(configs.FS, dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && path.Ext(p) == ".yaml" {
			names = append(names, strings.TrimSuffix(path.Base(p), ".yaml"))
		}
		return nil
	})
	slices.Sort(names)
	return names
}

// Load reads a sweep: a file path (an existing file wins) or the name of an
// embedded sweep (with or without "sweeps/").
func Load(arg string) (*Sweep, error) { return LoadIn(arg, Dir) }

// LoadIn reads a sweep file, or the embedded one named arg in configs/DIR
// (with or without "DIR/"), trying dirs in order: sweeps, or the spaces
// tune races (tunes, then sweeps).
func LoadIn(arg string, dirs ...string) (*Sweep, error) {
	// A directory of that name (an --out DIR named after the sweep, say)
	// is not a sweep file: the name is an embedded sweep's.
	if info, err := os.Stat(arg); err == nil && !info.IsDir() {
		text, err := variants.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		s, err := Parse(arg, text)
		if s != nil {
			s.dir = filepath.Dir(arg)
		}
		return s, err
	}
	var all, kinds []string
	for _, dir := range dirs {
		kinds = append(kinds, strings.TrimSuffix(dir, "s"))
		name := strings.TrimSuffix(strings.TrimPrefix(arg, dir+"/"), ".yaml")
		if text, err := configs.FS.ReadFile(dir + "/" + name + ".yaml"); err == nil {
			return Parse(strings.TrimSuffix(dir, "s")+" "+name, text)
		}
		all = append(all, NamesIn(dir)...)
	}
	name := path.Base(strings.TrimSuffix(arg, ".yaml"))
	return nil, &variants.Error{File: arg, Message: "no such file, and no embedded " + strings.Join(kinds, " or ") + " of that name" +
		variants.Suggestion(name, all) + "; " + strings.Join(dirs, " and ") + ": " + strings.Join(all, ", ")}
}

// Parse decodes sweep text read from file, strictly: unknown keys, wrong
// types and axes of unequal length are errors naming the file, line and key.
func Parse(file string, text []byte) (*Sweep, error) {
	p := parser{file: file}
	doc, err := variants.OneDocument(file, text)
	if err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, &variants.Error{File: file, Message: "the file is empty: a sweep needs base: and axes:"}
	}
	root := doc.Content[0]
	s := &Sweep{Source: file, Name: strings.TrimSuffix(filepath.Base(file), ".yaml"), Metric: DefaultMetric}
	s.Name = strings.TrimPrefix(s.Name, "sweep ")
	var excludeNode *yaml.Node
	err = p.mapping(root, "", topKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			s.Name, err = p.str(v, key)
		case "description":
			s.Description, err = p.str(v, key)
		case "base":
			s.Base, err = p.str(v, key)
		case "metric":
			s.Metric, err = p.str(v, key)
		case "games":
			s.Games, err = p.integer(v, key)
			if err == nil && (s.Games < 1 || s.Games > variants.MaxGames) {
				err = p.errorf(v, key, "must be between 1 and %d, got %d", variants.MaxGames, s.Games)
			}
		case "seed":
			var n uint64
			if n, err = strconv.ParseUint(v.Value, 0, 64); err != nil || v.Kind != yaml.ScalarNode {
				err = p.errorf(v, key, "want a whole number ≥ 0, got %q", v.Value)
			} else {
				s.Seed = &n
			}
		case "set":
			err = p.mapping(v, key, nil, func(setKey string, k, val *yaml.Node) error {
				set, err := p.setting(setKey, val, key+"."+setKey)
				s.Set = append(s.Set, set)
				return err
			})
		case "exclude":
			excludeNode = v
		case "objective":
			s.Objective = v
		case "invalid":
			switch v.Value {
			case "skip", "error":
				s.SkipInvalid = v.Value == "skip"
			default:
				err = p.errorf(v, key, "want skip (leave out the combinations the rules refuse) or error (the default), got %s", variants.Describe(v))
			}
		case "axes":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return p.errorf(v, key, "want a list of axes, each with key: and values: or with zip:")
			}
			for i, a := range v.Content {
				axis, err := p.axis(a, fmt.Sprintf("axes[%d]", i))
				if err != nil {
					return err
				}
				s.Axes = append(s.Axes, axis)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.Axes == nil {
		return nil, p.errorf(root, "axes", "is required: a list of axes, each with key: and values: or with zip:")
	}
	if s.Base == "" && !s.setsBase() {
		return nil, p.errorf(root, "base", "is required (a preset or variant file), unless an axis sets base")
	}
	names := map[string]bool{}
	for i, a := range s.Axes {
		if names[a.Name] {
			return nil, &variants.Error{File: file, Key: fmt.Sprintf("axes[%d].name", i), Message: fmt.Sprintf("%q names two axes", a.Name)}
		}
		names[a.Name] = true
	}
	if excludeNode != nil {
		if s.Exclude, err = p.exclusions(excludeNode, s.Axes); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// exclusions decodes exclude: a list of mappings from axis names to a
// value's label or a list of labels.
func (p *parser) exclusions(n *yaml.Node, axes []Axis) ([]Exclusion, error) {
	if err := p.list(n, "exclude"); err != nil {
		return nil, err
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.Name)
	}
	var out []Exclusion
	for i, item := range n.Content {
		path := fmt.Sprintf("exclude[%d]", i)
		e := Exclusion{Values: make([][]int, len(axes)), Origin: fmt.Sprintf("%s:%d %s", p.file, item.Line, path)}
		err := p.mapping(item, path, nil, func(name string, k, v *yaml.Node) error {
			ax := slices.Index(names, name)
			if ax < 0 {
				return p.errorf(k, path+"."+name, "no axis is named %q%s; the axes: %s", name, variants.Suggestion(name, names), strings.Join(names, ", "))
			}
			values := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				if err := p.list(v, path+"."+name); err != nil {
					return err
				}
				values = v.Content
			}
			for _, val := range values {
				l := slices.Index(axes[ax].Labels, label(val))
				if l < 0 {
					return p.errorf(val, path+"."+name, "axis %s has no value %s%s; its values: %s", name, label(val), variants.Suggestion(label(val), axes[ax].Labels), strings.Join(axes[ax].Labels, ", "))
				}
				e.Values[ax] = append(e.Values[ax], l)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(item.Content) == 0 {
			return nil, p.errorf(item, path, "want a mapping of axis names to the values to leave out")
		}
		out = append(out, e)
	}
	return out, nil
}

// setsBase says whether an axis chooses the base variant.
func (s *Sweep) setsBase() bool {
	for _, a := range s.Axes {
		for _, set := range a.Values[0] {
			if set.Key == BaseKey {
				return true
			}
		}
	}
	return false
}

// parser reads the YAML of a sweep file.
type parser struct{ file string }

func (p *parser) errorf(n *yaml.Node, key, format string, args ...any) *variants.Error {
	return &variants.Error{File: p.file, Line: n.Line, Key: key, Message: fmt.Sprintf(format, args...)}
}

// mapping calls f for each key of a mapping in order; known, if not nil,
// lists the allowed keys.
func (p *parser) mapping(n *yaml.Node, path string, known []string, f func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, path, "want a mapping, got %s", variants.Describe(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		full := k.Value
		if path != "" {
			full = path + "." + k.Value
		}
		if known != nil && !slices.Contains(known, k.Value) {
			return p.errorf(k, full, "unknown key%s; known keys: %s", variants.Suggestion(k.Value, known), strings.Join(known, ", "))
		}
		if seen[k.Value] {
			return p.errorf(k, full, "appears twice")
		}
		seen[k.Value] = true
		if err := f(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) str(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Value == "" {
		return "", p.errorf(n, key, "want a non-empty string, got %s", variants.Describe(n))
	}
	return n.Value, nil
}

func (p *parser) integer(n *yaml.Node, key string) (int, error) {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return 0, p.errorf(n, key, "want a whole number, got %s", variants.Describe(n))
	}
	return v, nil
}

// setting makes the setting of key to the value node found at path.
func (p *parser) setting(key string, v *yaml.Node, path string) (Setting, error) {
	origin := fmt.Sprintf("%s:%d %s", p.file, v.Line, path)
	top, _, _ := strings.Cut(key, ".")
	switch {
	case key == "":
		return Setting{}, p.errorf(v, path, "empty key")
	case slices.Contains(reserved, top):
		return Setting{}, p.errorf(v, path, "%s is the same for every variant of a sweep: set it at the top of the sweep file or on the command line", top)
	case key == BaseKey && (v.Kind != yaml.ScalarNode || v.Value == ""):
		return Setting{}, p.errorf(v, path, "base: want a preset or variant file, got %s", variants.Describe(v))
	}
	text, err := yaml.Marshal(v)
	if err != nil {
		return Setting{}, p.errorf(v, path, "%v", err)
	}
	return Setting{Key: key, Value: strings.TrimSpace(string(text)), Origin: origin}, nil
}

// label is how a value shows in tables and plots: its text, in flow style.
func label(v *yaml.Node) string {
	c := *v
	c.Style |= yaml.FlowStyle
	for _, child := range c.Content {
		child.Style |= yaml.FlowStyle
	}
	text, err := yaml.Marshal(&c)
	if err != nil {
		return v.Value
	}
	return strings.TrimSpace(string(text))
}

// axis decodes one axis: key: with values:, or zip: (keys to lists of equal
// length); labels: optional.
func (p *parser) axis(n *yaml.Node, path string) (Axis, error) {
	var a Axis
	var key string
	var keyNode, valuesNode, zipNode, labelsNode *yaml.Node
	err := p.mapping(n, path, axisKeys, func(k string, kn, v *yaml.Node) error {
		switch k {
		case "name":
			var err error
			a.Name, err = p.str(v, path+".name")
			return err
		case "key":
			keyNode = v
			var err error
			key, err = p.str(v, path+".key")
			return err
		case "values":
			valuesNode = v
		case "zip":
			zipNode = v
		case "labels":
			labelsNode = v
		}
		return nil
	})
	if err != nil {
		return a, err
	}
	switch {
	case keyNode != nil && zipNode != nil:
		return a, p.errorf(zipNode, path+".zip", "an axis has either key: and values:, or zip:")
	case keyNode != nil:
		if valuesNode == nil {
			return a, p.errorf(n, path+".values", "is required with key:")
		}
		values, err := p.values(valuesNode, path+".values")
		if err != nil {
			return a, err
		}
		for i, v := range values {
			set, err := p.setting(key, v, fmt.Sprintf("%s.values[%d]", path, i))
			if err != nil {
				return a, err
			}
			a.Values = append(a.Values, []Setting{set})
			a.Labels = append(a.Labels, label(v))
		}
		if a.Name == "" {
			a.Name = key[strings.LastIndex(key, ".")+1:]
		}
	case zipNode != nil:
		if valuesNode != nil {
			return a, p.errorf(valuesNode, path+".values", "an axis with zip: takes its values from the zipped lists")
		}
		var names []string
		err := p.mapping(zipNode, path+".zip", nil, func(k string, kn, v *yaml.Node) error {
			zpath := path + ".zip." + k
			items, err := p.values(v, zpath)
			if err != nil {
				return err
			}
			if a.Values != nil && len(items) != len(a.Values) {
				return p.errorf(v, zpath, "has %d values, but the axis's first key has %d: zipped lists must be of equal length", len(items), len(a.Values))
			}
			if a.Values == nil {
				a.Values = make([][]Setting, len(items))
				a.Labels = make([]string, len(items))
			}
			for i, item := range items {
				set, err := p.setting(k, item, fmt.Sprintf("%s[%d]", zpath, i))
				if err != nil {
					return err
				}
				a.Values[i] = append(a.Values[i], set)
				if a.Labels[i] != "" {
					a.Labels[i] += " "
				}
				a.Labels[i] += label(item)
			}
			names = append(names, k[strings.LastIndex(k, ".")+1:])
			return nil
		})
		if err != nil {
			return a, err
		}
		if len(a.Values) == 0 {
			return a, p.errorf(zipNode, path+".zip", "want at least one key with a list of values")
		}
		if a.Name == "" {
			a.Name = strings.Join(names, "+")
		}
	default:
		return a, p.errorf(n, path, "want key: with values:, or zip:")
	}
	if labelsNode != nil {
		if err := p.list(labelsNode, path+".labels"); err != nil {
			return a, err
		}
		if len(labelsNode.Content) != len(a.Values) {
			return a, p.errorf(labelsNode, path+".labels", "has %d labels for %d values", len(labelsNode.Content), len(a.Values))
		}
		for i, l := range labelsNode.Content {
			if l.Kind != yaml.ScalarNode {
				return a, p.errorf(l, fmt.Sprintf("%s.labels[%d]", path, i), "want a string, got %s", variants.Describe(l))
			}
			a.Labels[i] = l.Value
		}
	}
	seen := map[string]bool{}
	for _, l := range a.Labels {
		if seen[l] {
			return a, p.errorf(n, path, "two values have the label %q: give labels: to tell them apart", l)
		}
		seen[l] = true
	}
	return a, nil
}

// MaxRange is the most values a range of an axis may make.
const MaxRange = 1000

// values decodes an axis's values: a list, or a range {from, to, step}
// of numbers (whole numbers when all three are), from and to included.
func (p *parser) values(n *yaml.Node, path string) ([]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		if err := p.list(n, path); err != nil {
			return nil, err
		}
		return n.Content, nil
	}
	var bounds [3]float64
	whole := true
	seen := 0
	err := p.mapping(n, path, []string{"from", "to", "step"}, func(k string, kn, v *yaml.Node) error {
		i := map[string]int{"from": 0, "to": 1, "step": 2}[k]
		x, err := strconv.ParseFloat(v.Value, 64)
		if v.Kind != yaml.ScalarNode || err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return p.errorf(v, path+"."+k, "want a number, got %s", variants.Describe(v))
		}
		_, errInt := strconv.Atoi(v.Value)
		whole = whole && errInt == nil
		bounds[i] = x
		seen |= 1 << i
		return nil
	})
	if err != nil {
		return nil, err
	}
	from, to, step := bounds[0], bounds[1], bounds[2]
	switch {
	case seen != 7:
		return nil, p.errorf(n, path, "a range wants from:, to: and step:, e.g. {from: 0, to: 6, step: 2}")
	case !(step > 0) || to < from:
		return nil, p.errorf(n, path, "want from ≤ to and a step above 0, got from %g, to %g, step %g", from, to, step)
	case (to-from)/step+1 > MaxRange:
		return nil, p.errorf(n, path, "the range makes %.0f values, more than %d", math.Floor((to-from)/step+1), MaxRange)
	}
	var out []*yaml.Node
	for i := 0; ; i++ {
		x := from + float64(i)*step
		if x > to+step*1e-9 {
			break
		}
		text := strconv.FormatFloat(x, 'f', -1, 64)
		if whole {
			text = strconv.FormatInt(int64(math.Round(x)), 10)
		} else {
			// Cut the float noise of from + i·step: as many decimals as
			// the range's numbers need, at most 12.
			text = strconv.FormatFloat(x, 'f', decimals(from, step), 64)
			text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
			if text == "" || text == "-" {
				text = "0"
			}
		}
		tag := "!!float"
		if whole {
			tag = "!!int"
		}
		out = append(out, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text, Line: n.Line, Column: n.Column})
	}
	return out, nil
}

// decimals is how many decimals the numbers of a range need to be
// written exactly, at most 12.
func decimals(xs ...float64) int {
	d := 0
	for _, x := range xs {
		for d < 12 {
			if y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64); y == x {
				break
			}
			d++
		}
	}
	return d
}

func (p *parser) list(n *yaml.Node, path string) error {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return p.errorf(n, path, "want a non-empty list, got %s", variants.Describe(n))
	}
	return nil
}
