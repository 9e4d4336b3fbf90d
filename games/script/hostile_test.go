package script

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"playtest/games"
	"playtest/internal/testenv"
)

// hostileScript is tic-tac-toe's script with body as the start of moves():
// s, a string of 16 MiB, is at hand.
func hostileScript(t testing.TB, body string) games.Game {
	t.Helper()
	src := `
REASONS = {"line": "decisive"}
def start(knobs):
    return 0
def turn(state):
    return 0
def moves(state):
    s = "x" * (16 << 20)
` + indent(body) + `
    return [1]
def play(state, move):
    return state + 1
def result(state):
    return None if state < 3 else (0, "line")
`
	g, err := compile("hostile.star", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return g
}

func indent(body string) string {
	lines := strings.Split(strings.TrimSpace(body), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

// movesError asks the start position's moves and returns the script's
// error, or nil.
func movesError(g games.Game) (err *Error) {
	defer func() {
		if p := recover(); p != nil {
			if !errors.As(p.(error), &err) {
				panic(p)
			}
		}
	}()
	g.NewState().LegalMoves(nil)
	return nil
}

// TestHeavyWorkInFewSteps (issue 53): built-ins and operations that do
// much work in one step, or build much in one value, are charged what they
// visit and build, and refused past the bounds, wherever the script
// reaches them from (a method kept in a variable, getattr): each of these
// stops with the budget's or a bound's message, within the budget's
// time, and without building what it asked for.
func TestHeavyWorkInFewSteps(t *testing.T) {
	testenv.SkipUnderRace(t) // one goroutine's work, run to the budget: make test's second stage
	const budget = "stopped after 10000000 steps"
	for _, c := range []struct{ name, body, want string }{
		{"count", `for i in range(1000000):
    s.count("y")`, budget},
		{"sorted", `l = list(range(1000000))
for i in range(1000000):
    sorted(l, reverse = True)`, budget},
		{"deep str", `x = []
for i in range(1000000):
    x = [x]
str(x)`, budget},
		{"deep hash", `x = ()
for i in range(20000):
    x = (x,)
hash(x)`, "nested deeper than 10000 levels"},
		{"squares", `x = 3
for i in range(40):
    x = x * x`, "bits: a script's integers hold at most 4096"},
		{"squares str", `x = 3
for i in range(23):
    x = x * x
str(x)`, "bits: a script's integers hold at most 4096"},
		{"shift", `x = 1
for i in range(100):
    x = x << 100`, "bits: a script's integers hold at most 4096"},
		{"int of digits", `int("9" * 1000000)`, "int() of a string of 1000000 characters"},
		// The memory bound's bypasses: a method kept in a variable, got by
		// getattr, and text of a value shared many times over.
		{"join kept", `f = "".join
f([s] * 100)`, "str.join would make a string of"},
		{"join getattr", `getattr("", "join")([s] * 100)`, "str.join would make a string of"},
		{"str of shared", `l = [s] * 1000
str(l)`, budget},
		{"repr of shared", `l = [s] * 1000
repr(l)`, budget},
		{"percent of shared", `l = [s] * 1000
"%s" % (l,)`, budget},
		{"format of shared", `l = [s] * 1000
"{}".format(l)`, budget},
		{"replace", `s.replace("x", "xxxxxx")`, "str.replace would make a string of"},
		{"replace kept", `r = s.replace
r("x", "xxxxxx")`, "str.replace would make a string of"},
		// Comparing, hashing and searching visit what they are given.
		{"equal strings", `t = "x" * (16 << 20)
for i in range(1000000):
    s == t`, budget},
		{"in list", `l = list(range(1000000))
for i in range(1000000):
    -1 in l`, budget},
		{"hash doubling", `t = ("x",)
for i in range(60):
    t = (t, t)
d = {t: 1}`, budget},
		{"hash key", `t = ("x",)
for i in range(60):
    t = (t, t)
d = {}
d[t] = 1`, budget},
		{"compare doubling", `t = ("x",)
u = ("x",)
for i in range(60):
    t = (t, t)
    u = (u, u)
t == u`, budget},
		{"slice", `l = list(range(1000000))
for i in range(1000000):
    m = l[:]`, budget},
		{"split", `(" x" * (8 << 20)).split()`, "str.split would make"},
		{"twelve lists", `keep = []
for i in range(12):
    keep.append(list(range(1000000)))`, budget},
		{"append forever", `grow = []
while True:
    grow.append(len(grow))`, budget},
		{"grow forever", `keep = []
while True:
    keep.append([0] * 1000000)`, budget},
		{"append past a list's bound", `l = []
l.extend(range(1 << 20))
l.append(1)`, "list.append would make 1048577 elements"},
		{"set union", `a = set(range(1000000))
b = set(range(1000000, 2000000))
a | b`, "would make 2000000 elements"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := hostileScript(t, c.body)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			done := make(chan *Error, 1)
			go func() { done <- movesError(g) }()
			var err *Error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatal("still running after a minute")
			}
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "moves()") {
				t.Errorf("error %q, want %q", err, c.want)
			}
			if built := after.TotalAlloc - before.TotalAlloc; built > 600<<20 {
				t.Errorf("the call allocated %d MiB", built>>20)
			}
		})
	}
}

// TestCheapScriptsUnchanged: the guards change no result of a script
// within its bounds, and the usual idioms (x in a small list, a dict's
// key, a slice, a format, a method kept in a variable) still work.
func TestCheapScriptsUnchanged(t *testing.T) {
	g := hostileScript(t, `l = [3, 1, 2]
d = {"a": 1, (1, 2): [3]}
f = ", ".join
checks = [
    sorted(l) == [1, 2, 3],
    2 in l and not (5 in l),
    d[(1, 2)] == [3] and d["a"] == 1,
    l[1:] == [1, 2] and "abc"[::-1] == "cba",
    "%s-%d" % ("x", 3) == "x-3" and "{}{}".format(1, "b") == "1b",
    f(["a", "b"]) == "a, b",
    getattr("a b", "split")() == ["a", "b"],
    str([1, "a"]) == '[1, "a"]' and repr("a") == '"a"',
    (1 << 40) * (1 << 40) == 1 << 80 and 7 // 2 == 3 and -7 % 3 == 2,
    len(set([1, 2]) | set([2, 3])) == 3,
    dict(a = 1).get("a") == 1,
]
x = [1]
x += [2]
y = "a"
y += "b"
checks.append(x == [1, 2] and y == "ab")
if not all(checks):
    fail("a check failed: %s" % checks)`)
	if err := movesError(g); err != nil {
		t.Fatal(err)
	}
}

// TestBudgetIndependentOfWorkers (issue 53): a call's budget is its own,
// so a script that builds much per call fails, or not, the same whether
// it runs alone or beside others.
func TestBudgetIndependentOfWorkers(t *testing.T) {
	for _, c := range []struct {
		body string
		fail bool
	}{
		{"keep = [list(range(1000000)) for i in range(12)]", true},
		{"keep = [list(range(1000000)) for i in range(6)]", false},
	} {
		alone := movesError(hostileScript(t, c.body)) != nil
		results := make(chan bool, 2)
		for range 2 {
			go func() { results <- movesError(hostileScript(t, c.body)) != nil }()
		}
		a, b := <-results, <-results
		if alone != c.fail || a != c.fail || b != c.fail {
			t.Errorf("%s: fails alone %v, beside another %v and %v; want %v", c.body, alone, a, b, c.fail)
		}
	}
}

// TestSignalStopsACall (issue 53): a signal stops a running call at its
// next step, as an interruption (context.Canceled), not the script's
// fault; calls made after it run as usual.
func TestSignalStopsACall(t *testing.T) {
	// A loop of plain steps spends its step budget far more slowly than
	// finds over 16 MiB (about 10 ms): the signal comes while it runs,
	// even on one core.
	g := hostileScript(t, `n = 0
for i in range(100000000):
    n += i`)
	done := make(chan *Error, 1)
	go func() { done <- movesError(g) }()
	defer watching.signaled.Store(false)
	// The signal comes, as a signal would, whatever call runs: again and
	// again until the one that runs is stopped (one that had just ended
	// when it came runs on).
	var err *Error
	for err == nil {
		onSignal()
		select {
		case err = <-done:
			if err == nil {
				t.Fatal("the calls ended as usual: no signal stopped them")
			}
		default:
			runtime.Gosched()
		}
	}
	if err == nil || !err.Interrupted || !errors.Is(err, context.Canceled) || err.BadInput() {
		t.Fatalf("%v: want an interruption", err)
	}
	if err := movesError(hostileScript(t, "pass")); err != nil {
		t.Errorf("a call after the signal: %v", err)
	}
}

// TestHugeMessagesCut (issue 53): a traceback of deep recursion and a
// script's own long message are cut, saying what was cut.
func TestHugeMessagesCut(t *testing.T) {
	testenv.SkipUnderRace(t)
	for _, body := range []string{
		"def f(n):\n    return f(n + 1)\nf(0)",
		`fail("y" * 1000000)`,
	} {
		err := movesError(hostileScript(t, body))
		if err == nil {
			t.Fatalf("%s: no error", body)
		}
		if n := len(err.Error()); n > 20000 || !strings.Contains(err.Error(), "cut") {
			t.Errorf("%s: a message of %d bytes:\n%.500s", body, n, err.Error())
		}
	}
}
