package variants

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/games"
)

// Error is a problem with a variant: where it is (a file and line, or the
// override that caused it), which key, and what is wrong.
type Error struct {
	// File is the variant file's path, or the preset's name.
	File string
	// Line is the 1-based line of the offending key or value (0: unknown).
	Line int
	// Override is the --set or flag the offending value came from, if any.
	Override string
	// Key is the dotted path of the key, e.g. "rules.board.rows".
	Key string
	// Message says what is wrong, with a suggestion where one helps.
	Message string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Override != "":
		fmt.Fprintf(&b, " (%s)", e.Override)
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Errors are several problems with one variant, in file order: a variant
// reports every problem it can find at once, not one per run.
type Errors []*Error

// MaxListed is how many problems an Errors message lists.
const MaxListed = 20

func (es Errors) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems:", len(es))
	for i, e := range es {
		if i == MaxListed {
			fmt.Fprintf(&b, "\n  … and %d more", len(es)-MaxListed)
			break
		}
		b.WriteString("\n  " + e.Error())
	}
	return b.String()
}

// Unwrap gives the problems one by one (errors.As finds the first *Error).
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// problems lists the located problems an error holds: one *Error, or
// Errors; nil for any other error.
func problems(err error) Errors {
	switch e := err.(type) {
	case *Error:
		return Errors{e}
	case Errors:
		return e
	}
	return nil
}

// collect gathers errors as a variant is decoded and combines them: nil,
// the one error, or Errors in file order.
type collect struct{ errs []error }

func (c *collect) add(err error) {
	if err != nil {
		c.errs = append(c.errs, err)
	}
}

// names reports whether a gathered problem is about key or a key within
// it (or key within the problem's key).
func (c *collect) names(key string) bool {
	for _, err := range c.errs {
		for _, e := range problems(err) {
			if e.Key == key || strings.HasPrefix(key, e.Key+".") || strings.HasPrefix(e.Key, key+".") {
				return true
			}
		}
	}
	return false
}

func (c *collect) err() error {
	var list Errors
	for _, err := range c.errs {
		located := problems(err)
		if located == nil {
			return err // not a located problem: report it alone
		}
		list = append(list, located...)
	}
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	slices.SortStableFunc(list, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
	return list
}

// decoder turns YAML nodes into Go values strictly, reporting errors with
// the file, line and key.
type decoder struct {
	file string
	// origin maps nodes created by overrides to the override's text.
	origin map[*yaml.Node]string
}

func (d *decoder) errorf(n *yaml.Node, key, format string, args ...any) *Error {
	e := &Error{File: d.file, Key: key, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		if o, ok := d.origin[n]; ok {
			e.Override = o
		} else {
			e.Line = n.Line
		}
	}
	return e
}

// join appends a key to a dotted path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// pair is one key and its value in a mapping node.
type pair struct {
	key, value *yaml.Node
}

// pairs lists a mapping's entries, rejecting non-scalar and duplicated keys.
func (d *decoder) pairs(n *yaml.Node, path string) ([]pair, error) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, path, "want a mapping of keys to values, got %s", Describe(n))
	}
	out := make([]pair, 0, len(n.Content)/2)
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errorf(k, path, "keys must be plain names, got %s", Describe(k))
		}
		if first, ok := seen[k.Value]; ok {
			return nil, d.errorf(k, join(path, k.Value), "is set twice (first on line %d)", first.Line)
		}
		seen[k.Value] = k
		out = append(out, pair{k, v})
	}
	return out, nil
}

// unknownKey reports a key that is not among known, suggesting the closest.
func (d *decoder) unknownKey(k *yaml.Node, path string, known []string) *Error {
	msg := "unknown key"
	msg += Suggestion(k.Value, known)
	msg += "; known keys: " + strings.Join(known, ", ")
	return d.errorf(k, join(path, k.Value), "%s", msg)
}

// decodeStruct decodes a mapping into the struct v points to, by the
// fields' yaml tags.
func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) error {
	ps, err := d.pairs(n, path)
	if err != nil {
		return err
	}
	var known []string
	index := map[string][]int{}
	for _, f := range games.KnobFields(v.Type()) {
		name := games.KnobName(f)
		known = append(known, name)
		index[name] = f.Index
	}
	var errs collect
	for _, p := range ps {
		i, ok := index[p.key.Value]
		if !ok {
			errs.add(d.unknownKey(p.key, path, known))
			continue
		}
		errs.add(d.decodeValue(p.value, v.FieldByIndex(i), join(path, p.key.Value)))
	}
	return errs.err()
}

// decodeValue decodes a node into v by v's kind.
func (d *decoder) decodeValue(n *yaml.Node, v reflect.Value, path string) error {
	n = resolve(n)
	switch v.Kind() {
	case reflect.Pointer:
		if isNull(n) {
			return d.errorf(n, path, "needs a value (leave the key out for the default)")
		}
		elem := reflect.New(v.Type().Elem())
		if err := d.decodeValue(n, elem.Elem(), path); err != nil {
			return err
		}
		v.Set(elem)
		return nil
	case reflect.Struct:
		return d.decodeStruct(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return d.errorf(n, path, "want a list, got %s", Describe(n))
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			if err := d.decodeValue(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return d.errorf(n, path, "want %s, got %s", kindName(v.Kind()), Describe(n))
	}
	switch v.Kind() {
	case reflect.Bool:
		if n.Tag != "!!bool" {
			return d.errorf(n, path, "want true or false, got %s", Describe(n))
		}
		b, _ := strconv.ParseBool(n.Value)
		v.SetBool(b)
	case reflect.String:
		v.SetString(n.Value)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if n.Tag != "!!int" || n.Decode(&i) != nil {
			return d.errorf(n, path, "want an integer, got %s", Describe(n))
		}
		if v.OverflowInt(i) {
			return d.errorf(n, path, "%d is out of range", i)
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var i int64
		var u uint64
		switch {
		case n.Tag == "!!int" && n.Decode(&i) == nil && i < 0:
			return d.errorf(n, path, "must not be negative, got %d", i)
		case n.Tag != "!!int" || n.Decode(&u) != nil:
			return d.errorf(n, path, "want a non-negative integer, got %s", Describe(n))
		}
		if v.OverflowUint(u) {
			return d.errorf(n, path, "%d is out of range", u)
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		var f float64
		if (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return d.errorf(n, path, "want a number, got %s", Describe(n))
		}
		v.SetFloat(f)
	default:
		return d.errorf(n, path, "cannot be decoded into %s", v.Type())
	}
	return nil
}

// lookup follows a dotted path of mapping keys from n and returns the
// deepest node found on the way (the value of the last key present).
func lookup(n *yaml.Node, path string) *yaml.Node {
	for _, key := range strings.Split(path, ".") {
		m := resolve(n)
		if m.Kind != yaml.MappingNode {
			return n
		}
		found := false
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				n, found = m.Content[i+1], true
				break
			}
		}
		if !found {
			return n
		}
	}
	return n
}

func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// Describe names a node's kind and value for error messages: "a mapping",
// "a list", "nothing" or the quoted value.
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "something else"
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "an integer"
}
