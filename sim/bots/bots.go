package bots

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"

	"playtest/games"
	"playtest/games/pcg"
)

// Bot chooses moves for one seat of one game at a time.
type Bot interface {
	// Reset prepares the bot for a new game in which it plays seat and
	// draws all its randomness from rng.
	Reset(seat games.Player, rng *pcg.Rand)
	// Choose returns one of legal, the legal moves of s, whose current
	// player is the bot's seat. It must not modify s (search bots copy it
	// into their own scratch states).
	Choose(s games.State, legal []games.Move) games.Move
}

// Stoppable is implemented by bots whose decisions can take long (the
// searches): once *stop is true, Choose returns at once with a legal move,
// however little it searched. A runner sets it when its run is cancelled
// and throws away the games in progress.
type Stoppable interface {
	SetStop(stop *atomic.Bool)
}

// Params are a bot's parameters: a pointer to a struct with yaml, doc and
// default tags.
type Params interface {
	// Validate checks the parameters; errors are *games.KnobError naming
	// the parameter.
	Validate() error
}

// Definition describes one kind of bot.
type Definition struct {
	Name    string
	Summary string
	// NewParams returns the parameters at their defaults.
	NewParams func() Params
	// New creates a bot for a game; it is called once per worker.
	New func(g games.Game, p Params) Bot
}

// Spec is a bot kind with validated parameters, as a variant's players:
// entry names it.
type Spec struct {
	Bot    string `json:"bot"`
	Params Params `json:"params"`
}

// String describes the spec for tables: the bot's name.
func (s Spec) String() string { return s.Bot }

// New creates the bot a spec describes.
func (s Spec) New(g games.Game) (Bot, error) {
	d, err := Lookup(s.Bot)
	if err != nil {
		return nil, err
	}
	if mu, ok := s.Params.(ModelUser); ok && mu.ModelFile() != "" && !mu.HasModel() {
		return nil, fmt.Errorf("%s: the model %s was never loaded (a bug: the variant loads it)", s.Bot, mu.ModelFile())
	}
	f, err := NewFilter(s, g)
	if err != nil {
		return nil, err
	}
	b := d.New(g, s.Params)
	if rb, ok := b.(restrictedBot); ok && f != nil {
		rb.setFilter(f)
	}
	return b, nil
}

// restrictedBot is implemented by the bots that search: a restriction
// holds inside their search at their own seat's decisions (the runner
// filters the decisions of the others, and theirs at the root).
type restrictedBot interface {
	setFilter(f *Filter)
}

// All lists the bots, in the order `playtest games` shows them.
var All = []Definition{
	{
		Name:      "random",
		Summary:   "plays a uniformly random legal move",
		NewParams: func() Params { return &RandomParams{} },
		New:       func(games.Game, Params) Bot { return &Random{} },
	},
	{
		Name:      "greedy",
		Summary:   "one-ply lookahead: plays the move whose result the game's heuristic rates best (ties at random)",
		NewParams: func() Params { return &GreedyParams{} },
		New:       func(g games.Game, p Params) Bot { return NewGreedy(g, *p.(*GreedyParams)) },
	},
	{
		Name:      "mcts",
		Summary:   "UCT Monte Carlo tree search, open loop (chance sampled each iteration); budget in iterations",
		NewParams: func() Params { return DefaultMCTSParams() },
		New:       func(_ games.Game, p Params) Bot { return NewMCTS(*p.(*MCTSParams), false) },
	},
	{
		Name:      "ismcts",
		Summary:   "information-set MCTS: each iteration re-samples what the bot's seat cannot see (hidden goals, hands)",
		NewParams: func() Params { return DefaultMCTSParams() },
		New:       func(_ games.Game, p Params) Bot { return NewMCTS(*p.(*MCTSParams), true) },
	},
	{
		Name:      "perfect",
		Summary:   "plays a move that keeps its proven value (the prover of playtest solve --search), at random among equals; only where the start is proven within its bound",
		NewParams: func() Params { return &PerfectParams{Nodes: 50_000_000, TableMB: 256} },
		New:       func(_ games.Game, p Params) Bot { return NewPerfect(*p.(*PerfectParams)) },
	},
	{
		Name:      "alphabeta",
		Summary:   "iterative-deepening alpha-beta with a transposition table, for games without hidden information; budget in nodes",
		NewParams: func() Params { return DefaultAlphaBetaParams() },
		New:       func(_ games.Game, p Params) Bot { return NewAlphaBeta(*p.(*AlphaBetaParams)) },
	},
}

// Lookup returns a bot's definition by name.
func Lookup(name string) (Definition, error) {
	for _, d := range All {
		if d.Name == name {
			return d, nil
		}
	}
	return Definition{}, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the bots' names.
func Names() []string {
	out := make([]string, len(All))
	for i, d := range All {
		out[i] = d.Name
	}
	return out
}

// NoParams are the parameters of a bot that has none.
type NoParams struct{}

// Validate accepts the empty parameter set.
func (*NoParams) Validate() error { return nil }

// Random plays uniformly random legal moves.
type Random struct{ rng *pcg.Rand }

// Reset starts a new game.
func (b *Random) Reset(_ games.Player, rng *pcg.Rand) { b.rng = rng }

// Choose picks a legal move uniformly at random.
func (b *Random) Choose(_ games.State, legal []games.Move) games.Move {
	return legal[b.PickIndex(len(legal))]
}

// PickIndex picks one of n legal moves by its index, exactly as Choose
// picks from the list (implements games.IndexPicker: the runner lets
// states that are games.MovePicker hand out the move without listing all).
func (b *Random) PickIndex(n int) int { return b.rng.IntN(n) }

// Sample draws a uniformly random legal move with the state's own sampler
// and the bot's stream (implements Sampler).
func (b *Random) Sample(s games.RandomMover) games.Move { return s.RandomMove(b.rng) }

// Sampler is implemented by bots whose move is a uniformly random legal
// move. The runner has a state that is a games.RandomMover draw it, with
// the bot's stream, without counting the moves: the same distribution as
// Choose, by other draws of the stream (the conformance suite checks that
// RandomMove is uniform over LegalMoves).
type Sampler interface {
	Sample(s games.RandomMover) games.Move
}

// Budgeted is implemented by the parameters of search bots: their budget
// is a count (iterations, nodes) that skill ladders vary.
type Budgeted interface {
	Params
	// Budget returns the budget's parameter name and value.
	Budget() (name string, value int)
	// WithBudget returns a copy of the parameters with the budget set.
	WithBudget(value int) Params
}

// Varied is implemented by the parameters of bots with settings that vary
// their play on purpose (alphabeta's noise), for balance runs.
type Varied interface {
	Params
	// WithoutVariety returns a copy with those settings off.
	WithoutVariety() Params
	// VariedDecision reports whether the bot's k-th decision of a game
	// (from 1: the k-th time it chooses) may be varied on purpose.
	VariedDecision(k int) bool
}

// VariedDecision reports whether the bot's k-th decision of a game (from
// 1) may be varied on purpose (Varied); false for bots without variety.
func (s Spec) VariedDecision(k int) bool {
	v, ok := s.Params.(Varied)
	return ok && v.VariedDecision(k)
}

// Best returns the spec with any variety turned off, so that the bot plays
// what it judges best every time (a hint, an analysis); other bots are
// returned unchanged.
func (s Spec) Best() Spec {
	if v, ok := s.Params.(Varied); ok {
		s.Params = v.WithoutVariety()
	}
	return s
}

// Budget returns the spec's search budget and its parameter name; ok is
// false for bots without one (random, greedy).
func (s Spec) Budget() (name string, value int, ok bool) {
	b, isBudgeted := s.Params.(Budgeted)
	if !isBudgeted {
		return "", 0, false
	}
	name, value = b.Budget()
	return name, value, true
}

// WithBudget returns the spec with its search budget set; a bot without a
// budget is returned unchanged.
func (s Spec) WithBudget(value int) Spec {
	if b, ok := s.Params.(Budgeted); ok {
		s.Params = b.WithBudget(value)
	}
	return s
}

// Describe names the bot with its budget, as headlines and warnings write
// it: "mcts, 1,000 iterations" or "random".
func (s Spec) Describe() string { return s.describe(true) }

// describe is Describe, with the budget or without it.
func (s Spec) describe(budget bool) string {
	text := s.Bot
	if name, value, ok := s.Budget(); ok && budget {
		text = fmt.Sprintf("%s, %s %s", s.Bot, Thousands(value), name)
	}
	if set := s.Settings(); len(set) > 0 {
		text += " (" + strings.Join(set, ", ") + ")"
	}
	return text
}

// Settings lists the spec's parameters that differ from its bot's
// defaults, the budget aside, as "name value": "rollout_cap 6",
// "eval_scale 6". Two bots of one name with different settings are named
// apart by them.
func (s Spec) Settings() []string {
	d, err := Lookup(s.Bot)
	if err != nil || s.Params == nil {
		return nil
	}
	cur, def := reflect.Indirect(reflect.ValueOf(s.Params)), reflect.Indirect(reflect.ValueOf(d.NewParams()))
	if cur.Kind() != reflect.Struct || cur.Type() != def.Type() {
		return nil
	}
	budget, _, _ := s.Budget()
	var out []string
	mu, learns := s.Params.(ModelUser)
	for _, f := range games.KnobFields(cur.Type()) {
		name := games.KnobName(f)
		if learns && name == "model" {
			if label := mu.ModelLabel(); label != "" {
				out = append(out, "model "+label) // the file and its content's hash
			}
			continue
		}
		if name == budget || reflect.DeepEqual(cur.FieldByIndex(f.Index).Interface(), def.FieldByIndex(f.Index).Interface()) {
			continue
		}
		out = append(out, name+" "+settingValue(cur.FieldByIndex(f.Index)))
	}
	return out
}

// settingValue writes a parameter's value as a variant file would.
func settingValue(v reflect.Value) string {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "default"
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Float32 || v.Kind() == reflect.Float64 {
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// Same reports whether two specs are the same bot with the same
// parameters.
func (s Spec) Same(o Spec) bool {
	if s.Bot != o.Bot {
		return false
	}
	// As JSON: the parameters as a run records them, a learned model by
	// its content's hash (not the copy each player loaded). Parameters
	// are plain values, which always marshal.
	a, _ := json.Marshal(s.Params)
	b, _ := json.Marshal(o.Params)
	return string(a) == string(b)
}

// DescribePlayers names both players with their budgets: "mcts, 1,000
// iterations in both seats", or "A vs B" when they differ.
func DescribePlayers(players [2]Spec) string { return describePlayers(players, true) }

// DescribePlayersUnbudgeted is DescribePlayers without the budgets, for
// a ladder whose rungs name their own: "alphabeta (noise 0.5) in both
// seats".
func DescribePlayersUnbudgeted(players [2]Spec) string { return describePlayers(players, false) }

func describePlayers(players [2]Spec, budget bool) string {
	if players[0].Same(players[1]) {
		return players[0].describe(budget) + " in both seats"
	}
	return players[0].describe(budget) + " vs " + players[1].describe(budget)
}

// Perfect reports whether the bot plays from proofs (ProofUser: perfect):
// its games are perfect play.
func (s Spec) Perfect() bool {
	_, ok := s.Params.(ProofUser)
	return ok
}

// Weak reports whether the bot does no search at all (random, greedy): its
// games say more about its blunders than about the rules. A bot that
// plays from proofs (perfect) is not weak.
func (s Spec) Weak() bool {
	if s.Perfect() {
		return false
	}
	_, _, ok := s.Budget()
	return !ok
}

// Thousands writes n with commas between groups of three digits: 12,345.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
