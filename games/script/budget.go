package script

import (
	"errors"
	"fmt"
	"math/bits"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"playtest/internal/printable"
)

// A call's budget. The interpreter counts a step for each instruction it
// runs; the host counts the rest before it is done, as steps too, so that
// one number bounds both a call's time and what it builds, the same on
// every machine and at any worker count:
//
//   - every built-in function and method, and every operation that can
//     cost more than an instruction (+, *, %, comparisons, in, indexing
//     with a key, slicing, set and dict union, shifts, *args), is the
//     host's: the script's syntax is rewritten before it is compiled, so
//     that each goes through a guard (guard.go), wherever a script reaches
//     it from (a method kept in a variable, getattr, a built-in passed as
//     a value);
//   - a guard measures its operands before it runs (the values, elements
//     and text it will visit or build, shared parts counted each time they
//     are reached) and charges them: an element or value is a step, and so
//     are 16 bytes of text (bytesPerStep) or a 64-bit word of a number
//     multiplied (words × words);
//   - no value may pass MaxElements elements, MaxBytes bytes of text,
//     MaxIntBits bits or MaxDepth levels of nesting: a guard refuses what
//     would, before building it.
//
// So a call builds at most MaxSteps × 16 bytes of text and elements
// (about 160 MB) besides what its instructions make one at a time, and
// runs for at most MaxSteps steps of at most a few tens of nanoseconds:
// well under a second. A call over its budget fails, naming the budget.
const (
	MaxElements  = 1 << 20 // 1,048,576 elements in one list, tuple, dict or set
	MaxBytes     = 1 << 24 // 16 MiB in one string
	MaxIntBits   = 1 << 12 // 4,096 bits (1,233 decimal digits) in one integer
	MaxDepth     = 10_000  // levels of nesting walked by str, ==, hash
	bytesPerStep = 16
)

// errBudget is what a guard returns when its charge passes the budget; the
// call's error then names the budget (callError).
var errBudget = errors.New("over the step budget")

// charge adds n steps to the thread's count, failing once the call's
// budget is spent. A nil thread (the host calling a guard itself) is not
// charged.
func charge(thread *starlark.Thread, n int) error {
	if thread == nil || n <= 0 {
		return nil
	}
	thread.Steps += uint64(n)
	if thread.Steps >= MaxSteps {
		return errBudget
	}
	return nil
}

// left is what remains of the thread's budget, in steps.
func left(thread *starlark.Thread) int {
	if thread == nil {
		return MaxSteps
	}
	if thread.Steps >= MaxSteps {
		return 0
	}
	return int(MaxSteps - thread.Steps)
}

// textSteps is the charge for n bytes of text.
func textSteps(n int) int { return 1 + n/bytesPerStep }

// extent is what a walk of a value found: the steps visiting it costs
// (a step a value and an element, and one per 16 bytes of text), and an
// upper bound of the length of its repr.
type extent struct {
	steps, text int
}

// measure walks v, shared parts each time they are reached, and returns
// its extent; it gives up, with an error, past limit steps (the caller's
// budget: visiting it would cost more) or MaxDepth levels of nesting. The
// walk uses its own stack, so a deep value costs no Go stack.
func measure(v starlark.Value, limit int) (extent, error) {
	type item struct {
		v     starlark.Value
		depth int
	}
	var e extent
	var buf [32]item
	stack := append(buf[:0], item{v, 0})
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > MaxDepth {
			return e, fmt.Errorf("a value nested deeper than %d levels: too deep to compare, hash or print", MaxDepth)
		}
		e.steps++
		e.steps += shallow(it.v)
		if e.steps > limit {
			return e, errBudget
		}
		switch x := it.v.(type) {
		case starlark.String:
			e.text += 4*len(x) + 2 // every byte escaped at worst, and the quotes
		case starlark.Bytes:
			e.text += 4*len(x) + 3
		case starlark.Int:
			e.text += 20 * words(x)
		case starlark.NoneType, starlark.Bool, starlark.Float:
			e.text += 24
		case *starlark.List:
			e.text += 2 + 2*x.Len()
			for i := range x.Len() {
				stack = append(stack, item{x.Index(i), it.depth + 1})
			}
		case starlark.Tuple:
			e.text += 3 + 2*len(x)
			for _, elem := range x {
				stack = append(stack, item{elem, it.depth + 1})
			}
		case *starlark.Dict:
			e.text += 2 + 4*x.Len()
			for k, val := range x.Entries() {
				stack = append(stack, item{k, it.depth + 1}, item{val, it.depth + 1})
			}
		case *starlark.Set:
			e.text += 5 + 2*x.Len()
			for elem := range x.Elements() {
				stack = append(stack, item{elem, it.depth + 1})
			}
		case *starlarkstruct.Struct:
			names := x.AttrNames()
			e.text += 8
			for _, name := range names {
				e.text += len(name) + 3
				if field, err := x.Attr(name); err == nil && field != nil {
					stack = append(stack, item{field, it.depth + 1})
				}
			}
		default: // functions, built-ins, ranges, the host's rng: a short text
			e.text += 64
			if n, ok := it.v.(interface{ Name() string }); ok {
				e.text += len(n.Name())
			}
		}
	}
	return e, nil
}

// shallow is what visiting v itself costs beyond its one step: its
// elements (a dict's keys and values), its text's 16-byte pieces, or its
// words.
func shallow(v starlark.Value) int {
	switch x := v.(type) {
	case starlark.String:
		return len(x) / bytesPerStep
	case starlark.Bytes:
		return len(x) / bytesPerStep
	case starlark.Int:
		return words(x) - 1
	case *starlark.Dict:
		return 2 * x.Len()
	case *starlarkstruct.Struct:
		return len(x.AttrNames())
	}
	if n := starlark.Len(v); n > 0 && isContainer(v) {
		return n
	}
	return 0
}

// words is the number of 64-bit words of an integer.
func words(x starlark.Int) int {
	if i, ok := x.Int64(); ok {
		if i == 0 {
			return 1
		}
		if i < 0 {
			i = -i
		}
		return (bits.Len64(uint64(i)) + 63) / 64
	}
	return (x.BigInt().BitLen() + 63) / 64
}

// bitLen is the number of bits of an integer's magnitude.
func bitLen(x starlark.Int) int {
	if i, ok := x.Int64(); ok {
		if i < 0 {
			i = -i
		}
		return bits.Len64(uint64(i))
	}
	return x.BigInt().BitLen()
}

// visit charges the walk of each value (measure), within what is left.
func visit(thread *starlark.Thread, values ...starlark.Value) (extent, error) {
	var total extent
	for _, v := range values {
		e, err := measure(v, left(thread))
		if err != nil {
			if err == errBudget {
				thread.Steps = MaxSteps
			}
			return total, err
		}
		total.steps += e.steps
		total.text += e.text
	}
	return total, charge(thread, total.steps)
}

// length is a value's number of elements or bytes (-1 if it has none),
// and whether they are bytes of text.
func length(v starlark.Value) (n int, text bool) {
	switch x := v.(type) {
	case starlark.String:
		return len(x), true
	case starlark.Bytes:
		return len(x), true
	}
	if n := starlark.Len(v); n >= 0 {
		return n, false
	}
	return -1, false
}

// sizeSteps is what building a value of v's length costs: a step per
// element, four for an entry of a hash table (a dict or set), one per 16
// bytes of text.
func sizeSteps(v starlark.Value) int {
	n, text := length(v)
	switch {
	case n < 0:
		return 1
	case text:
		return textSteps(n)
	}
	switch v.(type) {
	case *starlark.Dict, *starlark.Set:
		return 1 + 4*n
	}
	return 1 + n
}

// tooLarge is the error of a step that would build n elements, bytes or
// bits.
func tooLarge(what string, n int, text bool) error {
	if text {
		return fmt.Errorf("%s would make a string of %d bytes: a script may make at most %d (16 MiB)", what, n, MaxBytes)
	}
	return fmt.Errorf("%s would make %d elements: a script may make at most %d in one value", what, n, MaxElements)
}

func within(n int, text bool) bool {
	if text {
		return n <= MaxBytes
	}
	return n <= MaxElements
}

// checkResult refuses a value past the bounds (a built-in's result whose
// size could not be told before), and charges what building it cost.
func checkResult(thread *starlark.Thread, what string, v starlark.Value) error {
	if i, ok := v.(starlark.Int); ok {
		if b := bitLen(i); b > MaxIntBits {
			return tooBig(what, b)
		}
		return nil
	}
	n, text := length(v)
	if n < 0 {
		return nil
	}
	if _, lazy := v.(starlark.Sequence); lazy && !isContainer(v) && !text {
		return nil // a range or a string's elems: nothing built
	}
	if !within(n, text) {
		return tooLarge(what, n, text)
	}
	return charge(thread, sizeSteps(v))
}

// isContainer reports whether v holds its elements (a list, tuple, dict
// or set), as opposed to a range or a view computing them.
func isContainer(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
		return true
	}
	return false
}

// tooBig is the error of an integer past MaxIntBits.
func tooBig(what string, bits int) error {
	return fmt.Errorf("%s would make an integer of %d bits: a script's integers hold at most %d", what, bits, MaxIntBits)
}

// show is a script's value as a message quotes it: its text, cut to a few
// hundred bytes, or what it is when even its text would be too large to
// make (a list shared a thousand times over).
func show(v starlark.Value) string {
	const most = 300
	e, err := measure(v, 100_000)
	if err != nil || e.text > 1<<20 {
		if n := starlark.Len(v); n >= 0 {
			return fmt.Sprintf("a %s of %d elements", v.Type(), n)
		}
		return "a " + v.Type()
	}
	return printable.Cut(v.String(), most)
}

// ownText is a value's own text, for a key or a drawing where the script
// gives none: refused when making it would pass the bounds.
func ownText(v starlark.Value) (string, error) {
	e, err := measure(v, MaxSteps)
	if err != nil || e.text > MaxBytes {
		return "", fmt.Errorf("the text of %s would pass %d MiB or %d steps", show(v), MaxBytes>>20, MaxSteps)
	}
	return v.String(), nil
}
