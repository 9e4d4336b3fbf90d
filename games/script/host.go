package script

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// MaxSteps is the step budget of one call into a script: the Starlark
// interpreter's count of abstract computation steps, the same on every
// machine, so a script that loops stops at the same place everywhere, in
// well under a second (a step is a few nanoseconds to a few tens).
const MaxSteps = 10_000_000

// Error is a script's failure: a syntax or runtime error, a call over its
// step budget or the memory bound, or a value the host refuses (an
// illegal move, a malformed state or result). It names the file and the
// call, with the script's own traceback where the interpreter gave one.
// It is bad input (exit 2), and a rules error: a run stops at it rather
// than losing one game (games.RulesError).
type Error struct {
	File string
	// Call is the script function that failed ("moves"), or "" while
	// loading.
	Call string
	Msg  string
	// Backtrace is the interpreter's traceback (file:line:column of each
	// frame), if any.
	Backtrace string
}

func (e *Error) Error() string {
	where := e.File
	if e.Call != "" {
		where += ": " + e.Call + "()"
	}
	text := "rules script " + where + ": " + e.Msg
	if e.Backtrace != "" {
		text += "\n" + strings.TrimRight(e.Backtrace, "\n")
	}
	return text
}

// BadInput marks the error as the user's input: exit 2.
func (e *Error) BadInput() bool { return true }

// RulesError marks the error as one in the game's rules themselves.
func (e *Error) RulesError() {}

// fileOptions are the dialect scripts are written in: Python-like, with
// while loops, recursion, sets and top-level statements (the step budget
// bounds them all).
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// Script is a loaded rules script: its globals (frozen: a script keeps no
// state between calls) and the functions the host calls.
type Script struct {
	File string
	// Source is the script's text, and Digest its SHA-256 ("sha256:…"):
	// a run's config hash covers it.
	Source  []byte
	Digest  string
	globals starlark.StringDict
}

// Load compiles and runs a script's top level (within the step budget).
func Load(file string, src []byte) (*Script, error) {
	watch()
	sum := sha256.Sum256(src)
	s := &Script{File: file, Source: src, Digest: "sha256:" + hex.EncodeToString(sum[:])}
	f, err := fileOptions.Parse(file, src, 0)
	if err != nil {
		return nil, s.loadError(err)
	}
	guard(f)
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		return nil, s.loadError(err)
	}
	thread := s.thread("load")
	defer release(thread)
	globals, err := prog.Init(thread, predeclared)
	if err != nil {
		return nil, s.callError("", err, thread)
	}
	for name := range predeclared {
		if _, shadowed := globals[name]; shadowed {
			return nil, &Error{File: file, Msg: fmt.Sprintf("the script defines %s, a name of the host's (its guards and built-ins: %s): rename it", name, strings.Join(predeclared.Keys(), ", "))}
		}
	}
	globals.Freeze()
	s.globals = globals
	return s, nil
}

// loadError turns a parse or resolve error into an Error at its position.
func (s *Script) loadError(err error) *Error {
	var list resolve.ErrorList
	if errors.As(err, &list) {
		lines := make([]string, len(list))
		for i, e := range list {
			lines[i] = fmt.Sprintf("%s: %s", e.Pos, e.Msg)
		}
		return &Error{File: s.File, Msg: "the script does not compile:\n" + strings.Join(lines, "\n")}
	}
	return &Error{File: s.File, Msg: "the script does not compile:\n" + err.Error()}
}

// thread is an interpreter thread for one call, reused: its step count
// reset to the budget, watched for memory, and no way to load files or
// print. release returns it.
func (s *Script) thread(call string) *starlark.Thread {
	var t *starlark.Thread
	select {
	case t = <-idle:
	default:
		t = &starlark.Thread{Print: func(*starlark.Thread, string) {}}
		t.Load = func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New("load() is not available: a rules script is one file")
		}
		register(t)
	}
	t.Name = call
	t.Steps = 0
	t.Uncancel()
	t.SetMaxExecutionSteps(MaxSteps)
	track()
	return t
}

// idle holds the threads no call is using: every call needs one, and a
// thread keeps nothing of a call once it has returned.
var idle = make(chan *starlark.Thread, 256)

// function returns the script's function name, or nil.
func (s *Script) function(name string) starlark.Callable {
	if c, ok := s.globals[name].(starlark.Callable); ok {
		return c
	}
	return nil
}

// call calls the script's function name with args.
func (s *Script) call(name string, args ...starlark.Value) (starlark.Value, error) {
	fn := s.function(name)
	if fn == nil {
		return nil, &Error{File: s.File, Call: name, Msg: "the script defines no function " + name}
	}
	if overMemory() {
		return nil, &Error{File: s.File, Call: name, Msg: fmt.Sprintf("not called: the process's heap passed %d MiB, the bound scripts run under", MaxHeap>>20)}
	}
	thread := s.thread(name)
	defer release(thread)
	v, err := starlark.Call(thread, fn, args, nil)
	if err != nil {
		return nil, s.callError(name, err, thread)
	}
	return v, nil
}

// callError turns an interpreter error into an Error, saying why the
// thread was stopped when the host stopped it.
func (s *Script) callError(call string, err error, thread *starlark.Thread) *Error {
	e := &Error{File: s.File, Call: call, Msg: err.Error()}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		e.Msg, e.Backtrace = ee.Msg, ee.Backtrace()
	}
	switch {
	case thread.ExecutionSteps() >= MaxSteps:
		e.Msg = fmt.Sprintf("stopped after %d steps, the budget of one call (a loop that does not end?)", MaxSteps)
	case overMemory():
		e.Msg = fmt.Sprintf("stopped: the process's heap passed %d MiB, the bound scripts run under (the whole process counts: a structure the script keeps growing, or, for playtest solve, the positions it holds)", MaxHeap>>20)
	}
	return e
}

// refuse is the error of a value the host cannot accept from a call.
func (s *Script) refuse(call, format string, args ...any) *Error {
	return &Error{File: s.File, Call: call, Msg: fmt.Sprintf(format, args...)}
}

// global returns a top-level value of the script, or nil.
func (s *Script) global(name string) starlark.Value { return s.globals[name] }
