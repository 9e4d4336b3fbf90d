package script

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"hash/fnv"
	"html"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"playtest/games"
	"playtest/games/pcg"
)

// DefaultMaxMoves bounds the legal moves of a position when the script
// does not (MAX_MOVES).
const DefaultMaxMoves = 256

// DefaultMaxPlies bounds a game's length when the script does not
// (MAX_PLIES): after so many decisions of the seats the host ends it, a
// draw for max-plies (a stalled game, counted apart from other draws), so
// that a script whose games never end still gives a result. A script with
// a knob max_plies gets twice that knob, so that its own rule ends the
// game first.
const DefaultMaxPlies = 1000

// keyBytes is the length of a scripted position's key: a digest of its
// key() text (or of the state's own text).
const keyBytes = 16

// game is a scripted game: the script, its knobs and its start position
// (start(knobs) is called once; states are frozen values, so a state's
// copy is a pointer copy).
type game struct {
	s        *Script
	name     string
	knobs    *starlark.Dict
	start    starlark.Value
	maxMoves int
	// plyCap ends a game after so many decisions of the seats (0: never,
	// for playtest solve, which counts endless play a draw itself).
	plyCap   int
	features []games.Feature
	weights  []float64
	// board is cell_board(knobs)'s board of cells (Rows 0: none).
	board   games.CellBoard
	reasons []games.ReasonDoc
	// keys maps a position's key to the state it was written for, so that
	// SetKey can restore it (the solver restores positions by key).
	keys sync.Map
}

// featureGame is a scripted game with FEATURES (implements
// games.Featurer).
type featureGame struct{ *game }

func newGame(r *Rules) (games.Game, error) {
	s := r.script
	def, err := s.Definition()
	if err != nil {
		return nil, err
	}
	g := &game{s: s, name: def.Name, knobs: r.knobDict(), maxMoves: DefaultMaxMoves}
	if v := s.global("MAX_MOVES"); v != nil {
		n, err := starlark.AsInt32(v)
		if err != nil || n < 1 || n > 1<<16 {
			return nil, s.refuse("", "MAX_MOVES is %s: want a whole number from 1 to 65536, the most legal moves a position can have", v)
		}
		g.maxMoves = n
	}
	if err := g.readFeatures(); err != nil {
		return nil, err
	}
	if err := g.readReasons(); err != nil {
		return nil, err
	}
	if err := g.readCells(); err != nil {
		return nil, err
	}
	if g.plyCap, err = r.plyCap(); err != nil {
		return nil, err
	}
	if g.plyCap > 0 && !slices.ContainsFunc(g.reasons, func(d games.ReasonDoc) bool { return d.Name == games.ReasonMaxPlies }) {
		g.reasons = append(g.reasons, games.ReasonDoc{Name: games.ReasonMaxPlies, Outcome: games.Drawn})
	}
	if (s.function("determinize") == nil) != (s.function("view") == nil) {
		return nil, s.refuse("", "a game with hidden information defines both determinize(state, seat, rng) and view(state, seat): what a seat sees, which re-sampling must leave as it is")
	}
	start, err := s.call("start", g.knobs)
	if err != nil {
		return nil, err
	}
	if start == starlark.None {
		return nil, s.refuse("start", "returned None: want the start position (any value: a dict, a struct, a list)")
	}
	start.Freeze()
	g.start = start
	switch {
	case g.features != nil && g.board.Rows > 0:
		return featureBoardGame{g}, nil
	case g.features != nil:
		return featureGame{g}, nil
	case g.board.Rows > 0:
		return boardGame{g}, nil
	}
	return g, nil
}

// readFeatures reads FEATURES (names, or (name, doc) pairs) and
// FEATURE_WEIGHTS (the hand weights, 0 by default).
func (g *game) readFeatures() error {
	v := g.s.global("FEATURES")
	if v == nil {
		return nil
	}
	if g.s.function("features") == nil {
		return g.s.refuse("", "FEATURES is set but the script defines no features(state, seat)")
	}
	seq, ok := v.(starlark.Indexable)
	if !ok || seq.Len() == 0 {
		return g.s.refuse("", "FEATURES is %s: want a list of feature names", v)
	}
	for i := range seq.Len() {
		item := seq.Index(i)
		name, doc := "", ""
		if t, ok := item.(starlark.Tuple); ok && len(t) == 2 {
			name, _ = starlark.AsString(t[0])
			doc, _ = starlark.AsString(t[1])
		} else {
			name, _ = starlark.AsString(item)
		}
		if name == "" {
			return g.s.refuse("", "FEATURES[%d] is %s: want a name, or (name, doc)", i, item)
		}
		g.features = append(g.features, games.Feature{Name: name, Doc: cmp.Or(doc, name)})
	}
	g.weights = make([]float64, len(g.features))
	if w := g.s.global("FEATURE_WEIGHTS"); w != nil {
		ws, ok := w.(starlark.Indexable)
		if !ok || ws.Len() != len(g.features) {
			return g.s.refuse("", "FEATURE_WEIGHTS is %s: want one number per feature (%d)", w, len(g.features))
		}
		for i := range ws.Len() {
			f, ok := starlark.AsFloat(ws.Index(i))
			if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				return g.s.refuse("", "FEATURE_WEIGHTS[%d] is %s: want a finite number", i, ws.Index(i))
			}
			g.weights[i] = f
		}
	}
	return nil
}

// readReasons reads REASONS: each reason result() may give, and whether
// it is "decisive", "drawn" or "either". Without it, results give no
// reason and are filed under "script".
func (g *game) readReasons() error {
	v := g.s.global("REASONS")
	if v == nil {
		g.reasons = []games.ReasonDoc{{Name: defaultReason, Outcome: games.Either}}
		return nil
	}
	d, ok := v.(*starlark.Dict)
	if !ok || d.Len() == 0 {
		return g.s.refuse("", "REASONS is %s: want a dict of the reasons games end for, each \"decisive\", \"drawn\" or \"either\"", v)
	}
	outcomes := map[string]games.Outcome{"decisive": games.Decisive, "drawn": games.Drawn, "either": games.Either}
	for _, kv := range d.Items() {
		name, ok1 := starlark.AsString(kv[0])
		kind, ok2 := starlark.AsString(kv[1])
		if !ok1 || !ok2 || name == "" || outcomes[kind] == 0 {
			return g.s.refuse("", "REASONS[%s] is %s: want a reason's name and \"decisive\", \"drawn\" or \"either\"", kv[0], kv[1])
		}
		g.reasons = append(g.reasons, games.ReasonDoc{Name: name, Outcome: outcomes[kind]})
	}
	return nil
}

// defaultReason files the results of a script without REASONS.
const defaultReason = "script"

// Reasons are the script's REASONS (implements games.Reasoner).
func (g *game) Reasons() []games.ReasonDoc { return g.reasons }

func (g *game) Name() string       { return g.name }
func (g *game) MaxLegalMoves() int { return g.maxMoves }

// NewState returns the start position.
func (g *game) NewState() games.State { return g.wrap(&State{g: g, v: g.start}) }

// Features lists the script's FEATURES (implements games.Featurer).
func (g featureGame) Features() []games.Feature { return g.features }

// HandWeights are FEATURE_WEIGHTS: Evaluate is their sum with the
// features, when the script has no evaluate().
func (g featureGame) HandWeights() []float64 { return g.weights }

// wrap gives a state the optional interfaces its script supports.
func (g *game) wrap(st *State) games.State {
	hidden, featured := g.s.function("determinize") != nil, g.features != nil
	switch {
	case hidden && featured:
		return hiddenFeatureState{st}
	case hidden:
		return hiddenState{st}
	case featured:
		return featureState{st}
	}
	return st
}

// State is a scripted game in progress: the script's frozen state value
// and what the script said of it, asked once.
type State struct {
	g     *game
	v     starlark.Value
	plies int
	// known says the fields below are filled for v.
	known   bool
	player  games.Player
	result  games.Result
	options optionList // legal moves, or chance outcomes
	weights []int
	texts   []string // the options' notation, once asked
}

type (
	hiddenState        struct{ *State }
	featureState       struct{ *State }
	hiddenFeatureState struct{ *State }
)

func (s hiddenState) Determinize(p games.Player, rng *pcg.Rand) { s.determinize(p, rng) }
func (s hiddenState) ObservationString(p games.Player) string   { return s.view(p) }
func (s hiddenFeatureState) ObservationString(p games.Player) string {
	return s.view(p)
}
func (s featureState) AppendFeatures(buf []float64, seat games.Player) []float64 {
	return s.appendFeatures(buf, seat)
}
func (s hiddenFeatureState) Determinize(p games.Player, rng *pcg.Rand) { s.determinize(p, rng) }
func (s hiddenFeatureState) AppendFeatures(buf []float64, seat games.Player) []float64 {
	return s.appendFeatures(buf, seat)
}

// optionList is a position's legal moves (the frozen list moves()
// returned, not copied) or chance outcomes.
type optionList struct {
	seq  starlark.Indexable
	list []starlark.Value
}

func (o optionList) len() int {
	if o.seq != nil {
		return o.seq.Len()
	}
	return len(o.list)
}

func (o optionList) at(i int) starlark.Value {
	if o.seq != nil {
		return o.seq.Index(i)
	}
	return o.list[i]
}

// Interpreted marks the rules as a script's (implements
// games.Interpreted).
func (s *State) Interpreted() {}

// core is the state a wrapper holds.
func (s *State) core() *State { return s }

// fail stops the engine with a script's error (a games.RulesError).
func fail(err error) { panic(err) }

// ask fills what the script says of the position: result(), then turn()
// and moves() or chance().
func (s *State) ask() {
	if s.known {
		return
	}
	sc := s.g.s
	r, err := sc.call("result", s.v)
	if err != nil {
		fail(err)
	}
	s.options, s.weights, s.texts = optionList{}, nil, nil
	if r != starlark.None {
		res, err := s.readResult(r)
		if err != nil {
			fail(err)
		}
		s.player, s.result, s.known = games.Terminal, res, true
		return
	}
	if s.g.plyCap > 0 && s.plies >= s.g.plyCap {
		s.player, s.result, s.known = games.Terminal, games.Result{Winner: games.NoPlayer, Reason: games.ReasonMaxPlies}, true
		return
	}
	t, err := sc.call("turn", s.v)
	if err != nil {
		fail(err)
	}
	switch {
	case t == starlark.String("chance"):
		s.player = games.Chance
		s.readChance()
	default:
		seat, err := starlark.AsInt32(t)
		if err != nil || seat != 0 && seat != 1 {
			fail(sc.refuse("turn", "returned %s for a game not over: want 0 or 1 (the seat to move) or \"chance\"", t))
		}
		s.player = games.Player(seat)
		s.readMoves()
	}
	s.known = true
}

// readResult reads result()'s answer: 0 or 1 (the winner), "draw", or
// (either, "reason").
func (s *State) readResult(r starlark.Value) (games.Result, error) {
	reason, given := defaultReason, r
	if t, ok := r.(starlark.Tuple); ok && len(t) == 2 {
		text, ok := starlark.AsString(t[1])
		if !ok || text == "" {
			return games.Result{}, s.g.s.refuse("result", "returned %s: a reason must be a non-empty string", given)
		}
		r, reason = t[0], text
	}
	var res games.Result
	if w, err := starlark.AsInt32(r); r == starlark.String("draw") {
		res = games.Result{Winner: games.NoPlayer, Reason: reason}
	} else if err == nil && (w == 0 || w == 1) {
		res = games.Result{Winner: games.Player(w), Reason: reason}
	} else {
		return games.Result{}, s.g.s.refuse("result", "returned %s: want None while the game goes on, 0 or 1 (the winner), \"draw\", or (that, \"reason\")", given)
	}
	if err := games.CheckResult(s.g.reasons, res); err != nil {
		if s.g.s.global("REASONS") == nil {
			return games.Result{}, s.g.s.refuse("result", "returned %s with a reason, but the script declares no REASONS: add them, e.g. REASONS = {%q: \"decisive\"} (\"drawn\" or \"either\" for the others), or return the result alone", given, reason)
		}
		return games.Result{}, s.g.s.refuse("result", "returned %s: %v (REASONS declares %s)", given, err, reasonNames(s.g.reasons))
	}
	return res, nil
}

func reasonNames(reasons []games.ReasonDoc) string {
	names := make([]string, len(reasons))
	for i, r := range reasons {
		names[i] = r.Name
	}
	return strings.Join(names, ", ")
}

// readMoves asks moves(): a non-empty list of distinct moves.
func (s *State) readMoves() {
	sc := s.g.s
	v, err := sc.call("moves", s.v)
	if err != nil {
		fail(err)
	}
	seq, ok := v.(starlark.Indexable)
	if !ok {
		fail(sc.refuse("moves", "returned %s: want a list of moves", v.Type()))
	}
	if seq.Len() == 0 {
		fail(sc.refuse("moves", "returned no move, and result() says the game goes on: a seat with nothing to play must end the game in result()"))
	}
	if seq.Len() > s.g.maxMoves {
		fail(sc.refuse("moves", "returned %d moves, more than MAX_MOVES (%d)", seq.Len(), s.g.maxMoves))
	}
	v.Freeze() // the moves are the host's now (a list already frozen stops at once)
	s.options = optionList{seq: seq}
}

// readChance asks chance(): (outcome, weight) pairs, weights positive.
func (s *State) readChance() {
	sc := s.g.s
	if sc.function("chance") == nil {
		fail(sc.refuse("turn", "returned \"chance\", but the script defines no chance(state)"))
	}
	v, err := sc.call("chance", s.v)
	if err != nil {
		fail(err)
	}
	seq, ok := v.(starlark.Indexable)
	if !ok || seq.Len() == 0 || seq.Len() > s.g.maxMoves {
		fail(sc.refuse("chance", "returned %s: want a list of (outcome, weight) pairs, 1 to MAX_MOVES (%d) of them", v, s.g.maxMoves))
	}
	for i := range seq.Len() {
		pair, ok := seq.Index(i).(starlark.Tuple)
		if !ok || len(pair) != 2 {
			fail(sc.refuse("chance", "returned %s at %d: want an (outcome, weight) pair", seq.Index(i), i))
		}
		w, err := starlark.AsInt32(pair[1])
		if err != nil || w < 1 {
			fail(sc.refuse("chance", "returned the weight %s for %s: want a whole number of at least 1 (probabilities are weights over their sum)", pair[1], pair[0]))
		}
		pair[0].Freeze()
		s.options.list = append(s.options.list, pair[0])
		s.weights = append(s.weights, w)
	}
}

// notation writes every option's notation once, and checks that no two
// options of a position share one (a replay reads moves by it).
func (s *State) notation() []string {
	s.ask()
	if s.texts != nil || s.options.len() == 0 {
		return s.texts
	}
	texts := make([]string, s.options.len())
	seen := make(map[string]int, s.options.len())
	for i := range texts {
		m := s.options.at(i)
		texts[i] = s.text(m)
		if j, dup := seen[texts[i]]; dup {
			call := "moves"
			if s.g.s.function("notation") != nil {
				call = "notation"
			}
			fail(s.g.s.refuse(call, "the moves %d and %d of one position are both written %q: each legal move needs its own notation (moves must differ)", j, i, texts[i]))
		}
		seen[texts[i]] = i
	}
	s.texts = texts
	return texts
}

// text is a move's notation: notation(state, move), or the move itself.
func (s *State) text(m starlark.Value) string {
	if s.g.s.function("notation") == nil {
		if t, ok := starlark.AsString(m); ok {
			return t
		}
		t, err := ownText(m)
		if err != nil {
			fail(s.g.s.refuse("moves", "a move's notation: %v; define notation(state, move)", err))
		}
		return t
	}
	v, err := s.g.s.call("notation", s.v, m)
	if err != nil {
		fail(err)
	}
	t, ok := starlark.AsString(v)
	if !ok || t == "" || strings.ContainsAny(t, " \t\n") {
		fail(s.g.s.refuse("notation", "returned %s for %s: want a non-empty string without spaces", v, m))
	}
	return t
}

// CurrentPlayer is the seat to move, Chance or Terminal.
func (s *State) CurrentPlayer() games.Player {
	s.ask()
	return s.player
}

// LegalMoves appends the indices of moves()'s moves: a scripted move is
// its place in the list the script returned.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.CurrentPlayer() < 0 {
		return buf
	}
	for i := range s.options.len() {
		buf = append(buf, games.Move(i))
	}
	return buf
}

// ChanceOutcomes appends chance()'s outcomes with their weights.
func (s *State) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome {
	if s.CurrentPlayer() != games.Chance {
		return buf
	}
	for i, w := range s.weights {
		buf = append(buf, games.ChanceOutcome{Move: games.Move(i), Weight: w})
	}
	return buf
}

// Apply plays a move or chance outcome through play(state, move).
func (s *State) Apply(m games.Move) {
	p := s.CurrentPlayer()
	if int(m) < 0 || int(m) >= s.options.len() {
		fail(s.g.s.refuse("play", "asked to play option %d of %d: not a legal move", m, s.options.len()))
	}
	v, err := s.g.s.call("play", s.v, s.options.at(int(m)))
	if err != nil {
		fail(err)
	}
	if v == starlark.None {
		fail(s.g.s.refuse("play", "returned None after %s: want the new state (play returns it; the state it is given is frozen)", s.text(s.options.at(int(m)))))
	}
	v.Freeze()
	s.v, s.known = v, false
	if p >= 0 {
		s.plies++
	}
}

// Clone returns a copy: the frozen state is shared.
func (s *State) Clone() games.State {
	c := *s
	return s.g.wrap(&c)
}

// CopyFrom makes s a copy of src.
func (s *State) CopyFrom(src games.State) {
	*s = *src.(interface{ core() *State }).core()
}

// IsTerminal reports whether result() says the game is over.
func (s *State) IsTerminal() bool { return s.CurrentPlayer() == games.Terminal }

// Result is result()'s answer.
func (s *State) Result() games.Result {
	s.ask()
	return s.result
}

// Plies counts the moves played: plies(state) where the script defines it
// (a decision that is no move, such as the pie rule's, not counted), else
// every decision of the seats.
func (s *State) Plies() int {
	if s.g.s.function("plies") == nil {
		return s.plies
	}
	v, err := s.g.s.call("plies", s.v)
	if err != nil {
		fail(err)
	}
	n, err := starlark.AsInt32(v)
	if err != nil || n < 0 || n > s.plies {
		fail(s.g.s.refuse("plies", "returned %s after %d decisions of the seats: want a whole number from 0 to that", v, s.plies))
	}
	return n
}

// MoveString is the move's notation.
func (s *State) MoveString(m games.Move) string {
	texts := s.notation()
	if int(m) < 0 || int(m) >= len(texts) {
		return fmt.Sprintf("?%d", m)
	}
	return texts[m]
}

// ParseMove finds the legal move (or chance outcome) written text.
func (s *State) ParseMove(text string) (games.Move, error) {
	for i, t := range s.notation() {
		if t == text {
			return games.Move(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a legal move here (legal: %s)", text, strings.Join(s.notation(), " "))
}

// String draws the position: draw(state), or the state's own text.
func (s *State) String() string {
	if s.g.s.function("draw") == nil {
		t, err := ownText(s.v)
		if err != nil {
			fail(s.g.s.refuse("play", "the state's drawing: %v; define draw(state)", err))
		}
		return t
	}
	v, err := s.g.s.call("draw", s.v)
	if err != nil {
		fail(err)
	}
	t, ok := starlark.AsString(v)
	if !ok {
		fail(s.g.s.refuse("draw", "returned a %s: want the drawing as a string", v.Type()))
	}
	return t
}

// keyText is the position's exact text: key(state), or the state's own.
func (s *State) keyText() string {
	if s.g.s.function("key") == nil {
		t, err := ownText(s.v)
		if err != nil {
			fail(s.g.s.refuse("play", "the state's key: %v; define key(state)", err))
		}
		return t
	}
	v, err := s.g.s.call("key", s.v)
	if err != nil {
		fail(err)
	}
	t, ok := starlark.AsString(v)
	if !ok {
		fail(s.g.s.refuse("key", "returned a %s: want a string that tells positions apart", v.Type()))
	}
	return t
}

// Hash is the position's hash, from its key (implements games.Hasher).
func (s *State) Hash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(s.keyText()))
	return h.Sum64()
}

// AppendKey appends the position's key, a digest of its key text
// (implements games.Keyer), remembering the state for SetKey.
func (s *State) AppendKey(dst []byte) []byte {
	sum := sha256.Sum256([]byte(s.keyText()))
	s.g.keys.LoadOrStore(string(sum[:keyBytes]), s.v)
	return append(dst, sum[:keyBytes]...)
}

// SetKey makes s the position a key AppendKey wrote describes.
func (s *State) SetKey(key []byte) {
	v, ok := s.g.keys.Load(string(key))
	if !ok {
		fail(s.g.s.refuse("key", "a position was asked for by a key no state of this game wrote"))
	}
	*s = State{g: s.g, v: v.(starlark.Value)}
}

// Evaluate is the script's evaluate(state, seat), or its features
// weighed by FEATURE_WEIGHTS, or 0 (implements games.Heuristic).
func (s *State) Evaluate(seat games.Player) float64 {
	sc := s.g.s
	if sc.function("evaluate") != nil {
		v, err := sc.call("evaluate", s.v, starlark.MakeInt(int(seat)))
		if err != nil {
			fail(err)
		}
		f, ok := starlark.AsFloat(v)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			fail(sc.refuse("evaluate", "returned %s: want a finite number", v))
		}
		return f
	}
	if s.g.features == nil {
		return 0
	}
	total := 0.0
	for i, f := range s.appendFeatures(nil, seat) {
		total += s.g.weights[i] * f
	}
	return total
}

// appendFeatures appends features(state, seat).
func (s *State) appendFeatures(buf []float64, seat games.Player) []float64 {
	sc := s.g.s
	v, err := sc.call("features", s.v, starlark.MakeInt(int(seat)))
	if err != nil {
		fail(err)
	}
	seq, ok := v.(starlark.Indexable)
	if !ok || seq.Len() != len(s.g.features) {
		fail(sc.refuse("features", "returned %s: want %d numbers, one per FEATURES entry", v, len(s.g.features)))
	}
	for i := range seq.Len() {
		f, ok := starlark.AsFloat(seq.Index(i))
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			fail(sc.refuse("features", "returned %s for %s: want a finite number", seq.Index(i), s.g.features[i].Name))
		}
		buf = append(buf, f)
	}
	return buf
}

// determinize re-samples what seat cannot see: determinize(state, seat,
// rng), rng the host's stream.
func (s *State) determinize(seat games.Player, rng *pcg.Rand) {
	sc := s.g.s
	v, err := sc.call("determinize", s.v, starlark.MakeInt(int(seat)), newRandom(rng))
	if err != nil {
		fail(err)
	}
	if v == starlark.None {
		fail(sc.refuse("determinize", "returned None: want the state with what the seat cannot see re-sampled"))
	}
	v.Freeze()
	s.v, s.known = v, false
}

// DrawSVG draws the text drawing (draw(state)) for the board viewer: one
// line of monospace text a row (implements games.Drawer).
func (s *State) DrawSVG() string {
	lines := strings.Split(strings.TrimRight(s.String(), "\n"), "\n")
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l))
	}
	w, h := 16+8.5*float64(width), 16+18*float64(len(lines))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" font-family="monospace" font-size="14">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%.0f" height="%.0f" fill="#fbfaf5" stroke="#999"/>`, w, h)
	for i, l := range lines {
		fmt.Fprintf(&b, `<text x="8" y="%d" style="white-space:pre" xml:space="preserve">%s</text>`, 22+18*i, html.EscapeString(l))
	}
	b.WriteString("</svg>")
	return b.String()
}

// view is what seat sees: view(state, seat), a string.
func (s *State) view(seat games.Player) string {
	v, err := s.g.s.call("view", s.v, starlark.MakeInt(int(seat)))
	if err != nil {
		fail(err)
	}
	t, ok := starlark.AsString(v)
	if !ok {
		fail(s.g.s.refuse("view", "returned a %s: want what the seat sees, as a string", v.Type()))
	}
	return t
}
