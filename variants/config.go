package variants

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/configs"
	"playtest/games"
	"playtest/games/catalog"
	"playtest/internal/bounded"
	"playtest/sim/bots"
	"playtest/sim/model"
)

// Defaults of the top-level keys.
const (
	DefaultGames = 1000
	DefaultSeed  = 1
	// MaxGames bounds the games of one run.
	MaxGames = 1_000_000_000
)

// DefaultBot plays every seat a variant file does not configure.
const DefaultBot = "random"

// topKeys are the keys a variant file may have, in documentation order.
var topKeys = []string{"game", "name", "description", "rules", "players", "games", "seed", "pairs", "book", "book_bot", "opening", "expect"}

// Config is a decoded and validated variant.
type Config struct {
	// Source is the file path, or "preset <name>" for an embedded preset.
	Source      string
	Definition  games.Definition
	Name        string
	Description string
	// Rules are the game's knobs, validated and with defaults resolved.
	Rules games.Rules
	// Players are the bots of player 0 and player 1. Player i sits in seat
	// i, except in the second game of a seat-swapped pair.
	Players [games.NumSeats]bots.Spec
	Games   int
	Seed    uint64
	// Pairs plays each deal twice with the players' seats swapped.
	Pairs bool
	// Book is how many decisions of each deal an opening book drawn from
	// the variant's solve makes (0: none; OpeningBook).
	Book int
	// BookBot, when set (book_bot:), chooses the book's decisions instead
	// of proofs: an unproven book, each deal's line the bot's choices
	// drawn from the deal's book stream, the same in both games of a pair
	// and at every budget of a ladder (sim.BotBook).
	BookBot *bots.Spec
	// Opening is the line of play every game starts after (opening:), each
	// entry a move or chance outcome in the game's notation as MoveString
	// writes it; OpeningMoves are its moves. The book, the bots and the
	// proofs (solve, analyse) all start after it.
	Opening      []string
	OpeningMoves []games.Move
	// Expect are the bounds playtest check holds the results to.
	Expect []Expectation
	// DefaultName, Text and Overrides are what Parse was given: Parse
	// rebuilds the same variant from them (run directories record them).
	DefaultName string
	Text        []byte
	Overrides   []Override
}

// Expectation is one expect: entry: a bound on a metric of the results.
type Expectation struct {
	Metric string   `yaml:"metric" json:"metric" doc:"seat0_wins, seat1_wins, draws, stalled, balance, plies, seat0_score (seat0_pair_score, its old name, is read too), or a game-specific metric"`
	Min    *float64 `yaml:"min" json:"min,omitempty" doc:"lowest allowed value"`
	Max    *float64 `yaml:"max" json:"max,omitempty" doc:"highest allowed value"`
	Stat   string   `yaml:"stat" json:"stat,omitempty" doc:"for a game's value metric: mean (default), or min or max over all games"`
	// Line is the entry's line in its file (0 when unknown).
	Line int `yaml:"-" json:"-"`
}

// NewGame builds the game the variant describes.
func (c *Config) NewGame() (games.Game, error) { return c.Rules.NewGame() }

// Hash identifies everything that decides a run's results (game, rules,
// players, games, seed, pairs, book, opening), but not its name or description:
// "sha256:" and the hex digest of its canonical JSON.
func (c *Config) Hash() string {
	canon := struct {
		Game    string                    `json:"game"`
		Rules   games.Rules               `json:"rules"`
		Players [games.NumSeats]bots.Spec `json:"players"`
		Games   int                       `json:"games"`
		Seed    uint64                    `json:"seed"`
		Pairs   bool                      `json:"pairs"`
		Book    int                       `json:"book,omitempty"`
		BookBot *bots.Spec                `json:"book_bot,omitempty"`
		Opening []string                  `json:"opening,omitempty"`
	}{c.Definition.Name, c.Rules, c.Players, c.Games, c.Seed, c.Pairs, c.Book, c.BookBot, c.Opening}
	b, err := json.Marshal(canon)
	if err != nil {
		panic(err) // rules and params are plain structs
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// decodeConfig decodes and validates a variant document.
func (d *decoder) decodeConfig(doc *yaml.Node, defaultName string) (*Config, error) {
	root := doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, &Error{File: d.file, Message: "the file is empty: it needs at least a game: key"}
		}
		root = root.Content[0]
	}
	ps, err := d.pairs(root, "")
	if err != nil {
		return nil, err
	}
	c := &Config{Source: d.file, Name: defaultName, Games: DefaultGames, Seed: DefaultSeed, Pairs: true}
	var gameKey, rulesKey, rulesNode, playersNode, bookNode, bookBotNode, openingNode *yaml.Node
	var errs collect
	gameKnown := false
	for _, p := range ps {
		err = nil
		switch p.key.Value {
		case "game":
			gameKey = p.key
			name := resolve(p.value)
			if name.Kind != yaml.ScalarNode || isNull(name) {
				err = d.errorf(name, "game", "want a game name (%s), got %s", strings.Join(catalog.Names(), ", ")+", or a rules script ./NAME.star", Describe(name))
				break
			}
			if IsScript(name.Value) {
				var def games.Definition
				if def, err = d.loadScript(name); err == nil {
					c.Definition, gameKnown = def, true
				}
				break
			}
			def, lookupErr := catalog.Lookup(name.Value)
			if lookupErr != nil {
				msg := fmt.Sprintf("unknown game %q", name.Value)
				msg += Suggestion(name.Value, catalog.Names())
				err = d.errorf(name, "game", "%s; known games: %s", msg, strings.Join(catalog.Names(), ", "))
				break
			}
			c.Definition, gameKnown = def, true
		case "name":
			err = d.decodeValue(p.value, reflect.ValueOf(&c.Name).Elem(), "name")
		case "description":
			err = d.decodeValue(p.value, reflect.ValueOf(&c.Description).Elem(), "description")
		case "rules":
			rulesKey, rulesNode = p.key, p.value
		case "players":
			playersNode = p.value
		case "games":
			err = d.decodeValue(p.value, reflect.ValueOf(&c.Games).Elem(), "games")
			if err == nil && (c.Games < 1 || c.Games > MaxGames) {
				err = d.errorf(p.value, "games", "must be between 1 and %d, got %d", MaxGames, c.Games)
			}
		case "seed":
			err = d.decodeValue(p.value, reflect.ValueOf(&c.Seed).Elem(), "seed")
		case "pairs":
			err = d.decodeValue(p.value, reflect.ValueOf(&c.Pairs).Elem(), "pairs")
		case "book":
			bookNode = p.value
			err = d.decodeValue(p.value, reflect.ValueOf(&c.Book).Elem(), "book")
			if err == nil && (c.Book < 0 || c.Book > MaxBook) {
				err = d.errorf(p.value, "book", "must be between 0 and %d decisions, got %d", MaxBook, c.Book)
			}
		case "book_bot":
			bookBotNode = p.value
			var spec bots.Spec
			if spec, err = d.decodePlayer(p.value, "book_bot"); err == nil {
				c.BookBot = &spec
			}
		case "opening":
			openingNode = p.value
		case "expect":
			err = d.decodeExpect(c, p.value)
		default:
			err = d.unknownKey(p.key, "", topKeys)
		}
		errs.add(err)
	}
	if gameKey == nil {
		errs.add(d.errorf(root, "game", "is required: name one of %s", strings.Join(catalog.Names(), ", ")))
	}
	if gameKnown {
		c.Rules, err = d.decodeRules(c.Definition, gameKey, rulesKey, rulesNode)
		errs.add(err)
	}
	if gameKnown && c.Rules != nil && openingNode != nil {
		errs.add(d.decodeOpening(c, openingNode))
	}
	errs.add(d.decodePlayers(c, root, playersNode))
	if c.BookBot != nil && c.Book == 0 {
		errs.add(d.errorf(bookBotNode, "book_bot", "chooses the moves of an opening book: set book: to the decisions it plays (1 to %d)", MaxBook))
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	if err := d.loadModels(c); err != nil {
		return nil, err
	}
	if c.Book > 0 {
		if _, err := c.OpeningBook(); err != nil {
			at, key := bookNode, "book"
			if c.BookBot != nil {
				at, key = bookBotNode, "book_bot"
			}
			return nil, d.errorf(at, key, "%v", err)
		}
	}
	return c, nil
}

// MaxOpening bounds the entries of a variant's opening:.
const MaxOpening = 1000

// decodeOpening decodes the opening: key, a list of moves or one string of
// them separated by spaces, and plays it from the start, each entry
// checked in order: one that does not parse or is not legal where it
// stands names its index and the legal choices there.
func (d *decoder) decodeOpening(c *Config, n *yaml.Node) error {
	n = resolve(n)
	var entries []string
	var nodes []*yaml.Node // each entry's node, for its line
	switch {
	case isNull(n):
		return nil
	case n.Kind == yaml.ScalarNode:
		for _, e := range games.SplitLine(n.Value) {
			entries, nodes = append(entries, e), append(nodes, n)
		}
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			item = resolve(item)
			if item.Kind != yaml.ScalarNode || isNull(item) || strings.TrimSpace(item.Value) == "" {
				return d.errorf(item, fmt.Sprintf("opening[%d]", i), "want a move in the game's notation, got %s", Describe(item))
			}
			entries, nodes = append(entries, strings.TrimSpace(item.Value)), append(nodes, item)
		}
	default:
		return d.errorf(n, "opening", "want a list of moves in the game's notation, or one string of them separated by spaces (as playtest replay --moves prints them), got %s", Describe(n))
	}
	if len(entries) > MaxOpening {
		return d.errorf(n, "opening", "has %d entries; at most %d", len(entries), MaxOpening)
	}
	g, err := c.NewGame()
	if err != nil {
		return nil // the rules' own error is reported
	}
	s := g.NewState()
	moves, err := games.PlayLineMoves(s, entries, nil)
	if err != nil {
		var le *games.LineError
		if errors.As(err, &le) {
			if n.Kind == yaml.SequenceNode {
				return d.errorf(nodes[le.Index-1], fmt.Sprintf("opening[%d]", le.Index-1), "%s", le.Detail())
			}
			return d.errorf(n, "opening", "entry %d of %d %s", le.Index, len(entries), le.Detail())
		}
		return d.errorf(n, "opening", "%v", err)
	}
	if s.IsTerminal() {
		return d.errorf(n, "opening", "the game is over after these %d entries: nothing is left to play", len(entries))
	}
	if len(moves) == 0 {
		return nil
	}
	c.OpeningMoves = moves
	// The notation as the game writes it, so two spellings of one opening
	// hash alike.
	s = g.NewState()
	for _, m := range moves {
		c.Opening = append(c.Opening, s.MoveString(m))
		s.Apply(m)
	}
	return nil
}

// Line returns the variant's opening: followed by more entries: the line
// of play from the start to a position after the opening.
func (c *Config) Line(more []string) []string {
	if len(c.Opening) == 0 {
		return more
	}
	return append(append([]string(nil), c.Opening...), more...)
}

// OpeningState returns a new state of the variant's game after its
// opening: (the start without one).
func (c *Config) OpeningState(g games.Game) games.State {
	s := g.NewState()
	for _, m := range c.OpeningMoves {
		s.Apply(m)
	}
	return s
}

// loadModels loads the learned evaluation each player names (a
// bots.ModelUser with a model file): a path from the working directory,
// else from the variant file's directory.
func (d *decoder) loadModels(c *Config) error {
	specs, paths := c.Players[:], []string{"players[0]", "players[1]"}
	if c.BookBot != nil {
		specs, paths = append(slices.Clone(specs), *c.BookBot), append(paths, "book_bot")
	}
	for i, spec := range specs {
		if key, err := c.checkProofBot(spec); errors.Is(err, context.Canceled) {
			return err // a signal, not the variant's fault
		} else if err != nil {
			return &Error{File: d.file, Key: paths[i] + "." + key, Message: err.Error()}
		}
		mu, ok := spec.Params.(bots.ModelUser)
		if !ok || mu.ModelFile() == "" {
			continue
		}
		if err := c.loadBotModel(mu, d.file); err != nil {
			return &Error{File: d.file, Key: paths[i] + ".model", Message: err.Error()}
		}
	}
	return nil
}

// LoadBotModel loads the learned evaluation a bot given outside the
// variant names (a --bot, --family or --hint-bot; its model: path from the
// working directory) and checks it against the variant, as the variant's
// own players' are; flag names the bot in errors.
func (c *Config) LoadBotModel(flag string, spec bots.Spec) error {
	if key, err := c.checkProofBot(spec); errors.Is(err, context.Canceled) {
		return err // a signal, not the bot's fault
	} else if err != nil {
		return &Error{File: flag, Key: key, Message: err.Error()}
	}
	mu, ok := spec.Params.(bots.ModelUser)
	if !ok || mu.ModelFile() == "" {
		return nil
	}
	if err := c.loadBotModel(mu, ""); err != nil {
		return &Error{File: flag, Key: "model", Message: err.Error()}
	}
	return nil
}

// checkProofBot refuses a bot that plays from proofs (bots.ProofUser:
// perfect) where the variant's start is not proven within its bound, and
// a bot's prove: (bots.ProveRulesChecker) where a proof would not be the
// game's; key is the refused knob.
func (c *Config) checkProofBot(spec bots.Spec) (key string, err error) {
	if pu, ok := spec.Params.(bots.ProofUser); ok {
		return "bot", pu.CheckRules(c.Rules)
	}
	if pc, ok := spec.Params.(bots.ProveRulesChecker); ok {
		return "prove", pc.CheckProveRules(c.Rules)
	}
	return "", nil
}

// loadBotModel loads the model a bot's model: names: its preset's
// (preset), a preset's (preset:GAME/PRESET), or a file, from the working
// directory or else from the directory of file (the variant's, "" for a
// bot given outside one).
func (c *Config) loadBotModel(mu bots.ModelUser, file string) error {
	path := mu.ModelFile()
	if path == PresetModel {
		return c.loadPresetModel(mu)
	}
	if name, ok := strings.CutPrefix(path, PresetModel+":"); ok {
		return c.loadShippedModel(mu, name)
	}
	if !fileExists(path) && !filepath.IsAbs(path) && file != "" {
		if alt := filepath.Join(filepath.Dir(file), path); fileExists(alt) {
			path = alt
		}
	}
	return c.loadModel(mu, path)
}

// PresetModel, as a bot's model:, names the model shipped with the
// variant's preset (configs/models/GAME/PRESET.json, make models);
// "preset:GAME/PRESET" names any preset's shipped model, for a variant
// file that copied a preset's bots.
const PresetModel = "preset"

// loadPresetModel loads the model shipped with c's preset.
func (c *Config) loadPresetModel(mu bots.ModelUser) error {
	name, ok := strings.CutPrefix(c.Source, "preset ")
	if !ok {
		return fmt.Errorf("model: preset names the model shipped with the preset a variant is, and %s is not one: %s", c.Source, c.modelChoices())
	}
	return c.loadShippedModel(mu, name)
}

// loadShippedModel loads the model shipped with preset name.
func (c *Config) loadShippedModel(mu bots.ModelUser, name string) error {
	b, err := configs.FS.ReadFile("models/" + name + ".json")
	if err != nil || !fs.ValidPath("models/"+name+".json") {
		return fmt.Errorf("no model is shipped with preset %s (make models writes them): %s", name, c.modelChoices())
	}
	return c.useModel(mu, "preset "+name+"'s model", b)
}

// modelChoices says what a bot's model: may be instead: a preset's
// shipped model of this game, a file, or the hand heuristic.
func (c *Config) modelChoices() string {
	var shipped []string
	entries, _ := fs.ReadDir(configs.FS, "models/"+c.Definition.Name)
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() {
			shipped = append(shipped, PresetModel+":"+c.Definition.Name+"/"+name)
		}
	}
	text := "give model: FILE (the model.json playtest learn --out writes), or eval: hand for the game's heuristic"
	if len(shipped) > 0 {
		text = "name a preset's shipped model (" + strings.Join(shipped, ", ") + "), " + text
	}
	return text
}

// loadModel reads the model file at path, checks that it fits the
// variant's game (its features) and, with model_strict, was learned under
// its rules, and hands it to the bot with the file's SHA-256, which the
// config hash covers.
func (c *Config) loadModel(mu bots.ModelUser, path string) error {
	b, err := bounded.ReadFile(path, 64<<20)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", path, err)
	}
	return c.useModel(mu, path, b)
}

// useModel reads a model from b (named name in errors), checks it against
// the variant and hands it to the bot with b's SHA-256.
func (c *Config) useModel(mu bots.ModelUser, path string, b []byte) error {
	m, err := model.Read(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	g, err := c.NewGame()
	if err != nil {
		return err
	}
	rulesHash := model.RulesHash(c.Definition.Name, c.Rules)
	if err := m.Check(g, rulesHash, mu.StrictModel()); err != nil {
		// A network learned on another board (a preset's, under rules
		// whose board --set changed) cannot read this one; where it has
		// a logistic base over the game's features, the base judges
		// alone, as a logistic model under other rules does, and the
		// run's model-rules warning says so.
		var board *model.BoardError
		base := m.Base()
		if !errors.As(err, &board) || base == nil || base.Check(g, rulesHash, mu.StrictModel()) != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		m = base
	}
	sum := sha256.Sum256(b)
	mu.UseModel(m, hex.EncodeToString(sum[:]))
	return nil
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// decodeRules decodes and validates the rules: mapping.
func (d *decoder) decodeRules(def games.Definition, gameKey, rulesKey, n *yaml.Node) (games.Rules, error) {
	r := def.NewRules()
	anchor := gameKey
	var errs collect
	if n != nil {
		anchor = rulesKey
		switch ks, dynamic := r.(games.KnobSet); {
		case isNull(resolve(n)):
		case dynamic:
			errs.add(d.decodeKnobSet(n, ks))
		default:
			errs.add(d.decodeStruct(n, reflect.ValueOf(r).Elem(), "rules"))
		}
	}
	// Validate even when some keys failed (they keep their defaults), so a
	// file's problems come at once; but with a key misspelt or mistyped,
	// drop a complaint about a knob the file does not set or that already
	// has one: the default in its place would have a check across knobs
	// (start_columns is required when cols − 2 ≠ size) complain about
	// what the person did not write, at another line.
	if err := r.Validate(); err != nil {
		var ke *games.KnobError
		cascade := len(errs.errs) > 0 && errors.As(err, &ke) && (n == nil || lookup(n, ke.Knob) == n || errs.names("rules."+ke.Knob))
		if !cascade {
			errs.add(d.knobError(err, "rules", anchor, n))
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return r, nil
}

// knobError places a *games.KnobError at the line of the knob it names, or
// of anchor when the knob is not in the file (a default).
func (d *decoder) knobError(err error, path string, anchor, n *yaml.Node) error {
	ke, ok := err.(*games.KnobError)
	if !ok {
		return d.errorf(anchor, path, "%v", err)
	}
	at := anchor
	if n != nil {
		if found := lookup(n, ke.Knob); found != n || ke.Knob == "" {
			at = found
		}
	}
	return d.errorf(at, join(path, ke.Knob), "%s", ke.Message)
}

// decodePlayers decodes the players: list, one entry per seat.
func (d *decoder) decodePlayers(c *Config, root, n *yaml.Node) error {
	for i := range c.Players {
		c.Players[i] = defaultSpec()
	}
	if n == nil {
		return nil
	}
	n = resolve(n)
	if n.Kind != yaml.SequenceNode || len(n.Content) != games.NumSeats {
		return d.errorf(n, "players", "want a list of %d players (a bot name, or a mapping with bot: and its parameters), got %s",
			games.NumSeats, describeLen(n))
	}
	var errs collect
	for i, item := range n.Content {
		spec, err := d.decodePlayer(item, fmt.Sprintf("players[%d]", i))
		if err == nil {
			err = d.checkRestriction(c, spec, item, fmt.Sprintf("players[%d]", i))
		}
		errs.add(err)
		if err == nil {
			c.Players[i] = spec
		}
	}
	return errs.err()
}

// checkRestriction refuses a restrict: name the variant's game does not
// name, with the names it does and a suggestion.
func (d *decoder) checkRestriction(c *Config, spec bots.Spec, item *yaml.Node, path string) error {
	rp, ok := spec.Params.(bots.Restrictable)
	if !ok || rp.Restriction() == nil || rp.Restriction().Name == "" || c.Rules == nil {
		return nil
	}
	g, err := c.NewGame()
	if err != nil {
		return nil // the rules' own error is reported
	}
	var unknown *bots.UnknownRestrictionError
	if err := spec.CheckRestriction(g); errors.As(err, &unknown) {
		at := item
		if r := lookupKey(item, "restrict"); r != nil {
			at = r
			if n := lookupKey(r, "name"); n != nil {
				at = n
			}
		}
		msg := fmt.Sprintf("unknown restriction %q%s", unknown.Name, Suggestion(unknown.Name, unknown.Known))
		if len(unknown.Known) > 0 {
			msg += "; " + c.Definition.Name + " names: " + strings.Join(unknown.Known, ", ")
		} else {
			msg += "; " + c.Definition.Name + " names none (use forbid: REGEX over the move notation)"
		}
		return d.errorf(at, join(path, "restrict.name"), "%s", msg)
	}
	return nil
}

// lookupKey returns the value of key in mapping n, nil when absent.
func lookupKey(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func defaultSpec() bots.Spec {
	def, _ := bots.Lookup(DefaultBot)
	return bots.Spec{Bot: def.Name, Params: def.NewParams()}
}

// decodePlayer decodes one players: entry.
func (d *decoder) decodePlayer(n *yaml.Node, path string) (bots.Spec, error) {
	n = resolve(n)
	var botNode *yaml.Node
	var params []pair
	switch n.Kind {
	case yaml.ScalarNode:
		botNode = n
	case yaml.MappingNode:
		ps, err := d.pairs(n, path)
		if err != nil {
			return bots.Spec{}, err
		}
		for _, p := range ps {
			if p.key.Value == "bot" {
				botNode = resolve(p.value)
			} else {
				params = append(params, p)
			}
		}
		if botNode == nil {
			return bots.Spec{}, d.errorf(n, join(path, "bot"), "is required: name one of %s", strings.Join(bots.Names(), ", "))
		}
	default:
		return bots.Spec{}, d.errorf(n, path, "want a bot name or a mapping with bot:, got %s", Describe(n))
	}
	botPath := path
	if n.Kind == yaml.MappingNode {
		botPath = join(path, "bot")
	}
	def, err := bots.Lookup(botNode.Value)
	if botNode.Kind != yaml.ScalarNode || err != nil {
		msg := fmt.Sprintf("unknown bot %s", Describe(botNode))
		msg += Suggestion(botNode.Value, bots.Names())
		return bots.Spec{}, d.errorf(botNode, botPath, "%s; known bots: %s", msg, strings.Join(bots.Names(), ", "))
	}
	p := def.NewParams()
	if len(params) > 0 {
		// Decode the parameters as a mapping without the bot: key.
		m := &yaml.Node{Kind: yaml.MappingNode, Line: n.Line}
		for _, pp := range params {
			m.Content = append(m.Content, pp.key, pp.value)
		}
		if err := d.decodeStruct(m, reflect.ValueOf(p).Elem(), path); err != nil {
			for _, e := range problems(err) {
				// A parameter's own sub-keys (restrict.forbid) keep the
				// plain message.
				if strings.Contains(e.Message, "unknown key") && !strings.Contains(strings.TrimPrefix(e.Key, path+"."), ".") {
					e.Message = fmt.Sprintf("is not a parameter of bot %s", def.Name) + strings.TrimPrefix(e.Message, "unknown key")
					if len(games.Knobs(p)) == 0 {
						e.Message = fmt.Sprintf("is not a parameter of bot %s, which takes none", def.Name)
					}
				}
			}
			return bots.Spec{}, err
		}
	}
	if err := p.Validate(); err != nil {
		return bots.Spec{}, d.knobError(err, path, n, n)
	}
	return bots.Spec{Bot: def.Name, Params: p}, nil
}

func describeLen(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		return fmt.Sprintf("a list of %d", len(n.Content))
	}
	return Describe(n)
}

// decodeExpect decodes and checks the expect: list.
func (d *decoder) decodeExpect(c *Config, n *yaml.Node) error {
	if err := d.decodeValue(n, reflect.ValueOf(&c.Expect).Elem(), "expect"); err != nil {
		return err
	}
	items := resolve(n).Content
	for i := range c.Expect {
		e := &c.Expect[i]
		item := items[i]
		e.Line = item.Line
		path := fmt.Sprintf("expect[%d]", i)
		switch {
		case e.Metric == "":
			return d.errorf(item, path+".metric", "is required: name the metric to bound")
		case e.Min == nil && e.Max == nil:
			return d.errorf(item, path, "needs min:, max: or both")
		case e.Min != nil && e.Max != nil && *e.Min > *e.Max:
			return d.errorf(item, path, "min %g is above max %g", *e.Min, *e.Max)
		}
		switch e.Stat {
		case "", "mean", "min", "max":
		default:
			return d.errorf(item, path+".stat", "must be mean, min or max, got %q", e.Stat)
		}
	}
	return nil
}

// With rebuilds the variant with more overrides after its own (Parse, so
// that its Text and Overrides rebuild the result too) and keeps its name.
func (c *Config) With(overrides ...Override) (*Config, error) {
	all := append(append([]Override(nil), c.Overrides...), overrides...)
	n, err := Parse(c.Source, c.DefaultName, c.Text, all)
	if err != nil {
		return nil, err
	}
	n.Name = c.Name
	return n, nil
}
