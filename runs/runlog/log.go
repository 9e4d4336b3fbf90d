package runlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"playtest/games"
	"playtest/internal/bounded"
	"playtest/sim"
)

// Line is one finished game in games.jsonl: everything the summary needs,
// so a resumed or merged run aggregates exactly what the games gave.
type Line struct {
	Index           int          `json:"index"`
	Deal            int          `json:"deal"`
	Swapped         bool         `json:"swapped,omitempty"`
	Winner          games.Player `json:"winner"`
	Reason          string       `json:"reason"`
	Plies           int          `json:"plies"`
	Decisions       int          `json:"decisions"`
	PlayerDecisions int          `json:"player_decisions"`
	Choices         int          `json:"choices"`
	LegalMoves      int          `json:"legal_moves"`
	// Uncounted is sim.Record.Uncounted, left out when 0 (every decision's
	// moves counted, as in every log written before it was added).
	Uncounted int `json:"uncounted,omitempty"`
	// Lifted is sim.Record.Lifted, left out when 0.
	Lifted  int    `json:"lifted,omitempty"`
	Sides   []int  `json:"sides,omitempty"`
	Opening string `json:"opening,omitempty"`
	// Fingerprint is sim.Record.Fingerprint in 16 hex digits; empty in
	// logs written before it was added.
	Fingerprint string `json:"fp,omitempty"`
	// Run is the run's identity (Manifest.RunID): a log line from another
	// run is refused.
	Run     string       `json:"run,omitempty"`
	Metrics []MetricLine `json:"metrics,omitempty"`
	Moves   []string     `json:"moves,omitempty"`
	// Trace and Play are sim.Record's, for the games the run traces.
	Trace []int32   `json:"trace,omitempty"`
	Play  *sim.Play `json:"play,omitempty"`
}

// MetricLine is one game-specific figure of a Line.
type MetricLine struct {
	Name  string           `json:"name"`
	Kind  games.MetricKind `json:"kind"`
	Value float64          `json:"value"`
}

func lineOf(r *sim.Record) *Line {
	l := &Line{
		Index: r.Index, Deal: r.Deal, Swapped: r.Swapped, Winner: r.Result.Winner, Reason: r.Result.Reason,
		Plies: r.Plies, Decisions: r.Decisions, PlayerDecisions: r.PlayerDecisions, Choices: r.Choices,
		LegalMoves: r.LegalMoves, Uncounted: r.Uncounted, Lifted: r.Lifted, Sides: r.Sides, Opening: r.Opening, Moves: r.Moves,
		Trace: r.Trace, Play: r.Play,
	}
	if r.Fingerprint != 0 {
		l.Fingerprint = fmt.Sprintf("%016x", r.Fingerprint)
	}
	for _, m := range r.Metrics {
		l.Metrics = append(l.Metrics, MetricLine{Name: m.Name, Kind: m.Kind, Value: m.Value})
	}
	return l
}

// Record turns the line back into the record it was written from.
func (l *Line) Record() *sim.Record {
	r := &sim.Record{
		Index: l.Index, Deal: l.Deal, Swapped: l.Swapped, Result: games.Result{Winner: l.Winner, Reason: l.Reason},
		Plies: l.Plies, Decisions: l.Decisions, PlayerDecisions: l.PlayerDecisions, Choices: l.Choices,
		LegalMoves: l.LegalMoves, Uncounted: l.Uncounted, Lifted: l.Lifted, Sides: l.Sides, Opening: l.Opening, Moves: l.Moves,
		Trace: l.Trace, Play: l.Play,
	}
	r.Fingerprint, _ = strconv.ParseUint(l.Fingerprint, 16, 64) // checked as read (validFingerprint)
	for _, m := range l.Metrics {
		r.Metrics = append(r.Metrics, games.Metric{Name: m.Name, Kind: m.Kind, Value: m.Value})
	}
	return r
}

// Writer appends finished games to a run directory's log, one line each,
// handed to the operating system as each game ends (so a killed process
// loses nothing) and synced to disk every few seconds and at Close.
type Writer struct {
	dir      string
	run      string
	files    [2]*os.File // games, errors
	bufs     [2]*bufio.Writer
	line     []byte // the line being written, reused
	lastSync time.Time
}

// syncEvery is how often the log is synced to disk.
const syncEvery = 2 * time.Second

// OpenWriter opens dir's log for appending, creating games.jsonl;
// errors.jsonl is created with the first failed game.
func OpenWriter(dir string) (*Writer, error) {
	w := &Writer{dir: dir, lastSync: time.Now()}
	if m, err := ReadManifest(dir); err == nil {
		w.run = m.RunID()
	}
	if err := w.open(0); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, ErrorsFile)); err == nil {
		if err := w.open(1); err != nil {
			w.Close()
			return nil, err
		}
	}
	return w, nil
}

// open opens file i (0 games, 1 errors) for appending.
func (w *Writer) open(i int) error {
	f, err := openNoFollow(filepath.Join(w.dir, []string{GamesFile, ErrorsFile}[i]), os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return err
	}
	w.files[i], w.bufs[i] = f, bufio.NewWriterSize(f, 64<<10)
	return nil
}

// Add appends one game: to games.jsonl, or to errors.jsonl when it failed.
func (w *Writer) Add(r *sim.Record) error {
	i := 0
	var err error
	if r.Err != nil {
		i = 1
		w.line, err = json.Marshal(errorLine{r.Err, w.run})
	} else {
		line := lineOf(r)
		line.Run = w.run
		w.line, err = line.appendJSON(w.line[:0])
	}
	if err != nil {
		return err
	}
	if w.files[i] == nil {
		if err := w.open(i); err != nil {
			return err
		}
	}
	w.line = append(w.line, '\n')
	if _, err := w.bufs[i].Write(w.line); err != nil {
		return err
	}
	if err := w.bufs[i].Flush(); err != nil {
		return err
	}
	if time.Since(w.lastSync) >= syncEvery {
		w.lastSync = time.Now()
		var errs []error
		for _, f := range w.files {
			if f != nil {
				errs = append(errs, f.Sync())
			}
		}
		return errors.Join(errs...)
	}
	return nil
}

// Close flushes, syncs and closes the log.
func (w *Writer) Close() error {
	var errs []error
	for i, f := range w.files {
		if f == nil {
			continue
		}
		errs = append(errs, w.bufs[i].Flush(), f.Sync(), f.Close())
		w.files[i] = nil
	}
	return errors.Join(errs...)
}

// errorLine is a line of errors.jsonl: the failed game and the run.
type errorLine struct {
	*sim.GameError
	Run string `json:"run,omitempty"`
}

// MaxLineSize bounds a log line: a game's record with every move is far
// shorter, and a file that is not a log (/dev/zero) fails at once.
const MaxLineSize = 16 << 20

// lineReader reads one log file's complete lines in order.
type lineReader struct {
	name string
	path string
	f    *os.File
	r    *bufio.Reader
	// head is the next unconsumed game (nil at the end or at a torn last
	// line); good is the offset after the last consumed line.
	head      *sim.Record
	headEnd   int64
	good, off int64
	// valid, if set, checks each record; line counts the lines read.
	valid func(*sim.Record) error
	line  int
	// err is damage before the file's last line; torn is the file's last
	// line when it cannot be read back (a write cut short).
	err  error
	torn *TornLine
	// runs are the identities of the manifest's run and of those it grew
	// from (none when there is no manifest).
	runs []string
}

func openLines(dir, name string, runs []string, valid func(*sim.Record) error) (*lineReader, error) {
	path := filepath.Join(dir, name)
	f, err := bounded.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &lineReader{name: name, path: path}, nil
	}
	if err != nil {
		return nil, err
	}
	lr := &lineReader{name: name, path: path, f: f, r: bufio.NewReaderSize(bounded.Lines(f, MaxLineSize), 64<<10), valid: valid, runs: runs}
	lr.advance()
	return lr, nil
}

// advance reads the next line into head. The file's last line, if it
// cannot be read back (cut short, undecodable or impossible), is torn: a
// write that a kill or a power loss interrupted. A line that cannot be
// read back before the last is damage (err).
func (lr *lineReader) advance() {
	lr.head = nil
	if lr.f == nil || lr.err != nil || lr.torn != nil {
		return
	}
	b, err := lr.r.ReadBytes('\n')
	var long *bounded.ErrTooLong
	if errors.As(err, &long) {
		lr.err = &CorruptError{File: lr.path, Line: lr.line + 1, Err: err}
		return
	}
	if err != nil && len(b) == 0 { // io.EOF after the last line
		return
	}
	lr.line++
	last := err != nil // no newline: the end of the file
	if !last {
		_, more := lr.r.Peek(1)
		last = more != nil
	}
	rec, why := lr.decode(b, err != nil)
	if why != nil {
		if last {
			lr.torn = &TornLine{File: lr.path, Line: lr.line, Bytes: len(b), Err: why}
		} else {
			lr.err = &CorruptError{File: lr.path, Line: lr.line, Err: why}
		}
		return
	}
	lr.off += int64(len(b))
	lr.head, lr.headEnd = rec, lr.off
}

// validFingerprint accepts a line's fingerprint: none (an older log), or
// 16 lower-case hex digits, as lineOf writes it, not all zero.
func validFingerprint(fp string) bool {
	if fp == "" {
		return true
	}
	if len(fp) != 16 || fp == "0000000000000000" {
		return false
	}
	for _, c := range fp {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// decode reads line b as a record, or says why it cannot be one of the
// run's games.
func (lr *lineReader) decode(b []byte, cut bool) (*sim.Record, error) {
	if cut {
		return nil, errors.New("the line ends without a newline")
	}
	var rec *sim.Record
	var run string
	if lr.name == ErrorsFile {
		el := errorLine{GameError: &sim.GameError{}}
		if err := json.Unmarshal(b, &el); err != nil {
			return nil, fmt.Errorf("not a failed game's line: %v", err)
		}
		ge := el.GameError
		rec, run = &sim.Record{Index: ge.Index, Deal: ge.Deal, Swapped: ge.Swapped, Err: ge}, el.Run
	} else {
		var l Line
		if !parseLine(b, &l) {
			if l = (Line{}); json.Unmarshal(b, &l) != nil {
				return nil, errors.New("not a game's line (undecodable JSON)")
			}
		}
		if !validFingerprint(l.Fingerprint) {
			return nil, fmt.Errorf("fingerprint %q: want 16 hex digits", l.Fingerprint)
		}
		rec, run = l.Record(), l.Run
	}
	if len(lr.runs) > 0 && run != "" && !slices.Contains(lr.runs, run) {
		return nil, fmt.Errorf("the line is from run %s, but %s is of run %s: the log and the manifest come from different runs", run, ManifestFile, lr.runs[0])
	}
	if lr.valid != nil {
		if err := lr.valid(rec); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

func (lr *lineReader) take() *sim.Record {
	r := lr.head
	lr.good = lr.headEnd
	lr.advance()
	return r
}

func (lr *lineReader) close() {
	if lr.f != nil {
		lr.f.Close()
	}
}

// CorruptError is a line of a run's log that cannot be one of its games.
type CorruptError struct {
	File string
	Line int
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s line %d: %v (the log was changed or damaged; remove the line, or start the run afresh)", e.File, e.Line, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// BadInput marks a damaged run directory as bad input (exit 2).
func (e *CorruptError) BadInput() bool { return true }

// TornLine is a log file's last line that could not be read back: a write
// cut short by a kill or a power loss. Resume drops it and plays its game
// again (ScanTorn, then Cut).
type TornLine struct {
	File  string
	Line  int
	Bytes int
	Err   error
	keep  int64 // the bytes before the line
}

func (t *TornLine) String() string {
	return fmt.Sprintf("%s: dropped its torn last line (line %d, %d bytes: %v); that game is played again", t.File, t.Line, t.Bytes, t.Err)
}

// Scan reads dir's log of the games [from, to), calling f with each logged
// game in index order (failed games with Err set), and returns the index
// after the last one. It stops at the first game missing from both files,
// or at a torn last line (a write cut short): the run is unfinished there.
// Anything else that cannot be the run's log is a *CorruptError naming the
// file and line: a damaged line before a file's last, a game missing while
// later games follow, a game twice, a game outside [from, to). valid, if
// set, checks every record as it is read.
func Scan(dir string, from, to int, valid func(*sim.Record) error, f func(*sim.Record) error) (next int, err error) {
	next, _, err = ScanTorn(dir, from, to, valid, f)
	return next, err
}

// ScanTorn is Scan that also returns the torn last lines it stopped at
// (nil when none), for a run about to append to its log to Cut first.
// It changes nothing.
func ScanTorn(dir string, from, to int, valid func(*sim.Record) error, f func(*sim.Record) error) (next int, torn []*TornLine, err error) {
	var runs []string
	if m, err := ReadManifest(dir); err == nil {
		runs = append([]string{m.RunID()}, m.Extends...)
	}
	var readers [2]*lineReader
	for i, name := range []string{GamesFile, ErrorsFile} {
		if readers[i], err = openLines(dir, name, runs, valid); err != nil {
			return from, nil, err
		}
		defer readers[i].close()
	}
	next = from
	for next < to {
		var lr *lineReader
		for _, r := range readers {
			if r.head != nil && r.head.Index == next {
				lr = r
				break
			}
		}
		if lr == nil {
			break
		}
		if err := f(lr.take()); err != nil {
			return next, nil, err
		}
		next++
	}
	for _, r := range readers {
		switch {
		case r.err != nil:
			return next, nil, r.err
		case r.head != nil && r.head.Index < next:
			return next, nil, &CorruptError{File: r.path, Line: r.line, Err: fmt.Errorf("game %d a second time", r.head.Index)}
		case r.head != nil && next < to:
			return next, nil, &CorruptError{File: r.path, Line: r.line,
				Err: fmt.Errorf("game %d, but game %d before it is in neither %s nor %s", r.head.Index, next, GamesFile, ErrorsFile)}
		case r.head != nil:
			return next, nil, &CorruptError{File: r.path, Line: r.line,
				Err: fmt.Errorf("game %d, outside the directory's games [%d, %d)", r.head.Index, from, to)}
		}
	}
	for _, r := range readers {
		if r.torn != nil {
			r.torn.keep = r.good
			torn = append(torn, r.torn)
		}
	}
	return next, torn, nil
}

// Cut cuts the torn line off its file, keeping every line before it.
func (t *TornLine) Cut() error {
	if err := cutAfter(t.File, t.keep); err != nil {
		return fmt.Errorf("cutting the torn last line of %s: %w", t.File, err)
	}
	return nil
}

// cutAfter cuts the log file at path to size bytes, refusing a symbolic
// link (which would cut its target).
func cutAfter(path string, size int64) error {
	f, err := openNoFollow(path, os.O_WRONLY)
	if err != nil {
		return err
	}
	return errors.Join(f.Truncate(size), f.Sync(), f.Close())
}

// Reset removes dir's log and manifest, to start a run afresh.
func Reset(dir string) error {
	var errs []error
	for _, name := range []string{ManifestFile, GamesFile, ErrorsFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
