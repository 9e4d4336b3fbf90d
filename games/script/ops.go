package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// builtinFunc is a Go function behind a Starlark built-in.
type builtinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

// binary is the guard of x op y: it charges what the operation visits and
// builds, refuses a result past the bounds before building it, and does it.
func binary(op syntax.Token) builtinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kwargs) != 0 {
			return nil, fmt.Errorf("%s is the host's: want two operands", b.Name())
		}
		x, y := args[0], args[1]
		if !small(x) || !small(y) {
			if err := chargeBinary(thread, op, x, y); err != nil {
				return nil, err
			}
		}
		switch op {
		case syntax.EQL, syntax.NEQ, syntax.LT, syntax.LE, syntax.GT, syntax.GE:
			ok, err := starlark.Compare(op, x, y)
			return starlark.Bool(ok), err
		}
		v, err := starlark.Binary(op, x, y)
		if err != nil {
			return nil, err
		}
		if i, ok := v.(starlark.Int); ok && !small(i) {
			if bits := bitLen(i); bits > MaxIntBits {
				return nil, tooBig(b.Name(), bits)
			}
		}
		return v, nil
	}
}

// small reports whether v is a value every operation on which is an
// instruction's work: an integer of one word, a float, a bool or None.
func small(v starlark.Value) bool {
	switch x := v.(type) {
	case starlark.Int:
		_, ok := x.Int64()
		return ok
	case starlark.Float, starlark.Bool, starlark.NoneType:
		return true
	}
	return false
}

// chargeBinary charges x op y and refuses what would pass the bounds.
func chargeBinary(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) error {
	xi, xInt := x.(starlark.Int)
	yi, yInt := y.(starlark.Int)
	if xInt && yInt {
		switch op {
		case syntax.STAR:
			if b := bitLen(xi) + bitLen(yi); b > MaxIntBits+1 {
				return tooBig("x * y", b)
			}
			return charge(thread, words(xi)*words(yi))
		case syntax.SLASHSLASH, syntax.PERCENT, syntax.SLASH:
			return charge(thread, words(xi)*words(yi))
		case syntax.LTLT:
			if shift, ok := yi.Int64(); ok && shift > 0 && int64(bitLen(xi))+shift > MaxIntBits {
				return tooBig("x << n", bitLen(xi)+int(min(shift, 1<<20)))
			}
		}
		return charge(thread, words(xi)+words(yi))
	}
	if xs, ok := x.(starlark.String); ok {
		if ys, ok := y.(starlark.String); ok && op != syntax.PLUS && op != syntax.PERCENT {
			// Two strings compared, or searched one in the other.
			return charge(thread, textSteps(min(len(xs), len(ys))+len(ys)))
		}
	}
	switch op {
	case syntax.PLUS:
		nx, text := length(x)
		ny, _ := length(y)
		if nx >= 0 && ny >= 0 && isBuilt(x) {
			if !within(nx+ny, text) {
				return tooLarge("x + y", nx+ny, text)
			}
			if text {
				return charge(thread, textSteps(nx+ny))
			}
			return charge(thread, 1+nx+ny)
		}
	case syntax.STAR:
		seq, count := x, y
		if _, isInt := x.(starlark.Int); isInt {
			seq, count = y, x
		}
		if n, text := length(seq); n > 0 && isBuilt(seq) {
			if c, isInt := count.(starlark.Int); isInt {
				times, exact := c.Int64()
				if !exact || times > int64(MaxBytes) || !within(n*int(max(times, 0)), text) {
					return tooLarge("x * n", int(min(times, 1<<40))*n, text)
				}
				if text {
					return charge(thread, textSteps(n*int(max(times, 0))))
				}
				return charge(thread, 1+n*int(max(times, 0)))
			}
		}
	case syntax.PERCENT:
		if s, ok := x.(starlark.String); ok {
			return chargeFormat(thread, "s % x", s, "%", y)
		}
	case syntax.PIPE:
		nx, ny := starlark.Len(x), starlark.Len(y)
		if nx >= 0 && ny >= 0 && !within(nx+ny, false) {
			return tooLarge("x | y", nx+ny, false)
		}
	case syntax.IN, syntax.NOT_IN:
		switch container := y.(type) {
		case starlark.String, starlark.Bytes:
			nx, _ := length(x)
			ny, _ := length(y)
			return charge(thread, textSteps(max(nx, 0)+ny))
		case *starlark.Dict, *starlark.Set:
			_, err := visit(thread, x)
			return err
		case starlark.Sequence:
			if isContainer(container) {
				_, err := visit(thread, y)
				return err
			}
			return nil // a range: arithmetic
		}
	}
	// Comparisons, set and dict algebra and the rest visit both operands
	// at most once each (a comparison stops at the first difference, a
	// union hashes each element once).
	_, err := visit(thread, x, y)
	return err
}

// isBuilt reports whether v's elements or bytes are copied by + and *
// (strings, bytes, lists, tuples), not a range or a view.
func isBuilt(v starlark.Value) bool {
	switch v.(type) {
	case starlark.String, starlark.Bytes, *starlark.List, starlark.Tuple:
		return true
	}
	return false
}

// chargeFormat bounds the text of a format (s % x, s.format(...)): the
// format's own text, plus each of its directives (count of them: marks in
// s) at most the text of all the values. It charges that text and the
// walk of the values, and refuses a result past MaxBytes.
func chargeFormat(thread *starlark.Thread, what string, s starlark.String, mark string, values ...starlark.Value) error {
	e, err := visit(thread, values...)
	if err != nil {
		return err
	}
	n := len(s) + strings.Count(string(s), mark)*e.text
	if n > MaxBytes || n < 0 {
		return tooLarge(what, n, true)
	}
	return charge(thread, textSteps(n))
}

// The guards of keys, slices, spreads and += (guard.go).

// key is _key(k): a key about to be hashed (d[k], {k: v}) is charged its
// walk.
func key(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is the host's: want one value", b.Name())
	}
	if !small(args[0]) {
		if _, err := visit(thread, args[0]); err != nil {
			return nil, err
		}
	}
	return args[0], nil
}

// sized is _sized(x): what a slice of x copies is charged, at most x's
// length.
func sized(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is the host's: want one value", b.Name())
	}
	return args[0], charge(thread, sizeSteps(args[0]))
}

// spread is _spread(x): the arguments f(*x) or f(**x) unpacks are
// charged, one step each.
func spread(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is the host's: want one value", b.Name())
	}
	n := starlark.Len(args[0])
	if n > MaxElements {
		return nil, tooLarge("f(*x)", n, false)
	}
	return args[0], charge(thread, 1+max(n, 0))
}

// extend is x += y: a list is extended in place, anything else is x + y.
func extend(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is the host's: want two operands", b.Name())
	}
	list, ok := args[0].(*starlark.List)
	if !ok {
		return binary(syntax.PLUS)(thread, b, args, kwargs)
	}
	if err := appendAll(thread, "x += y", list, args[1]); err != nil {
		return nil, err
	}
	return list, nil
}

// appendAll appends y's elements to list (x += y, list.extend(y)), within
// the bounds, a step each.
func appendAll(thread *starlark.Thread, what string, list *starlark.List, y starlark.Value) error {
	if n := starlark.Len(y); n >= 0 {
		if !within(list.Len()+n, false) {
			return tooLarge(what, list.Len()+n, false)
		}
		if err := charge(thread, 1+n); err != nil {
			return err
		}
	}
	iter := starlark.Iterate(y)
	if iter == nil {
		return fmt.Errorf("%s: %s is not iterable", what, y.Type())
	}
	defer iter.Done()
	var item starlark.Value
	counted := starlark.Len(y) >= 0
	for iter.Next(&item) {
		if !counted {
			if err := charge(thread, 1); err != nil {
				return err
			}
		}
		if list.Len() >= MaxElements {
			return tooLarge(what, list.Len()+1, false)
		}
		if err := list.Append(item); err != nil {
			return err
		}
	}
	return nil
}
