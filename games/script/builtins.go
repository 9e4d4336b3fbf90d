package script

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// A guarded built-in: before the built-in runs, pre charges what it will
// visit and refuses what would pass the bounds; builds says it makes a
// new value (a list, a string, an integer), whose size is checked and
// charged after.
type cost struct {
	pre    func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error
	builds bool
}

var (
	flat     = cost{}
	visitAll = cost{pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
		_, err := visit(thread, arguments(args, kwargs)...)
		return err
	}}
	// iterated charges a step for each element of the first argument.
	iterated = cost{pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
		if len(args) == 0 {
			return nil
		}
		return charge(thread, sizeSteps(args[0]))
	}}
	copied = cost{pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
		n := 0
		for _, a := range args {
			if l := starlark.Len(a); l > 0 {
				n += l
			}
		}
		if !within(n, false) {
			return tooLarge("it", n, false)
		}
		return nil // charged as built (checkResult)
	}, builds: true}
	text = cost{pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
		if len(args) == 1 && len(kwargs) == 0 {
			if _, ok := args[0].(starlark.String); ok {
				return nil // str(s) is s
			}
		}
		e, err := visit(thread, arguments(args, kwargs)...)
		if err == nil && e.text > MaxBytes {
			return tooLarge("it", e.text, true)
		}
		return err
	}, builds: true}
)

// arguments lists the positional and keyword arguments' values.
func arguments(args starlark.Tuple, kwargs []starlark.Tuple) []starlark.Value {
	if len(kwargs) == 0 {
		return args
	}
	out := append([]starlark.Value{}, args...)
	for _, kv := range kwargs {
		out = append(out, kv[1])
	}
	return out
}

// universeCosts are Starlark's built-in functions, guarded.
var universeCosts = map[string]cost{
	"range": flat, // lazy: what is made of it is charged (list(range(n)))
	"abs":   flat, "bool": flat, "chr": flat, "float": flat, "len": flat, "ord": flat, "type": flat, "hasattr": flat,
	"dir": {builds: true},
	"int": {pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
		if len(args) > 0 {
			if s, ok := args[0].(starlark.String); ok {
				// Parsing is quadratic in the digits: refuse a text longer
				// than the widest integer before parsing it.
				if len(s) > MaxIntBits/3+8 {
					return tooBig("int() of a string of "+fmt.Sprint(len(s))+" characters", len(s)*3)
				}
				return charge(thread, textSteps(len(s))*textSteps(len(s)))
			}
		}
		return nil
	}, builds: true},
	"any": iterated, "all": iterated, "enumerate": copied, "list": copied, "tuple": copied, "reversed": copied,
	"bytes": {builds: true}, // checked as text once made: at most its argument's length
	"zip":   {pre: copied.pre, builds: true},
	"dict":  {pre: visitAll.pre, builds: true}, "set": {pre: visitAll.pre, builds: true},
	"hash": visitAll, "max": visitAll, "min": visitAll,
	"str": text, "repr": text, "print": text, "fail": text,
	"sorted": {pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
		if len(args) == 0 {
			return nil
		}
		n := starlark.Len(args[0])
		if n > MaxElements {
			return tooLarge("sorted()", n, false)
		}
		e, err := visit(thread, args[0])
		if err != nil {
			return err
		}
		// n log n comparisons, each at most a walk of its two elements.
		return charge(thread, e.steps*bits.Len(uint(max(n, 1))))
	}, builds: true},
}

// methodCosts are the methods of Starlark's own types, guarded, by type
// and name.
var methodCosts = map[string]map[string]cost{
	"string": {
		"capitalize": scanBuild, "lower": scanBuild, "upper": scanBuild, "title": scanBuild, "strip": scanBuild, "lstrip": scanBuild,
		"rstrip": scanBuild, "removeprefix": scanBuild, "removesuffix": scanBuild, "isalnum": scan, "isalpha": scan,
		"isdigit": scan, "islower": scan, "isspace": scan, "istitle": scan, "isupper": scan, "partition": scanBuild,
		"rpartition": scanBuild, "count": scan, "find": scan, "rfind": scan, "index": scan, "rindex": scan,
		"startswith": scan, "endswith": scan, "elems": flat, "codepoints": flat, "elem_ords": flat, "codepoint_ords": flat,
		"format": {pre: func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
			return chargeFormat(thread, "str.format", recv.(starlark.String), "{", arguments(args, kwargs)...)
		}, builds: true},
		"join":       {pre: chargeJoin, builds: true},
		"replace":    {pre: chargeReplace, builds: true},
		"split":      {pre: chargeSplit, builds: true},
		"rsplit":     {pre: chargeSplit, builds: true},
		"splitlines": {pre: chargeSplit, builds: true},
	},
	"bytes": {"elems": flat},
	"list": {
		"append": {pre: func(thread *starlark.Thread, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) error {
			if n := recv.(*starlark.List).Len() + 1; n > MaxElements {
				return tooLarge("list.append", n, false)
			}
			return nil
		}},
		"insert": {pre: func(thread *starlark.Thread, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) error {
			n := recv.(*starlark.List).Len() + 1
			if n > MaxElements {
				return tooLarge("list.insert", n, false)
			}
			return charge(thread, n)
		}},
		"clear": receiverSize,
		// pop() takes the last element at once; pop(i) moves those after i.
		"pop": {pre: func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
			if len(args) == 0 {
				return nil
			}
			return charge(thread, sizeSteps(recv))
		}},
		"index": visitReceiver, "remove": visitReceiver,
		// extend is appendAll (methodCall).
	},
	"dict": {
		"clear": receiverSize, "popitem": flat, "get": visitAll, "pop": visitAll,
		"setdefault": {pre: func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
			if n := recv.(*starlark.Dict).Len() + 1; n > MaxElements {
				return tooLarge("dict.setdefault", n, false)
			}
			return visitAll.pre(thread, recv, args, kwargs)
		}},
		"items": {pre: receiverSize.pre, builds: true}, "keys": {pre: receiverSize.pre, builds: true},
		"values": {pre: receiverSize.pre, builds: true},
		"update": growing,
	},
	"set": {
		"add": growing, "update": growing, "union": growing, "symmetric_difference": growing,
		"clear": receiverSize, "pop": flat, "discard": visitAll, "remove": visitAll,
		"difference": visitReceiver, "intersection": visitReceiver, "issubset": visitReceiver, "issuperset": visitReceiver,
	},
}

var (
	stringCosts, listCosts = methodCosts["string"], methodCosts["list"]
	dictCosts, setCosts    = methodCosts["dict"], methodCosts["set"]
)

var (
	// scan charges a pass over the string and its arguments.
	scan = cost{pre: func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
		e, err := visit(thread, arguments(args, kwargs)...)
		if err != nil {
			return err
		}
		return charge(thread, textSteps(len(recv.(starlark.String))+e.text))
	}}
	scanBuild    = cost{pre: scan.pre, builds: true}
	receiverSize = cost{pre: func(thread *starlark.Thread, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) error {
		return charge(thread, sizeSteps(recv))
	}}
	visitReceiver = cost{pre: func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
		_, err := visit(thread, append([]starlark.Value{recv}, arguments(args, kwargs)...)...)
		return err
	}, builds: true}
	// growing is a dict's or set's update with the arguments' elements:
	// they are hashed, and the result may not pass MaxElements.
	growing = cost{pre: func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
		n := starlark.Len(recv)
		for _, a := range arguments(args, kwargs) {
			if l := starlark.Len(a); l > 0 {
				n += l
			} else {
				n++
			}
		}
		if n > MaxElements {
			return tooLarge("it", n, false)
		}
		_, err := visit(thread, arguments(args, kwargs)...)
		return err
	}, builds: true}
)

// methodNames are the names of every method of Starlark's own types: a
// script's x.name is the host's _attr where name is one of them (a struct
// field of the same name is read through it too).
var methodNames = func() map[string]bool {
	names := map[string]bool{"extend": true}
	for _, methods := range methodCosts {
		for name := range methods {
			names[name] = true
		}
	}
	return names
}()

// chargeJoin bounds s.join(parts): every part's text and the separator
// between each two.
func chargeJoin(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	if len(args) != 1 {
		return nil // the method's own error
	}
	sep := len(recv.(starlark.String))
	iter := starlark.Iterate(args[0])
	if iter == nil {
		return nil
	}
	defer iter.Done()
	n, parts := 0, 0
	var part starlark.Value
	for iter.Next(&part) {
		parts++
		if s, ok := part.(starlark.String); ok {
			n += len(s)
		}
		if parts > 1 {
			n += sep
		}
		if n > MaxBytes {
			return tooLarge("str.join", n, true)
		}
		if err := charge(thread, 1); err != nil {
			return err
		}
	}
	return charge(thread, textSteps(n))
}

// chargeReplace bounds s.replace(old, new[, count]) by counting the
// occurrences first.
func chargeReplace(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	s := string(recv.(starlark.String))
	if len(args) < 2 {
		return nil
	}
	old, ok1 := args[0].(starlark.String)
	repl, ok2 := args[1].(starlark.String)
	if !ok1 || !ok2 {
		return nil
	}
	if err := charge(thread, textSteps(len(s))); err != nil {
		return err
	}
	count := len(s) + 1
	if old != "" {
		count = strings.Count(s, string(old))
	}
	if len(args) > 2 {
		if c, err := starlark.AsInt32(args[2]); err == nil && c >= 0 {
			count = min(count, c)
		}
	}
	n := len(s) + count*(len(repl)-len(old))
	if n > MaxBytes || count > MaxBytes {
		return tooLarge("str.replace", max(n, count), true)
	}
	return charge(thread, textSteps(n))
}

// chargeSplit bounds s.split, rsplit and splitlines by counting the
// pieces first.
func chargeSplit(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) error {
	s := string(recv.(starlark.String))
	if err := charge(thread, textSteps(len(s))); err != nil {
		return err
	}
	pieces := 1
	if len(args) > 0 {
		if sep, ok := args[0].(starlark.String); ok && sep != "" {
			pieces = strings.Count(s, string(sep)) + 1
		} else {
			pieces = fields(s)
		}
	} else {
		pieces = fields(s) + strings.Count(s, "\n") + strings.Count(s, "\r")
	}
	if pieces > MaxElements {
		return tooLarge("str.split", pieces, false)
	}
	return charge(thread, pieces)
}

// fields counts the runs of non-space bytes of s.
func fields(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		space := s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f'
		if !space && !in {
			n++
		}
		in = !space
	}
	return n + 1
}

// guarded returns b as the host's guarded built-in under the same name.
func guarded(b *starlark.Builtin, c cost) *starlark.Builtin {
	return starlark.NewBuiltin(b.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return callGuarded(thread, b, nil, c, args, kwargs)
	})
}

// callGuarded calls fn (a built-in, bound to recv for a method) under its
// cost.
func callGuarded(thread *starlark.Thread, fn starlark.Callable, recv starlark.Value, c cost, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if c.pre != nil {
		if err := c.pre(thread, recv, args, kwargs); err != nil {
			return nil, err
		}
	}
	v, err := starlark.Call(thread, fn, args, kwargs)
	if err != nil || !c.builds {
		return v, err
	}
	if err := checkResult(thread, fn.Name()+"()", v); err != nil {
		return nil, err
	}
	return v, nil
}

// attribute is x.name with the methods of Starlark's own types guarded:
// the method returned (s.join kept in a variable) charges as a call of it
// would.
func attribute(x starlark.Value, name string) (starlark.Value, error) {
	h, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, nil
	}
	attr, err := h.Attr(name)
	if err != nil || attr == nil {
		return attr, err
	}
	c, guard := methodCost(x, name)
	if !guard {
		return attr, nil
	}
	method := attr.(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return methodCall(thread, x, name, method, c, args, kwargs)
	}), nil
}

// methodCost is the cost of x's method name, when x is one of Starlark's
// own types.
func methodCost(x starlark.Value, name string) (cost, bool) {
	var methods map[string]cost
	switch x.(type) {
	case starlark.String:
		methods = stringCosts
	case *starlark.List:
		methods = listCosts
	case *starlark.Dict:
		methods = dictCosts
	case *starlark.Set:
		methods = setCosts
	case starlark.Bytes:
		methods = methodCosts["bytes"]
	default:
		return cost{}, false
	}
	if _, isList := x.(*starlark.List); isList && name == "extend" {
		return flat, true
	}
	c, ok := methods[name]
	if !ok {
		// A method this table does not know (a newer interpreter's):
		// charged as a visit of everything it is given.
		return visitReceiver, true
	}
	return c, true
}

// methodCall calls a guarded method: list.extend is appendAll, the
// others the interpreter's under their cost.
func methodCall(thread *starlark.Thread, x starlark.Value, name string, method *starlark.Builtin, c cost, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if list, ok := x.(*starlark.List); ok && name == "extend" {
		if len(args) != 1 || len(kwargs) != 0 {
			return nil, fmt.Errorf("extend: want one iterable")
		}
		return starlark.None, appendAll(thread, "list.extend", list, args[0])
	}
	return callGuarded(thread, method, x, c, args, kwargs)
}

// attr is _attr(x, "name"): x.name (guard.go).
func attr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, name, err := target(b, args, kwargs, 2)
	if err != nil {
		return nil, err
	}
	v, err := attribute(x, name)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, noAttr(x, name)
	}
	return v, nil
}

// method is _method(x, "name", args...): x.name(args...) (guard.go).
func method(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, name, err := target(b, args, nil, -1)
	if err != nil {
		return nil, err
	}
	rest := args[2:]
	h, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, noAttr(x, name)
	}
	fn, err := h.Attr(name)
	if err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, noAttr(x, name)
	}
	if c, guard := methodCost(x, name); guard {
		return methodCall(thread, x, name, fn.(*starlark.Builtin), c, rest, kwargs)
	}
	return starlark.Call(thread, fn, rest, kwargs)
}

// target reads a guard's object and attribute name.
func target(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, want int) (starlark.Value, string, error) {
	if len(args) < 2 || want >= 0 && (len(args) != want || len(kwargs) != 0) {
		return nil, "", fmt.Errorf("%s is the host's: want an object and a name", b.Name())
	}
	name, ok := args[1].(starlark.String)
	if !ok {
		return nil, "", fmt.Errorf("%s is the host's: want an object and a name", b.Name())
	}
	return args[0], string(name), nil
}

func noAttr(x starlark.Value, name string) error {
	return fmt.Errorf("%s has no .%s field or method", x.Type(), name)
}

// getattr is getattr(x, name[, default]), its methods guarded.
func getattr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, dflt starlark.Value
	var name string
	if err := starlark.UnpackPositionalArgs("getattr", args, kwargs, 2, &x, &name, &dflt); err != nil {
		return nil, err
	}
	v, err := attribute(x, name)
	switch {
	case err != nil && dflt == nil:
		return nil, err
	case v == nil && dflt == nil:
		return nil, noAttr(x, name)
	case v == nil || err != nil:
		return dflt, nil
	}
	return v, nil
}

// predeclared are the names a script sees: Starlark's built-ins, each the
// host's guarded copy; struct; and the guards the syntax is rewritten
// into. There is no clock, no file, no randomness: chance comes from the
// host (chance()), hidden information is re-sampled with the host's
// stream (determinize()).
var predeclared = func() starlark.StringDict {
	d := starlark.StringDict{
		"struct": guarded(starlark.NewBuiltin("struct", starlarkstruct.Make), cost{pre: func(thread *starlark.Thread, _ starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
			return charge(thread, len(args)+len(kwargs)) // its fields are references
		}}),
		"getattr": starlark.NewBuiltin("getattr", getattr),
		fnExtend:  starlark.NewBuiltin("x += y", extend),
		fnKey:     starlark.NewBuiltin("d[k]", key),
		fnSized:   starlark.NewBuiltin("x[i:j]", sized),
		fnSpread:  starlark.NewBuiltin("f(*x)", spread),
		fnAttr:    starlark.NewBuiltin("x.name", attr),
		fnMethod:  starlark.NewBuiltin("x.name()", method),
	}
	for op, fn := range binaryGuards {
		d[fn] = starlark.NewBuiltin("x "+op.String()+" y", binary(op))
	}
	for name, c := range universeCosts {
		if _, done := d[name]; !done {
			d[name] = guarded(starlark.Universe[name].(*starlark.Builtin), c)
		}
	}
	return d
}()

// hostNames are the names the host adds to Starlark's: its guards and
// struct. A script may not define them.
func hostNames() []string {
	var names []string
	for name := range predeclared {
		if _, builtin := starlark.Universe[name]; !builtin {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
