package script

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"playtest/internal/printable"
)

// MaxSteps is the step budget of one call into a script: the Starlark
// interpreter's count of abstract computation steps, with what the
// host's guards charge for the work of built-ins and operations
// (budget.go), the same on every machine, so a script that loops or
// builds stops at the same place everywhere, in well under a second (a
// step is a few nanoseconds to a few tens).
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
	// Interrupted says a signal stopped the call: the script did nothing
	// wrong (the error wraps context.Canceled).
	Interrupted bool
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
func (e *Error) BadInput() bool { return !e.Interrupted }

// Unwrap is context.Canceled for a call a signal stopped.
func (e *Error) Unwrap() error {
	if e.Interrupted {
		return context.Canceled
	}
	return nil
}

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
	for _, name := range predeclared.Keys() {
		if _, shadowed := globals[name]; shadowed {
			return nil, &Error{File: file, Msg: fmt.Sprintf("the script defines %s, a name of Starlark's built-ins or of the host's (%s): rename it", name, strings.Join(hostNames(), ", "))}
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
		return nil, &Error{File: s.File, Call: name, Msg: fmt.Sprintf("not called: the process's live heap passed %d MiB and %d MiB for each call running, the bound scripts run under", MaxHeap>>20, MaxCallHeap>>20)}
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
	case watching.signaled.Load() && strings.Contains(e.Msg, interruptedReason):
		e.Msg, e.Backtrace, e.Interrupted = "stopped by a signal", "", true
	case thread.ExecutionSteps() >= MaxSteps:
		e.Msg = fmt.Sprintf("stopped after %d steps, the budget of one call (a step is an instruction, or a value, an element or 16 bytes of text that a built-in or an operation visits or builds): a loop that does not end, or work too large for one call?", MaxSteps)
	case overMemory():
		e.Msg = fmt.Sprintf("stopped: the process's live heap passed %d MiB and %d MiB for each call running, the bound scripts run under (a structure the script keeps growing, or, for playtest solve, the positions it holds)", MaxHeap>>20, MaxCallHeap>>20)
	}
	e.Msg, e.Backtrace = printable.Cut(e.Msg, maxMessage), cutBacktrace(e.Backtrace)
	return e
}

// maxMessage bounds an error's message (a script may fail with any text):
// what is cut is said.
const maxMessage = 2000

// cutBacktrace keeps the first and last frames of a long traceback (deep
// recursion makes a hundred thousand) and says how many were cut.
func cutBacktrace(bt string) string {
	const keep = 12
	lines := strings.Split(strings.TrimRight(bt, "\n"), "\n")
	if len(lines) <= 2*keep+1 {
		return printable.Cut(bt, 4*maxMessage)
	}
	cut := len(lines) - 2*keep
	out := append(append(lines[:keep:keep], fmt.Sprintf("  ... %d lines of the traceback cut ...", cut)), lines[len(lines)-keep:]...)
	return printable.Cut(strings.Join(out, "\n"), 4*maxMessage)
}

// refuse is the error of a value the host cannot accept from a call.
// The script's values among args are shown bounded (show).
func (s *Script) refuse(call, format string, args ...any) *Error {
	for i, a := range args {
		if v, ok := a.(starlark.Value); ok {
			args[i] = show(v)
		}
	}
	return &Error{File: s.File, Call: call, Msg: printable.Cut(fmt.Sprintf(format, args...), maxMessage)}
}

// global returns a top-level value of the script, or nil.
func (s *Script) global(name string) starlark.Value { return s.globals[name] }
