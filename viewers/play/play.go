package play

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"playtest/games"
	"playtest/internal/bounded"
	"playtest/internal/interrupt"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// Options set up a game between a person and a bot.
type Options struct {
	// Seat is the person's seat; the bot plays the other.
	Seat games.Player
	// Bot is the other seat's bot.
	Bot bots.Spec
	// Hint is the bot that answers hint (HintBot chooses a strong one).
	Hint bots.Spec
	// Width is the terminal's width in columns, for the list of legal
	// decisions (0: 80).
	Width int
	// Seed decides the chance outcomes and the bot's randomness.
	Seed uint64
	In   io.Reader
	Out  io.Writer
}

// RecordSchema is the schema tag of a saved game.
const RecordSchema = "playtest/record/v1"

// Record is a game as save writes it: the variant (its text and
// overrides, so it decodes to the same rules), the seats and every entry
// of the game in the game's notation. playtest replay reads it.
type Record struct {
	Schema      string              `json:"schema"`
	Game        string              `json:"game"`
	Variant     string              `json:"variant"`
	Source      string              `json:"source"`
	DefaultName string              `json:"default_name"`
	Text        string              `json:"text"`
	Overrides   []variants.Override `json:"overrides"`
	Seat        int                 `json:"human_seat"`
	Bot         string              `json:"bot"`
	Seed        uint64              `json:"seed"`
	Moves       []string            `json:"moves"`
	Result      string              `json:"result,omitempty"`
	// SavedTo and Saved are the file the game was last saved to with save
	// and how many of Moves it held then (not written to the file): a
	// game quit after it was saved need not be saved again.
	SavedTo string `json:"-"`
	Saved   int    `json:"-"`
}

// Unsaved reports whether the record holds entries no save has kept.
func (r *Record) Unsaved() bool {
	return len(r.Moves) > 0 && (r.SavedTo == "" || r.Saved < len(r.Moves))
}

// Config decodes the record's variant.
func (r *Record) Config() (*variants.Config, error) {
	cfg, err := variants.Parse(r.Source, r.DefaultName, []byte(r.Text), r.Overrides)
	if err != nil {
		return nil, err
	}
	cfg.Name = r.Variant
	return cfg, nil
}

// maxRecordSize bounds a saved game as read back: a record holds a game's
// entries, far below it.
const maxRecordSize = 16 << 20

// ReadRecord reads a saved game.
func ReadRecord(path string) (*Record, error) {
	b, err := bounded.ReadFile(path, maxRecordSize)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil || r.Schema != RecordSchema {
		return nil, fmt.Errorf("%s: not a saved game (want JSON with schema %s)", path, RecordSchema)
	}
	return &r, nil
}

// session is one game in progress.
type session struct {
	cfg     *variants.Config
	g       games.Game
	opts    Options
	s       games.State
	history []string       // every entry so far, in notation
	seen    []string       // the entries as the person's seat sees them (Seen)
	who     []games.Player // who made each entry (Chance for a chance outcome)
	savedTo string         // the file of the last save, and its entries
	saved   int
	bot     bots.Bot
	hinter  bots.Bot
	lines   <-chan interrupt.Line // the person's lines, read as they come
	ctx     context.Context
	out     io.Writer
	legal   []games.Move
}

// ErrQuit is returned when the person quits or the input ends.
var ErrQuit = fmt.Errorf("the game was left unfinished")

// Run plays cfg's game between the person (reading opts.In, writing
// opts.Out) and opts.Bot, until the game ends or the person quits. At the
// person's turn it draws what the person's seat may see (in Capstone and
// STACKS their own goal or hand only), lists the legal decisions with
// numbers, and reads a number or a decision in the game's notation, or:
// undo (take back the person's last decision and the bot's answer), hint
// (what the bot would play there), save FILE (a record playtest replay
// reads), board, moves, help, quit. Bad input gets a message and the
// prompt again.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Record, error) {
	g, err := cfg.NewGame()
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	defer close(done)
	p := &session{cfg: cfg, g: g, opts: opts, out: opts.Out, ctx: ctx, lines: interrupt.Lines(opts.In, done)}
	if p.bot, err = opts.Bot.New(g); err != nil {
		return nil, err
	}
	if p.opts.Hint.Bot == "" {
		if p.opts.Hint, err = HintBot(cfg, opts.Seat); err != nil {
			return nil, err
		}
	}
	if p.hinter, err = p.opts.Hint.New(g); err != nil {
		return nil, err
	}
	// A signal stops a bot's search at once.
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	for _, b := range []bots.Bot{p.bot, p.hinter} {
		if s, ok := b.(bots.Stoppable); ok {
			s.SetStop(&stop)
		}
	}
	p.bot.Reset(opts.Seat.Opponent(), sim.BotStream(opts.Seed, 0, int(opts.Seat.Opponent())))
	p.hinter.Reset(opts.Seat, sim.BotStream(opts.Seed, 0, int(opts.Seat)))
	fmt.Fprintf(p.out, "%s: %s — you play seat %d against %s (seed %d). Type help for the commands.\n",
		cfg.Definition.Title, cfg.Name, opts.Seat, opts.Bot.Describe(), opts.Seed)
	p.restart(cfg.Opening) // the variant's opening: is played for both
	for !p.s.IsTerminal() {
		if err := ctx.Err(); err != nil {
			return p.record(), err
		}
		switch who := p.s.CurrentPlayer(); who {
		case games.Chance:
			p.chanceMove()
		case opts.Seat:
			if err := p.humanMove(); err != nil {
				return p.record(), err
			}
		default:
			p.botMove(who)
		}
	}
	if err := ctx.Err(); err != nil {
		return p.record(), err
	}
	fmt.Fprintf(p.out, "\n%s\n%s: %s\n", p.view(), resultText(p.s), p.outcome())
	return p.record(), nil
}

// restart plays history from the start: chance outcomes and decisions as
// recorded, so an undo keeps the chance outcomes the game had.
func (p *session) restart(history []string) {
	p.s = p.g.NewState()
	p.history, p.seen, p.who = p.history[:0], p.seen[:0], p.who[:0]
	for _, text := range history {
		m, err := p.s.ParseMove(text)
		if err != nil {
			panic(fmt.Sprintf("play: replaying %q: %v", text, err)) // our own record
		}
		p.apply(m)
	}
}

func (p *session) apply(m games.Move) {
	text := p.s.MoveString(m)
	p.history = append(p.history, text)
	p.seen = append(p.seen, Seen(p.s, p.opts.Seat, text))
	p.who = append(p.who, p.s.CurrentPlayer())
	p.s.Apply(m)
}

// side is the name of the side the person's seat commands in a game with
// named sides (after any swap), "" in others.
func (p *session) side() string {
	sided, ok := p.g.(games.Sided)
	st, ok2 := p.s.(games.SideState)
	if !ok || !ok2 {
		return ""
	}
	return sided.Sides()[st.SideOf(p.opts.Seat)]
}

// sideNews says so when the entry just played swapped the sides (a pie
// rule's swap): the person's seat now commands another side.
func (p *session) sideNews(before string) {
	if after := p.side(); after != before && after != "" {
		fmt.Fprintf(p.out, "the sides were swapped: you now play %s %s\n", p.sideWord(), after)
	}
}

// sideWord is what the game calls its sides ("army" in Stacktics, else
// "side").
func (p *session) sideWord() string {
	if w, ok := p.g.(games.SideWorder); ok {
		return w.SideWord()
	}
	return "side"
}

// Seen is how an entry about to be played in s (text, in the game's
// notation) reads to viewer: in a game with hidden information (a
// games.Determinizer), a chance outcome that is another seat's (a goal
// piece or a card drawn for it) and another seat's setup decision (its
// goal order) read as "(hidden)"; everything else as text.
func Seen(s games.State, viewer games.Player, text string) string {
	if _, hidden := s.(games.Determinizer); !hidden {
		return text
	}
	switch who := s.CurrentPlayer(); {
	case who == games.Chance:
		if o, ok := s.(games.ChanceOwner); ok && o.ChanceFor() != games.NoPlayer && o.ChanceFor() != viewer {
			return "(hidden)"
		}
	case who != viewer:
		if sd, ok := s.(games.SetupDecider); ok && sd.InSetup() {
			return "(hidden)"
		}
	}
	return text
}

// chanceMove samples the chance outcome from the game's seed and the
// number of entries so far, so a replayed prefix draws the same.
func (p *session) chanceMove() {
	rng := sim.ChanceStream(p.opts.Seed^uint64(len(p.history))*0x9e3779b97f4a7c15, 0)
	m, _ := games.DrawChance(p.s, rng, nil)
	p.apply(m)
}

// botMove lets the bot decide, from what its seat sees.
func (p *session) botMove(who games.Player) {
	view := p.s
	if _, hidden := p.s.(games.Determinizer); hidden {
		view = p.s.Clone()
		view.(games.Determinizer).Determinize(who, sim.ViewStream(p.opts.Seed, len(p.history), int(who)))
	}
	p.legal = p.s.LegalMoves(p.legal[:0])
	m := p.bot.Choose(view, p.legal)
	if p.ctx.Err() != nil {
		return // a search cut short by a signal: its move is not played
	}
	before := p.side()
	p.apply(m)
	fmt.Fprintf(p.out, "%s (%s) plays %s\n", who, p.opts.Bot.Bot, p.seen[len(p.seen)-1])
	p.sideNews(before)
}

// view draws what the person's seat may see.
func (p *session) view() string {
	if o, ok := p.s.(interface{ ObservationString(games.Player) string }); ok {
		return o.ObservationString(p.opts.Seat)
	}
	return p.s.String()
}

const help = `commands: a number or a decision in the game's notation; undo (take back your last decision); hint (what a strong bot would play in your place); save FILE (a record for playtest replay); board; moves (the game so far); quit`

// humanMove reads decisions until one is legal (or a command ends the game).
func (p *session) humanMove() error {
	p.legal = p.s.LegalMoves(p.legal[:0])
	fmt.Fprintf(p.out, "\n%s\n", p.view())
	p.listMoves()
	for {
		fmt.Fprintf(p.out, "your decision (%s)> ", p.opts.Seat)
		var in interrupt.Line
		var open bool
		select {
		case in, open = <-p.lines:
		case <-p.ctx.Done():
			fmt.Fprintln(p.out)
			return p.ctx.Err()
		}
		if !open || in.Err != nil {
			fmt.Fprintln(p.out)
			if open {
				return in.Err
			}
			return ErrQuit
		}
		line := strings.TrimSpace(in.Text)
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "":
			continue
		case "help", "?":
			fmt.Fprintln(p.out, help)
			continue
		case "quit", "exit":
			return ErrQuit
		case "board":
			fmt.Fprintf(p.out, "%s\n", p.view())
			p.listMoves()
			continue
		case "moves":
			p.listHistory()
			continue
		case "hint":
			p.hint()
			continue
		case "save":
			p.save(strings.TrimSpace(arg))
			continue
		case "undo":
			if p.undo() {
				p.legal = p.s.LegalMoves(p.legal[:0])
				fmt.Fprintf(p.out, "\n%s\n", p.view())
				p.listMoves()
			}
			continue
		}
		m, err := p.parse(line)
		if err != nil {
			fmt.Fprintf(p.out, "%v; type help for the commands\n", err)
			continue
		}
		before := p.side()
		p.apply(m)
		p.sideNews(before)
		return nil
	}
}

// listHistory prints the game so far, one numbered entry a line with who
// made it (as the person's seat sees it), or says there is none yet.
func (p *session) listHistory() {
	if len(p.seen) == 0 {
		fmt.Fprintln(p.out, "no moves yet: the game is at its start")
		return
	}
	for i, text := range p.seen {
		who := p.who[i].String()
		switch {
		case p.who[i] == games.Chance:
			who = "chance"
		case p.who[i] == p.opts.Seat:
			who += " (you)"
		}
		fmt.Fprintf(p.out, "%4d. %-14s %s\n", i+1, who, text)
	}
}

// listMoves lists the legal decisions, numbered, in columns that fit the
// terminal: no decision is split across lines.
func (p *session) listMoves() {
	items := make([]string, len(p.legal))
	for i, m := range p.legal {
		items[i] = fmt.Sprintf("%d:%s", i+1, p.s.MoveString(m))
	}
	fmt.Fprintf(p.out, "legal (%d):\n%s", len(items), columns(items, p.opts.Width))
}

// columns lays items out in rows of equal-width columns within width
// (80 when 0), numbered left to right; a single item wider than the line
// gets a line of its own.
func columns(items []string, width int) string {
	if width <= 0 {
		width = 80
	}
	cell := 0
	for _, it := range items {
		cell = max(cell, utf8.RuneCountInString(it))
	}
	cell += 2
	per := max(1, (width-2)/cell)
	var b strings.Builder
	for i, it := range items {
		if i%per == 0 {
			b.WriteString("  ")
		}
		b.WriteString(it)
		if i%per == per-1 || i == len(items)-1 {
			b.WriteByte('\n')
		} else {
			b.WriteString(strings.Repeat(" ", cell-utf8.RuneCountInString(it)))
		}
	}
	return b.String()
}

// parse reads a decision: its number in the list or its notation.
func (p *session) parse(text string) (games.Move, error) {
	if n, err := strconv.Atoi(text); err == nil {
		if n < 1 || n > len(p.legal) {
			return 0, fmt.Errorf("%d is not a decision: pick 1 to %d", n, len(p.legal))
		}
		return p.legal[n-1], nil
	}
	m, err := p.s.ParseMove(text)
	if err != nil {
		return 0, fmt.Errorf("%q: %v", text, err)
	}
	if !slices.Contains(p.legal, m) {
		return 0, fmt.Errorf("%q is not legal here", text)
	}
	return m, nil
}

// undo takes back the person's last decision and everything after it.
func (p *session) undo() bool {
	s := p.g.NewState()
	last := -1
	for k, text := range p.history {
		if k >= len(p.cfg.Opening) && s.CurrentPlayer() == p.opts.Seat {
			last = k
		}
		m, _ := s.ParseMove(text)
		s.Apply(m)
	}
	if last < 0 {
		fmt.Fprintln(p.out, "nothing to undo: you have not decided anything yet")
		return false
	}
	p.restart(slices.Clone(p.history[:last]))
	// Play on to the person's decision again: the chance outcomes come out
	// as before (they depend on the seed and the entry), the bot decides
	// afresh.
	for !p.s.IsTerminal() && p.s.CurrentPlayer() != p.opts.Seat {
		if p.s.CurrentPlayer() == games.Chance {
			p.chanceMove()
		} else {
			p.botMove(p.s.CurrentPlayer())
		}
	}
	fmt.Fprintf(p.out, "undone: back to your decision %d\n", p.decisions()+1)
	return true
}

// decisions counts the person's decisions so far.
func (p *session) decisions() int {
	s := p.g.NewState()
	n := 0
	for _, text := range p.history {
		if s.CurrentPlayer() == p.opts.Seat {
			n++
		}
		m, _ := s.ParseMove(text)
		s.Apply(m)
	}
	return n
}

// outcome says how the game ended for the person.
func (p *session) outcome() string {
	switch r := p.s.Result(); {
	case r.IsDraw():
		return "a draw"
	case r.Winner == p.opts.Seat:
		return "you win"
	}
	return "you lose"
}

// HintBot is the bot hints come from when none is chosen: the strongest
// practical player of the variant, its own search bot for the person's seat
// (or the other seat's) without its variety (alphabeta's noise: a hint is
// the bot's best move), else mcts (ismcts where a seat hides something)
// at 1,000 iterations. A random or greedy hint would be no hint.
func HintBot(cfg *variants.Config, seat games.Player) (bots.Spec, error) {
	for _, spec := range []bots.Spec{cfg.Players[seat], cfg.Players[seat.Opponent()]} {
		if _, _, ok := spec.Budget(); ok {
			return spec.Best(), nil
		}
	}
	g, err := cfg.NewGame()
	if err != nil {
		return bots.Spec{}, err
	}
	name := "mcts"
	if _, hidden := g.NewState().(games.Determinizer); hidden {
		name = "ismcts"
	}
	return variants.ParseBot("hint bot", "{bot: "+name+", iterations: 1000}")
}

// hint asks the bot what it would play in the person's place, from what
// the person's seat sees, with the heuristic's value of the result when
// the game has one.
func (p *session) hint() {
	view := p.s.Clone()
	if d, ok := view.(games.Determinizer); ok {
		d.Determinize(p.opts.Seat, sim.ViewStream(p.opts.Seed, len(p.history)+1<<20, int(p.opts.Seat)))
	}
	m := p.hinter.Choose(view, p.legal)
	text := fmt.Sprintf("hint: %s would play %d:%s", p.opts.Hint.Describe(), slices.Index(p.legal, m)+1, p.s.MoveString(m))
	if _, ok := view.(games.Heuristic); ok {
		// The heuristic's value after the hint, when it tells the
		// decisions apart (in the middle of a Capstone turn it reads 0
		// after every one, which says nothing).
		value := func(m games.Move) float64 {
			after := view.Clone()
			after.Apply(m)
			return after.(games.Heuristic).Evaluate(p.opts.Seat)
		}
		v := value(m)
		if slices.ContainsFunc(p.legal, func(o games.Move) bool { return value(o) != v }) {
			text += fmt.Sprintf(" (heuristic value afterwards for you: %+.2f)", v)
		} else {
			text += " (the heuristic rates every decision here alike)"
		}
	}
	fmt.Fprintln(p.out, text)
}

// SaveInterrupted saves a game stopped by a signal to a new file in the
// system's temporary directory (playtest-game-*.json) and returns its
// path: Ctrl-C keeps the game as save would.
func SaveInterrupted(r *Record) (string, error) {
	f, err := os.CreateTemp("", "playtest-game-*.json")
	if err != nil {
		return "", err
	}
	path := f.Name()
	f.Close()
	if err := reports.WriteFileAtomic(path, func(w io.Writer) error { return reports.WriteJSON(w, r) }); err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}

func (p *session) save(path string) {
	if path == "" {
		fmt.Fprintln(p.out, "save FILE: name the file")
		return
	}
	err := reports.WriteFileAtomic(path, func(w io.Writer) error { return reports.WriteJSON(w, p.record()) })
	if err != nil {
		fmt.Fprintf(p.out, "could not save: %v\n", err)
		return
	}
	p.savedTo, p.saved = path, len(p.history)
	fmt.Fprintf(p.out, "saved %d entries to %s (playtest replay %s)\n", len(p.history), path, shell.Quote(path))
}

func (p *session) record() *Record {
	r := &Record{Schema: RecordSchema, Game: p.cfg.Definition.Name, Variant: p.cfg.Name, Source: p.cfg.Source,
		DefaultName: p.cfg.DefaultName, Text: string(p.cfg.Text), Overrides: p.cfg.Overrides,
		Seat: int(p.opts.Seat), Bot: p.opts.Bot.Describe(), Seed: p.opts.Seed, Moves: slices.Clone(p.history),
		SavedTo: p.savedTo, Saved: p.saved}
	if p.s != nil && p.s.IsTerminal() {
		r.Result = resultText(p.s)
	}
	return r
}

func resultText(s games.State) string {
	r := s.Result()
	if r.IsDraw() {
		return fmt.Sprintf("result: draw (%s) after %d plies", r.Reason, s.Plies())
	}
	return fmt.Sprintf("result: %s wins (%s) after %d plies", r.Winner, r.Reason, s.Plies())
}
