package script

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// The Starlark interpreter bounds a script's time (the step budget) but
// not its memory. Scripts run under two bounds instead:
//
//   - No single step may build a value larger than MaxElements elements or
//     MaxBytes bytes. The operations that can (repetition x * n,
//     concatenation x + y, formatting s % x and the string methods join,
//     replace and format) are rewritten, before the script is compiled,
//     into calls of host functions that check the size first; range() is
//     bounded the same way. (The interpreter's own check allows a billion
//     elements: 16 GB in one step.)
//   - The heap is watched while a script runs: past MaxHeap, every
//     running call is stopped with an error. Loading a script sets the
//     process's soft memory limit (runtime/debug.SetMemoryLimit) to
//     MaxHeap, so that garbage is collected before it counts. A step adds
//     at most MaxElements elements (16 MiB), and the heap is read every
//     millisecond, so the process stays within a few steps of the bound.
//
// Neither bound changes a result: a script within them runs the same
// everywhere, and one outside them fails with exit 2.
const (
	MaxElements = 1 << 20 // 1,048,576 elements in one list, tuple or range
	MaxBytes    = 1 << 24 // 16 MiB in one string
	MaxHeap     = 512 << 20
)

// Names of the host functions guarded operations are rewritten into.
const (
	fnConcat = "_concat"
	fnAppend = "_extend"
	fnRepeat = "_repeat"
	fnFormat = "_format"
	fnMethod = "_method"
)

// guardedMethods are the string methods whose result can be far larger
// than their inputs.
var guardedMethods = map[string]bool{"join": true, "replace": true, "format": true}

// predeclared are the names a script sees besides Starlark's own
// built-ins: struct, the bounded range and the guards. There is no clock,
// no file, no randomness: chance comes from the host (chance()), hidden
// information is re-sampled with the host's stream (determinize()).
var predeclared = starlark.StringDict{
	"struct": starlark.NewBuiltin("struct", starlarkstruct.Make),
	"range":  starlark.NewBuiltin("range", boundedRange),
	fnConcat: starlark.NewBuiltin("x + y", concat),
	fnAppend: starlark.NewBuiltin("x += y", extend),
	fnRepeat: starlark.NewBuiltin("x * n", repeat),
	fnFormat: starlark.NewBuiltin("s % x", format),
	fnMethod: starlark.NewBuiltin("a method", method),
}

// guard rewrites the file's growing operations into calls of the host's
// guards (see MaxElements).
func guard(f *syntax.File) {
	rewrite(reflect.ValueOf(f))
}

// rewrite walks a syntax node by reflection and replaces, in every field
// holding an expression, the operations guard names.
func rewrite(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			rewrite(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			rewriteAt(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				rewriteAt(f)
			}
		}
	}
}

var exprType = reflect.TypeFor[syntax.Expr]()

// rewriteAt rewrites what v holds, then v itself when it is an expression
// (or an assignment's operator).
func rewriteAt(v reflect.Value) {
	rewrite(v)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if a, ok := v.Interface().(*syntax.AssignStmt); ok {
			guardAssign(a)
		}
	}
	if v.Type() != exprType || v.IsNil() {
		return
	}
	if e := guardExpr(v.Interface().(syntax.Expr)); e != nil {
		v.Set(reflect.ValueOf(&e).Elem())
	}
}

// guardExpr returns the guarded form of a growing operation, or nil.
func guardExpr(e syntax.Expr) syntax.Expr {
	switch x := e.(type) {
	case *syntax.BinaryExpr:
		switch x.Op {
		case syntax.PLUS:
			return hostCall(fnConcat, x.OpPos, x.X, x.Y)
		case syntax.STAR:
			return hostCall(fnRepeat, x.OpPos, x.X, x.Y)
		case syntax.PERCENT:
			return hostCall(fnFormat, x.OpPos, x.X, x.Y)
		}
	case *syntax.CallExpr:
		if dot, ok := x.Fn.(*syntax.DotExpr); ok && guardedMethods[dot.Name.Name] {
			name := &syntax.Literal{Token: syntax.STRING, TokenPos: dot.NamePos, Raw: fmt.Sprintf("%q", dot.Name.Name), Value: dot.Name.Name}
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: dot.NamePos, Name: fnMethod}, Lparen: x.Lparen,
				Args: append([]syntax.Expr{dot.X, name}, x.Args...), Rparen: x.Rparen}
		}
	}
	return nil
}

// guardAssign turns x += y, x *= y and x %= y into x = guard(x, y) (a
// list's += extending it in place, as Starlark's does).
func guardAssign(a *syntax.AssignStmt) {
	fn := map[syntax.Token]string{syntax.PLUS_EQ: fnAppend, syntax.STAR_EQ: fnRepeat, syntax.PERCENT_EQ: fnFormat}[a.Op]
	if fn == "" {
		return
	}
	a.Op, a.RHS = syntax.EQ, hostCall(fn, a.OpPos, a.LHS, a.RHS)
}

func hostCall(fn string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}

// size is a value's length in elements (lists, tuples, dicts, sets) or
// bytes (strings), and whether it is a string.
func size(v starlark.Value) (n int, text, ok bool) {
	switch x := v.(type) {
	case starlark.String:
		return len(x), true, true
	case starlark.Bytes:
		return len(x), true, true
	case starlark.Sequence:
		return x.Len(), false, true
	}
	return 0, false, false
}

// tooLarge is the error of a step that would build n elements or bytes.
func tooLarge(what string, n int, text bool) error {
	if text {
		return fmt.Errorf("%s would make a string of %d bytes: a script may make at most %d (16 MiB) in one step", what, n, MaxBytes)
	}
	return fmt.Errorf("%s would make %d elements: a script may make at most %d in one step", what, n, MaxElements)
}

func within(n int, text bool) bool {
	if text {
		return n <= MaxBytes
	}
	return n <= MaxElements
}

func binaryArgs(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (x, y starlark.Value, err error) {
	err = starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y)
	return x, y, err
}

// concat is x + y, refused when it would pass the bounds.
func concat(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := binaryArgs(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if nx, text, ok := size(x); ok {
		if ny, _, ok := size(y); ok && !within(nx+ny, text) {
			return nil, tooLarge("x + y", nx+ny, text)
		}
	}
	return starlark.Binary(syntax.PLUS, x, y)
}

// extend is x += y: a list is extended in place.
func extend(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := binaryArgs(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	list, ok := x.(*starlark.List)
	if !ok {
		return concat(nil, b, args, kwargs)
	}
	iter := starlark.Iterate(y)
	if iter == nil {
		return nil, fmt.Errorf("unknown binary op: list += %s", y.Type())
	}
	defer iter.Done()
	var item starlark.Value
	for iter.Next(&item) {
		if list.Len() >= MaxElements {
			return nil, tooLarge("x += y", list.Len()+1, false)
		}
		if err := list.Append(item); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// repeat is x * y, refused when a repetition would pass the bounds.
func repeat(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := binaryArgs(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	seq, count := x, y
	if _, isInt := x.(starlark.Int); isInt {
		seq, count = y, x
	}
	if n, text, ok := size(seq); ok && n > 0 {
		if c, isInt := count.(starlark.Int); isInt {
			times, exact := c.Int64()
			if !exact || times > int64(MaxBytes) || !within(n*int(times), text) {
				return nil, tooLarge("x * n", int(min(times, 1<<40))*n, text)
			}
		}
	}
	return starlark.Binary(syntax.STAR, x, y)
}

// format is s % x, refused when its result could pass the bounds.
func format(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := binaryArgs(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if s, ok := x.(starlark.String); ok {
		values := starlark.Tuple{y}
		if t, ok := y.(starlark.Tuple); ok {
			values = t
		}
		if n := len(s) + strings.Count(string(s), "%")*longest(values); n > MaxBytes {
			return nil, tooLarge("s % x", n, true)
		}
	}
	return starlark.Binary(syntax.PERCENT, x, y)
}

// longest is the longest text of values (a dict's values for %(name)s).
func longest(values starlark.Tuple) int {
	n := 0
	for _, v := range values {
		if d, ok := v.(*starlark.Dict); ok {
			var values starlark.Tuple
			for _, kv := range d.Items() {
				values = append(values, kv[1])
			}
			n = max(n, longest(values))
			continue
		}
		if s, ok := v.(starlark.String); ok {
			n = max(n, len(s))
			continue
		}
		n = max(n, len(v.String()))
	}
	return n
}

// method calls a string's join, replace or format, refused when the
// result could pass the bounds; any other value's method is called as is.
func method(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var text starlark.String
	if len(args) >= 2 {
		text, _ = args[1].(starlark.String)
	}
	if text == "" {
		return nil, fmt.Errorf("%s is the host's: want an object and a method's name", fnMethod)
	}
	x, name, rest := args[0], string(text), args[2:]
	if s, ok := x.(starlark.String); ok {
		if n := projected(s, name, rest, kwargs); n > MaxBytes {
			return nil, tooLarge("str."+name, n, true)
		}
	}
	h, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	attr, err := h.Attr(name)
	if err != nil {
		return nil, err
	}
	if attr == nil {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	return starlark.Call(thread, attr, rest, kwargs)
}

// projected bounds the length of s.join, s.replace or s.format's result.
func projected(s starlark.String, name string, args starlark.Tuple, kwargs []starlark.Tuple) int {
	switch name {
	case "join":
		if len(args) == 1 {
			if seq, ok := args[0].(starlark.Indexable); ok {
				n := len(s) * seq.Len()
				for i := range seq.Len() {
					if part, ok := seq.Index(i).(starlark.String); ok {
						n += len(part)
					}
				}
				return n
			}
		}
	case "replace":
		if len(args) >= 2 {
			if repl, ok := args[1].(starlark.String); ok {
				return len(s) + (len(s)+1)*len(repl)
			}
		}
	case "format":
		values := append(starlark.Tuple(nil), args...)
		for _, kv := range kwargs {
			values = append(values, kv[1])
		}
		return len(s) + strings.Count(string(s), "{")*longest(values)
	}
	return len(s)
}

// boundedRange is range, refused past MaxElements.
func boundedRange(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	r, err := starlark.Call(thread, starlark.Universe["range"], args, kwargs)
	if err != nil {
		return nil, err
	}
	if n := r.(starlark.Sequence).Len(); n > MaxElements {
		return nil, tooLarge("range()", n, false)
	}
	return r, nil
}

// The heap watch: while calls run, the heap is read every millisecond;
// past MaxHeap, the watch is tripped: every thread is cancelled (running
// calls stop at their next step) and every call from then on fails.
var watching struct {
	once    sync.Once
	active  atomic.Int64 // calls running
	tripped atomic.Bool
	mu      sync.Mutex
	threads []*starlark.Thread // every thread made, running or idle
}

// watch starts the watch, once per process, and sets the soft memory
// limit.
func watch() {
	watching.once.Do(func() {
		if limit := debug.SetMemoryLimit(-1); limit > MaxHeap {
			debug.SetMemoryLimit(MaxHeap)
		}
		go func() {
			sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			for range time.Tick(time.Millisecond) {
				if watching.active.Load() == 0 || watching.tripped.Load() {
					continue
				}
				if metrics.Read(sample); sample[0].Value.Uint64() <= MaxHeap {
					continue
				}
				watching.tripped.Store(true)
				watching.mu.Lock()
				for _, t := range watching.threads {
					t.Cancel("memory bound")
				}
				watching.mu.Unlock()
			}
		}()
	})
}

// register adds a new thread to those the watch can cancel.
func register(t *starlark.Thread) {
	watching.mu.Lock()
	watching.threads = append(watching.threads, t)
	watching.mu.Unlock()
}

// track counts a call as running; release ends it and returns its thread
// to the pool.
func track() { watching.active.Add(1) }

func release(t *starlark.Thread) {
	watching.active.Add(-1)
	select {
	case idle <- t:
	default: // enough idle threads: this one is forgotten
		watching.mu.Lock()
		for i, r := range watching.threads {
			if r == t {
				watching.threads = append(watching.threads[:i], watching.threads[i+1:]...)
				break
			}
		}
		watching.mu.Unlock()
	}
}

// overMemory reports whether the watch has tripped.
func overMemory() bool { return watching.tripped.Load() }
