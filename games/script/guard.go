package script

import (
	"fmt"
	"reflect"

	"go.starlark.net/syntax"
)

// Before a script is compiled, every operation that can cost more than an
// instruction is rewritten into a call of one of the host's guards
// (budget.go says what they charge):
//
//	x + y, x * y, x % y, x << y, x - y, x | y, ...   _add(x, y), _mul(x, y), ...
//	x == y, x < y, x in y, ...                       _eq(x, y), _lt(x, y), _in(x, y), ...
//	x += y, x -= y, ...                              x = _extend(x, y), x = _sub(x, y), ...
//	d[k], {k: v}, {k: v for ...}                     d[_key(k)], {_key(k): v}, ...
//	x[i:j]                                           _sized(x)[i:j]
//	f(*args, **kwargs)                               f(*_spread(args), **_spread(kwargs))
//	s.join(parts), l.append(x), ...                  _method(s, "join", parts), ...
//	s.join (a method taken as a value)               _attr(s, "join")
//
// and every built-in function (str, sorted, getattr, ...) is the host's
// guarded copy. An operation whose operand is a literal stays as it is
// where the literal keeps it cheap (i - 1, x == 0, c in "abc"): those are
// the most common, and an instruction bounds them.

// Names of the host's guards.
const (
	fnExtend = "_extend"
	fnKey    = "_key"
	fnSized  = "_sized"
	fnSpread = "_spread"
	fnAttr   = "_attr"
	fnMethod = "_method"
)

// binaryGuards names the guard of each binary operator.
var binaryGuards = map[syntax.Token]string{
	syntax.PLUS: "_add", syntax.MINUS: "_sub", syntax.STAR: "_mul", syntax.SLASH: "_div", syntax.SLASHSLASH: "_floordiv",
	syntax.PERCENT: "_mod", syntax.AMP: "_and", syntax.PIPE: "_or", syntax.CIRCUMFLEX: "_xor", syntax.LTLT: "_shl",
	syntax.GTGT: "_shr", syntax.EQL: "_eq", syntax.NEQ: "_ne", syntax.LT: "_lt", syntax.LE: "_le", syntax.GT: "_gt",
	syntax.GE: "_ge", syntax.IN: "_in", syntax.NOT_IN: "_notin",
}

// augmented maps x op= y to its operator.
var augmented = map[syntax.Token]syntax.Token{
	syntax.PLUS_EQ: syntax.PLUS, syntax.MINUS_EQ: syntax.MINUS, syntax.STAR_EQ: syntax.STAR, syntax.SLASH_EQ: syntax.SLASH,
	syntax.SLASHSLASH_EQ: syntax.SLASHSLASH, syntax.PERCENT_EQ: syntax.PERCENT, syntax.AMP_EQ: syntax.AMP,
	syntax.PIPE_EQ: syntax.PIPE, syntax.CIRCUMFLEX_EQ: syntax.CIRCUMFLEX, syntax.LTLT_EQ: syntax.LTLT, syntax.GTGT_EQ: syntax.GTGT,
}

// cheapWithLiteral are the operators an instruction bounds when one
// operand is a literal: with a number, an integer (bounded) or a type
// error; with a string, a comparison that stops within the literal.
var cheapWithLiteral = map[syntax.Token]bool{
	syntax.MINUS: true, syntax.SLASH: true, syntax.SLASHSLASH: true, syntax.GTGT: true, syntax.AMP: true,
	syntax.PIPE: true, syntax.CIRCUMFLEX: true, syntax.EQL: true, syntax.NEQ: true, syntax.LT: true, syntax.LE: true,
	syntax.GT: true, syntax.GE: true,
}

// guard rewrites the file's costly operations into calls of the host's
// guards.
func guard(f *syntax.File) {
	rewrite(reflect.ValueOf(f))
}

// rewrite walks a syntax node by reflection and rewrites, children first,
// every field holding an expression or statement.
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
		if a, ok := addr(v).(*syntax.AssignStmt); ok {
			rewriteTarget(reflect.ValueOf(&a.LHS).Elem())
			rewriteAt(reflect.ValueOf(&a.RHS).Elem())
			return
		}
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				rewriteAt(f)
			}
		}
	}
}

// rewriteTarget rewrites an assignment's target: a field it assigns to
// (x.f = v) stays a field, what it indexes is guarded.
func rewriteTarget(v reflect.Value) {
	switch x := v.Interface().(type) {
	case *syntax.DotExpr:
		rewriteAt(reflect.ValueOf(&x.X).Elem())
	case *syntax.ParenExpr:
		rewriteTarget(reflect.ValueOf(&x.X).Elem())
	case *syntax.TupleExpr:
		for i := range x.List {
			rewriteTarget(reflect.ValueOf(&x.List[i]).Elem())
		}
	case *syntax.ListExpr:
		for i := range x.List {
			rewriteTarget(reflect.ValueOf(&x.List[i]).Elem())
		}
	default:
		rewriteAt(v)
	}
}

var exprType = reflect.TypeFor[syntax.Expr]()

// rewriteAt rewrites what v holds, then v itself when it is an expression
// or an assignment.
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

// guardExpr returns the guarded form of an expression, or nil when it
// stays (or was guarded in place).
func guardExpr(e syntax.Expr) syntax.Expr {
	switch x := e.(type) {
	case *syntax.BinaryExpr:
		if fn := binaryGuards[x.Op]; fn != "" && !cheap(x.Op, x.X, x.Y) {
			return hostCall(fn, x.OpPos, x.X, x.Y)
		}
	case *syntax.IndexExpr:
		x.Y = keyed(x.Y)
	case *syntax.DictEntry:
		x.Key = keyed(x.Key)
	case *syntax.Comprehension:
		if _, isDict := x.Body.(*syntax.DictEntry); x.Curly && !isDict {
			x.Body = keyed(x.Body) // a set's elements are hashed
		}
	case *syntax.SliceExpr:
		x.X = hostCall(fnSized, x.Lbrack, x.X)
	case *syntax.DotExpr:
		if methodNames[x.Name.Name] {
			return hostCall(fnAttr, x.NamePos, x.X, stringLiteral(x.Name.Name, x.NamePos))
		}
	case *syntax.CallExpr:
		for _, arg := range x.Args {
			if u, ok := arg.(*syntax.UnaryExpr); ok && (u.Op == syntax.STAR || u.Op == syntax.STARSTAR) {
				u.X = hostCall(fnSpread, u.OpPos, u.X)
			}
		}
		// A method call: the method was rewritten into _attr(x, "name")
		// first (children first); call it through _method instead.
		if attr, ok := x.Fn.(*syntax.CallExpr); ok && isHostCall(attr, fnAttr) {
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: x.Lparen, Name: fnMethod}, Lparen: x.Lparen,
				Args: append(append([]syntax.Expr{}, attr.Args...), x.Args...), Rparen: x.Rparen}
		}
	}
	return nil
}

// guardAssign turns x op= y into x = guard(x, y) (a list's += extending
// it in place, as Starlark's does), where the operation is not cheap.
func guardAssign(a *syntax.AssignStmt) {
	op, ok := augmented[a.Op]
	if !ok || cheap(op, a.LHS, a.RHS) {
		return
	}
	fn := binaryGuards[op]
	if op == syntax.PLUS {
		fn = fnExtend
	}
	a.Op, a.RHS = syntax.EQ, hostCall(fn, a.OpPos, a.LHS, a.RHS)
}

// cheap reports whether x op y stays an instruction: a literal operand
// bounds it (i - 1, n + 1, x == 0, c in "abc").
func cheap(op syntax.Token, x, y syntax.Expr) bool {
	switch op {
	case syntax.PLUS:
		return number(x) || number(y)
	case syntax.IN, syntax.NOT_IN:
		return literal(y) || literalList(y)
	case syntax.LTLT:
		return literal(x) // a literal shifted by at most 511 bits
	}
	return cheapWithLiteral[op] && (literal(x) || literal(y) || numeric(x) || numeric(y))
}

// numericCalls are the built-ins and guards that give a number or a bool.
var numericCalls = map[string]bool{
	"len": true, "int": true, "abs": true, "ord": true, "hash": true, "float": true, "bool": true,
	"_eq": true, "_ne": true, "_lt": true, "_le": true, "_gt": true, "_ge": true, "_in": true, "_notin": true,
}

// numeric reports whether e, if it does not fail, is a number or a bool:
// a number literal, len(x) and the like, a comparison, or arithmetic
// with a number that cannot be a list, set or string (x - 1, n + 1, but
// not x * 2, a list's repetition, or x % 2, a string's format).
func numeric(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.Literal:
		return x.Token == syntax.INT || x.Token == syntax.FLOAT
	case *syntax.Ident:
		return x.Name == "True" || x.Name == "False"
	case *syntax.ParenExpr:
		return numeric(x.X)
	case *syntax.UnaryExpr:
		return x.Op == syntax.MINUS || x.Op == syntax.PLUS || x.Op == syntax.TILDE || x.Op == syntax.NOT
	case *syntax.CondExpr:
		return numeric(x.True) && numeric(x.False)
	case *syntax.CallExpr:
		// The host's built-ins: a script may not redefine them.
		fn, ok := x.Fn.(*syntax.Ident)
		return ok && numericCalls[fn.Name]
	case *syntax.BinaryExpr:
		switch x.Op {
		case syntax.EQL, syntax.NEQ, syntax.LT, syntax.LE, syntax.GT, syntax.GE, syntax.IN, syntax.NOT_IN:
			return true
		case syntax.AND, syntax.OR:
			return numeric(x.X) && numeric(x.Y)
		case syntax.PLUS, syntax.MINUS, syntax.SLASH, syntax.SLASHSLASH, syntax.GTGT, syntax.LTLT, syntax.AMP, syntax.PIPE, syntax.CIRCUMFLEX:
			return numeric(x.X) || numeric(x.Y)
		case syntax.STAR:
			return numeric(x.X) && numeric(x.Y)
		case syntax.PERCENT:
			return numeric(x.X)
		}
	}
	return false
}

// literal reports whether e is a literal (a number, a string, None, True
// or False), possibly in parentheses or negated.
func literal(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.Literal:
		return true
	case *syntax.Ident:
		return x.Name == "None" || x.Name == "True" || x.Name == "False"
	case *syntax.ParenExpr:
		return literal(x.X)
	case *syntax.UnaryExpr:
		return x.Op == syntax.MINUS && number(x.X)
	}
	return false
}

// number reports whether e is a number literal.
func number(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.Literal:
		return x.Token == syntax.INT || x.Token == syntax.FLOAT
	case *syntax.ParenExpr:
		return number(x.X)
	case *syntax.UnaryExpr:
		return x.Op == syntax.MINUS && number(x.X)
	}
	return false
}

// literalList reports whether e is a list or tuple of literals ([1, 2]).
func literalList(e syntax.Expr) bool {
	var items []syntax.Expr
	switch x := e.(type) {
	case *syntax.ListExpr:
		items = x.List
	case *syntax.TupleExpr:
		items = x.List
	case *syntax.ParenExpr:
		return literalList(x.X)
	default:
		return false
	}
	for _, item := range items {
		if !literal(item) {
			return false
		}
	}
	return true
}

// keyed wraps a key in _key (it will be hashed), unless it is a literal
// or a number.
func keyed(e syntax.Expr) syntax.Expr {
	if literal(e) || numeric(e) {
		return e
	}
	start, _ := e.Span()
	return hostCall(fnKey, start, e)
}

func stringLiteral(s string, pos syntax.Position) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: fmt.Sprintf("%q", s), Value: s}
}

func hostCall(fn string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}

func isHostCall(c *syntax.CallExpr, fn string) bool {
	id, ok := c.Fn.(*syntax.Ident)
	return ok && id.Name == fn
}

// addr is a pointer to v, when v can be addressed.
func addr(v reflect.Value) any {
	if !v.CanAddr() {
		return nil
	}
	return v.Addr().Interface()
}
