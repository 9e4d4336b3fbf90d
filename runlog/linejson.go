package runlog

import (
	"encoding/json"
	"math"
	"strconv"
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
