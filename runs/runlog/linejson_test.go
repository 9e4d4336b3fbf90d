package runlog

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim"
)

// randomLine builds a line with every field exercised: empty and nil
// slices, strings that JSON escapes (quotes, HTML characters, control
// characters, non-ASCII, invalid UTF-8, U+2028), and floats that
// encoding/json writes with an exponent, as integers, or refuses.
func randomLine(rng *pcg.Rand) *Line {
	texts := []string{"", "capture-threshold", "max-plies", `a"b`, `back\slash`, "<tag>&amp;", "tab\there", "\x00\x1f", "é→♟", "\xff\xfe", "line\u2028sep", "d1MS-d3", "1388daefdb007545"}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 7, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 123456789.125, 1e20, 1e21, -1e21, 2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64}
	text := func() string { return texts[rng.IntN(len(texts))] }
	num := func() int { return rng.IntN(2000) - 1000 }
	l := &Line{
		Index: num(), Deal: num(), Swapped: rng.IntN(2) == 0, Winner: games.Player(rng.IntN(6) - 3), Reason: text(),
		Plies: num(), Decisions: num(), PlayerDecisions: num(), Choices: num(), LegalMoves: num(),
		Opening: text(), Fingerprint: text(), Run: text(),
	}
	if rng.IntN(2) == 0 {
		l.Uncounted = num()
	}
	if rng.IntN(3) == 0 {
		l.Lifted = num()
	}
	switch rng.IntN(3) {
	case 0:
		l.Sides = []int{}
	case 1:
		for range rng.IntN(3) + 1 {
			l.Sides = append(l.Sides, num())
		}
	}
	for range rng.IntN(4) {
		f := floats[rng.IntN(len(floats))]
		if rng.IntN(3) == 0 {
			f = rng.Float64() * math.Pow(10, float64(rng.IntN(50)-25))
		}
		l.Metrics = append(l.Metrics, MetricLine{Name: text(), Kind: games.MetricKind(rng.IntN(256)), Value: f})
	}
	for range rng.IntN(4) {
		l.Moves = append(l.Moves, text())
	}
	if rng.IntN(4) == 0 {
		l.Moves = []string{}
	}
	if rng.IntN(3) == 0 {
		for range rng.IntN(5) {
			l.Trace = append(l.Trace, int32(rng.Uint64()))
		}
		l.Play = &sim.Play{Deliberated: rng.IntN(9), Near: rng.IntN(30), Of: rng.IntN(90), Covered: rng.IntN(3), Cells: rng.IntN(64), Positions: rng.IntN(9)}
	}
	return l
}

// checkLineJSON compares appendJSON with encoding/json on one line.
func checkLineJSON(t *testing.T, l *Line) {
	t.Helper()
	want, wantErr := json.Marshal(l)
	got, err := l.appendJSON([]byte("prefix"))
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%+v: error %v, encoding/json's %v", l, err, wantErr)
	}
	if err == nil && !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("%+v:\n got %s\nwant prefix%s", l, got, want)
	}
}

// TestLineJSONMatchesEncodingJSON checks that the log's hand-written
// encoder writes what encoding/json would, on random lines, NaN and
// infinities included.
func TestLineJSONMatchesEncodingJSON(t *testing.T) {
	rng := pcg.New(7, 7)
	for range 20000 {
		checkLineJSON(t, randomLine(rng))
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		checkLineJSON(t, &Line{Metrics: []MetricLine{{Name: "x", Value: f}}})
	}
}

// FuzzLineJSON compares the encoders on arbitrary strings and floats.
func FuzzLineJSON(f *testing.F) {
	f.Add("capture-threshold", "d1S-b3", 0.5, int64(3))
	f.Add("<&>", "\u2028", 1e-7, int64(-1))
	f.Fuzz(func(t *testing.T, reason, move string, value float64, n int64) {
		checkLineJSON(t, &Line{Index: int(n), Winner: games.Player(n), Reason: reason, Opening: move, Fingerprint: move, Run: reason,
			Sides: []int{int(n)}, Metrics: []MetricLine{{Name: move, Kind: games.MetricKind(n), Value: value}}, Moves: []string{move, reason}})
	})
}

// checkParseLine compares parseLine with encoding/json on one input: what
// parseLine accepts, encoding/json must decode to the same line.
func checkParseLine(t *testing.T, b []byte) (accepted bool) {
	t.Helper()
	var got Line
	if !parseLine(b, &got) {
		return false
	}
	var want Line
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("parseLine accepted %q, which encoding/json refuses: %v", b, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nparseLine    %+v\nencoding/json %+v", b, got, want)
	}
	return true
}

// TestParseLineMatchesEncodingJSON reads random lines back: parseLine
// takes every line without escapes and decodes it as encoding/json does,
// and leaves the rest (and lines cut short or edited) to encoding/json.
func TestParseLineMatchesEncodingJSON(t *testing.T) {
	rng := pcg.New(8, 8)
	accepted := 0
	for i := range 20000 {
		l := randomLine(rng)
		if i%2 == 0 { // strings without escapes, as the games write them
			l.Reason, l.Opening, l.Fingerprint, l.Run = "capture-threshold", "d1MS-d3", "00c0ffee12345678", "1388daefdb007545"
			for j := range l.Metrics {
				l.Metrics[j].Name = "first_capture.capturer_wins"
			}
			for j := range l.Moves {
				l.Moves[j] = "a1S-b2"
			}
			l.Trace, l.Play = nil, nil // a traced game's line is left to encoding/json
		}
		b, err := l.appendJSON(nil)
		if err != nil {
			continue
		}
		b = append(b, '\n')
		if checkParseLine(t, b) {
			accepted++
		}
		checkParseLine(t, b[:rng.IntN(len(b))])
		edited := bytes.Clone(b)
		edited[rng.IntN(len(b))] = "0-1e.,:}]\"x "[rng.IntN(12)]
		checkParseLine(t, edited)
	}
	if accepted < 9000 {
		t.Errorf("parseLine took only %d of 20000 lines, 10000 of them without escapes", accepted)
	}
	for _, s := range []string{
		`{"index":0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1}`,
		`{"index":-0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1}`,
		`{"index":01,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1}`,
		`{"index":0,"deal":0,"winner":300,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1}`,
		`{"index":99999999999999999999,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1}`,
		`{"index":0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1,"metrics":[{"name":"m","kind":1,"value":1e400}]}`,
		`{"index":0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1,"metrics":[{"name":"m","kind":256,"value":1}]}`,
		`{"index":0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1,"sides":[]}`,
		`{"index":0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1} x`,
	} {
		checkParseLine(t, []byte(s))
	}
}

// FuzzParseLine checks parseLine against encoding/json on arbitrary input.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"index":3,"deal":1,"swapped":true,"winner":0,"reason":"capture-threshold","plies":253,"decisions":253,"player_decisions":253,"choices":253,"legal_moves":6963,"sides":[0,1],"opening":"d1S-b3","run":"1388daefdb007545","metrics":[{"name":"captures","kind":1,"value":7.5e-3}],"moves":["a","b"]}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkParseLine(t, b) })
}

// TestFingerprintLines: a line's fingerprint reads back as the record's,
// and a malformed one is refused as the line is read.
func TestFingerprintLines(t *testing.T) {
	for fp, ok := range map[string]bool{"": true, "00c0ffee12345678": true, "0000000000000000": false, "00C0FFEE12345678": false, "c0ffee": false, "00c0ffee1234567g": false} {
		if validFingerprint(fp) != ok {
			t.Errorf("validFingerprint(%q) = %v", fp, !ok)
		}
	}
	l := lineOf(&sim.Record{Fingerprint: 0xc0ffee, Result: games.Result{Reason: "x"}})
	if l.Fingerprint != "0000000000c0ffee" || l.Record().Fingerprint != 0xc0ffee {
		t.Errorf("fingerprint %q read back as %x", l.Fingerprint, l.Record().Fingerprint)
	}
	lr := &lineReader{name: GamesFile}
	if _, err := lr.decode([]byte(`{"index":0,"deal":0,"winner":0,"reason":"x","plies":1,"decisions":1,"player_decisions":1,"choices":1,"legal_moves":1,"fp":"zz"}`), false); err == nil || !strings.Contains(err.Error(), `fingerprint "zz"`) {
		t.Errorf("a bad fingerprint: %v", err)
	}
}
