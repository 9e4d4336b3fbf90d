package runlog

import (
	"encoding/json"
	"math"
	"strconv"

	"playtest/games"
)

// appendJSON appends l as encoding/json marshals it, byte for byte (the
// tests compare the two on random lines), without reflection: the log
// writes one line per game, which for fast games costs more than playing
// them. Strings with characters that JSON escapes, and floats that
// encoding/json writes with an exponent or refuses, go through
// encoding/json.
func (l *Line) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(l.Index), 10)
	b = append(b, `,"deal":`...)
	b = strconv.AppendInt(b, int64(l.Deal), 10)
	if l.Swapped {
		b = append(b, `,"swapped":true`...)
	}
	b = append(b, `,"winner":`...)
	b = strconv.AppendInt(b, int64(l.Winner), 10)
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, l.Reason)
	b = append(b, `,"plies":`...)
	b = strconv.AppendInt(b, int64(l.Plies), 10)
	b = append(b, `,"decisions":`...)
	b = strconv.AppendInt(b, int64(l.Decisions), 10)
	b = append(b, `,"player_decisions":`...)
	b = strconv.AppendInt(b, int64(l.PlayerDecisions), 10)
	b = append(b, `,"choices":`...)
	b = strconv.AppendInt(b, int64(l.Choices), 10)
	b = append(b, `,"legal_moves":`...)
	b = strconv.AppendInt(b, int64(l.LegalMoves), 10)
	if l.Uncounted != 0 {
		b = append(b, `,"uncounted":`...)
		b = strconv.AppendInt(b, int64(l.Uncounted), 10)
	}
	if l.Lifted != 0 {
		b = append(b, `,"lifted":`...)
		b = strconv.AppendInt(b, int64(l.Lifted), 10)
	}
	if len(l.Sides) > 0 {
		b = append(b, `,"sides":`...)
		for i, v := range l.Sides {
			b = append(b, "[,"[min(i, 1)])
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	if l.Opening != "" {
		b = append(b, `,"opening":`...)
		b = appendJSONString(b, l.Opening)
	}
	if l.Fingerprint != "" {
		b = append(b, `,"fp":`...)
		b = appendJSONString(b, l.Fingerprint)
	}
	if l.Run != "" {
		b = append(b, `,"run":`...)
		b = appendJSONString(b, l.Run)
	}
	if len(l.Metrics) > 0 {
		b = append(b, `,"metrics":`...)
		for i, m := range l.Metrics {
			b = append(b, "[,"[min(i, 1)])
			b = append(b, `{"name":`...)
			b = appendJSONString(b, m.Name)
			b = append(b, `,"kind":`...)
			b = strconv.AppendUint(b, uint64(m.Kind), 10)
			b = append(b, `,"value":`...)
			var err error
			if b, err = appendJSONFloat(b, m.Value); err != nil {
				return nil, err
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(l.Moves) > 0 {
		b = append(b, `,"moves":`...)
		for i, s := range l.Moves {
			b = append(b, "[,"[min(i, 1)])
			b = appendJSONString(b, s)
		}
		b = append(b, ']')
	}
	if len(l.Trace) > 0 {
		b = append(b, `,"trace":`...)
		for i, v := range l.Trace {
			b = append(b, "[,"[min(i, 1)])
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	if p := l.Play; p != nil {
		// A traced game's line is read back by encoding/json (parseLine
		// declines it): these are a few thousand lines of a run at most.
		q, _ := json.Marshal(p) // plain integers always marshal
		b = append(b, `,"play":`...)
		b = append(b, q...)
	}
	return append(b, '}'), nil
}

// appendJSONString appends s as a JSON string, as encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONFloat appends f as encoding/json writes a float64: without an
// exponent from 1e-6 up to 1e21 (and for 0), through encoding/json
// otherwise, which also refuses NaN and infinities.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || !(abs < 1e21)) {
		q, err := json.Marshal(f)
		return append(b, q...), err
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64), nil
}

// parseLine decodes a line as appendJSON writes it without escapes:
// fields in that order, integers in range, strings of printable ASCII. It
// reports false for anything else, which the caller hands to
// encoding/json; what it accepts, encoding/json decodes to the same line
// (the tests check both on random and fuzzed input).
func parseLine(b []byte, l *Line) bool {
	p := lineParser{b: b}
	var winner, kind int
	ok := p.next(`{"index":`) && p.int(&l.Index) && p.next(`,"deal":`) && p.int(&l.Deal) &&
		(!p.next(`,"swapped":true`) || p.set(&l.Swapped)) &&
		p.next(`,"winner":`) && p.int(&winner) && winner == int(games.Player(winner)) &&
		p.next(`,"reason":`) && p.str(&l.Reason) &&
		p.next(`,"plies":`) && p.int(&l.Plies) && p.next(`,"decisions":`) && p.int(&l.Decisions) &&
		p.next(`,"player_decisions":`) && p.int(&l.PlayerDecisions) && p.next(`,"choices":`) && p.int(&l.Choices) &&
		p.next(`,"legal_moves":`) && p.int(&l.LegalMoves) &&
		(!p.next(`,"uncounted":`) || p.int(&l.Uncounted) && l.Uncounted != 0) &&
		(!p.next(`,"lifted":`) || p.int(&l.Lifted) && l.Lifted != 0)
	if !ok {
		return false
	}
	l.Winner = games.Player(winner)
	side := func() bool {
		l.Sides = append(l.Sides, 0)
		return p.int(&l.Sides[len(l.Sides)-1])
	}
	metric := func() bool {
		var m MetricLine
		ok := p.next(`{"name":`) && p.str(&m.Name) && p.next(`,"kind":`) && p.int(&kind) && kind == int(games.MetricKind(kind)) &&
			p.next(`,"value":`) && p.float(&m.Value) && p.next("}")
		m.Kind = games.MetricKind(kind)
		l.Metrics = append(l.Metrics, m)
		return ok
	}
	move := func() bool {
		l.Moves = append(l.Moves, "")
		return p.str(&l.Moves[len(l.Moves)-1])
	}
	return (!p.next(`,"sides":[`) || p.list(side)) &&
		(!p.next(`,"opening":`) || p.str(&l.Opening)) &&
		(!p.next(`,"fp":`) || p.str(&l.Fingerprint)) &&
		(!p.next(`,"run":`) || p.str(&l.Run)) &&
		(!p.next(`,"metrics":[`) || p.list(metric)) &&
		(!p.next(`,"moves":[`) || p.list(move)) &&
		p.next("}") && (p.i == len(b) || p.i == len(b)-1 && b[p.i] == '\n')
}

// list consumes the items of a JSON array, one or more, and its closing
// bracket.
func (p *lineParser) list(item func() bool) bool {
	for item() {
		if !p.next(",") {
			return p.next("]")
		}
	}
	return false
}

// lineParser is parseLine's cursor over a line.
type lineParser struct {
	b []byte
	i int
}

// next consumes s if it comes next.
func (p *lineParser) next(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// set sets v and reports true, to chain in a condition.
func (p *lineParser) set(v *bool) bool {
	*v = true
	return true
}

// int consumes a JSON integer (no leading zeros, no minus zero) that fits
// in an int.
func (p *lineParser) int(v *int) bool {
	start := p.i
	if !p.intPart() || string(p.b[start:p.i]) == "-0" {
		return false
	}
	x, err := strconv.Atoi(string(p.b[start:p.i]))
	*v = x
	return err == nil
}

// intPart consumes a JSON number's sign and integer digits and reports
// whether they are well formed (some digits, no leading zero).
func (p *lineParser) intPart() bool {
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	n := p.skipDigits() - digits
	return n == 1 || n > 1 && p.b[digits] != '0'
}

// float consumes a JSON number and parses it as encoding/json does.
func (p *lineParser) float(v *float64) bool {
	start := p.i
	if !p.intPart() {
		return false
	}
	if p.next(".") {
		if d := p.i; p.skipDigits() == d {
			return false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if d := p.i; p.skipDigits() == d {
			return false
		}
	}
	x, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	*v = x
	return err == nil
}

// skipDigits consumes decimal digits and returns where they end.
func (p *lineParser) skipDigits() int {
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i
}

// str consumes a JSON string of printable ASCII without escapes.
func (p *lineParser) str(v *string) bool {
	if !p.next(`"`) {
		return false
	}
	start := p.i
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			*v = string(p.b[start:p.i])
			p.i++
			return true
		case c < 0x20 || c > 0x7e || c == '\\':
			return false
		}
	}
	return false
}
