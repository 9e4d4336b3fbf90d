package tune

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"playtest/games/prove"
	"playtest/reports"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/studies/learn"
	"playtest/studies/sweep"
	"playtest/variants"
)

// Schema is the schema tag of tune.json.
const Schema = "playtest/tune/v1"

// Defaults of a race.
const (
	DefaultFirstGames = 100
	DefaultAlpha      = 0.05
	DefaultKeep       = 0.5
)

// Why a candidate left the race.
const (
	// DroppedByTest: its games showed it worse than the leader's.
	DroppedByTest = "test"
	// DroppedByConstraint: its games showed it breaking a hard target.
	DroppedByConstraint = "constraint"
	// DroppedByRank: successive halving set it aside for its rank, without
	// showing it worse.
	DroppedByRank = "rank"
	// DroppedByBroken: its games were all short and a shallow proof found
	// a forced win from the start (reports.Broken): its rules, not its
	// bots, decide the games.
	DroppedByBroken = "broken"
)

// Options tune a race.
type Options struct {
	// Workers is the number of worker goroutines (0: all cores).
	Workers int
	// FirstGames is the games every candidate plays in the first round
	// (DefaultFirstGames if 0); each round doubles them, up to MaxGames.
	FirstGames int
	// MaxGames is the most games a candidate plays (the variants' games if
	// 0).
	MaxGames int
	// Budget bounds the games of the whole race (0: none): a round that
	// would pass it is not begun.
	Budget int
	// Learn, if above 0, gives each raced candidate's bots a model learned
	// from that many games of its own variant (learn.ForVariant) before
	// the race: never NTBEA's evaluations, which judge with the bots'
	// own evaluation. The learning games are not the race's budget.
	Learn int
	// Alpha bounds the chance that the race's tests drop the best
	// candidate (DefaultAlpha if 0).
	Alpha float64
	// Keep is the share of a round's candidates that successive halving
	// keeps for the next round, by rank (DefaultKeep if 0; 1 races
	// without halving). It never keeps fewer than two.
	Keep float64
	// Tolerance, if above 0, ends the race once the leader's objective is
	// shown at most Tolerance: "fair enough".
	Tolerance float64
	// Objective is what the race minimises (BalanceOnly if zero).
	Objective Objective
	// traced says the games are traced (How it plays' targets).
	traced bool
	// Search is SearchRace or SearchNTBEA ("": NTBEA for spaces of more
	// than AutoNTBEA candidates). NTBEA plays evaluations of EvalGames
	// games (DefaultEvalGames if 0) with 3/5 of the budget, then races the
	// Confirm (DefaultConfirm if 0) candidates it proposes with the rest.
	Search    string
	EvalGames int
	Confirm   int
	// Skipped are the points of the space left out (sweep.Prepare's).
	Skipped sweep.Skipped
	// Out, if set, keeps the race in that directory as it goes (a study
	// manifest and the race's state), so that Resume continues it after a
	// stop; Command is the command line recorded there.
	Out     string
	Command string
	// OnRound, if set, is told each finished round; OnSearch, each tenth
	// of an NTBEA search (evaluations done, of total, and the point the
	// model values most so far).
	OnRound  func(Round)
	OnSearch func(done, total int, best string)
	// OnGame, if set, is called after each game, from one goroutine.
	OnGame func()
}

// Candidate is one point of the space and how it fared.
type Candidate struct {
	Label      string   `json:"label"`
	Values     []string `json:"values"`
	Variant    string   `json:"variant"`
	ConfigHash string   `json:"config_hash"`
	// Changes names its base and what it changes in the base's rules;
	// Skill is the command that climbs its skill ladder.
	Changes string `json:"rules"`
	Skill   string `json:"skill_command"`
	// Games is the games it played.
	Games int `json:"games"`
	// Seat0 is seat 0's score per game, over seat-swapped pairs, with its
	// 95% interval; Imbalance is its distance from ½, with the interval
	// that distance can take within Seat0's.
	Seat0     stats.Interval `json:"seat0_interval"`
	Seat0Mean float64        `json:"seat0"`
	Imbalance Bounds         `json:"imbalance"`
	// Objective is the value minimised (the imbalance by default), with
	// its interval; Targets are the objective's targets' figures, in its
	// order.
	Objective Bounds   `json:"objective"`
	Targets   []Figure `json:"targets,omitempty"`
	// Draws and Plies are the share of drawn games and the mean length.
	Draws float64 `json:"draws"`
	Plies float64 `json:"plies"`
	// DroppedAfter is the round after which it left the race (0: it stayed
	// to the end), DroppedBy how (DroppedByTest, DroppedByConstraint or
	// DroppedByRank), and Why says why in words.
	DroppedAfter int    `json:"dropped_after,omitempty"`
	DroppedBy    string `json:"dropped_by,omitempty"`
	Why          string `json:"why,omitempty"`

	cfg   *variants.Config
	tally tally
	index int // its place in the space's candidates
}

// Bounds is a value with the range it can take.
type Bounds struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Figure is a target's figure for a candidate: the metric's mean with its
// interval, and its distance outside the target's range.
type Figure struct {
	Metric   string         `json:"metric"`
	Mean     float64        `json:"mean"`
	Interval stats.Interval `json:"interval"`
	Distance Bounds         `json:"distance"`
}

// tally is a candidate's games deal by deal: for each figure (seat 0's
// score, draws, plies, then the objective's targets), Sum[figure][deal]
// over the deal's games and N[figure][deal] the games that reported it.
type tally struct {
	Sum [][]float64 `json:"sum"`
	N   [][]int     `json:"n"`
}

// add counts game r, reading each figure with read.
func (t *tally) add(r *sim.Record, read []func(*sim.Record) (float64, bool)) {
	if t.Sum == nil {
		t.Sum, t.N = make([][]float64, len(read)), make([][]int, len(read))
	}
	for f, get := range read {
		for len(t.Sum[f]) <= r.Deal {
			t.Sum[f], t.N[f] = append(t.Sum[f], 0), append(t.N[f], 0)
		}
		if v, ok := get(r); ok {
			t.Sum[f][r.Deal] += v
			t.N[f][r.Deal]++
		}
	}
}

// deals is the number of deals tallied.
func (t *tally) deals() int {
	if t.Sum == nil {
		return 0
	}
	return len(t.Sum[figScore])
}

// moments are figure f's per-deal means over the first n deals.
func (t *tally) moments(f, n int) stats.Moments {
	var m stats.Moments
	for d := range min(n, t.deals()) {
		if t.N[f][d] > 0 {
			m.Add(t.Sum[f][d] / float64(t.N[f][d]))
		}
	}
	return m
}

// Round is one round of the race.
type Round struct {
	Index int `json:"round"`
	// Games is the games each candidate left has played after it.
	Games int `json:"games_per_candidate"`
	// Candidates is how many played it; Dropped how many its tests showed
	// worse than the leader, Broke how many its tests showed breaking a
	// hard target, Broken how many a proof showed broken (a forced win:
	// DroppedByBroken), Halved how many successive halving set aside.
	Candidates int `json:"candidates"`
	Dropped    int `json:"dropped"`
	Broke      int `json:"broke,omitempty"`
	Broken     int `json:"broken_rules,omitempty"`
	Halved     int `json:"halved,omitempty"`
	// Spent is the games of the race so far.
	Spent int `json:"games_spent"`
	// Z is the normal quantile of its intervals.
	Z float64 `json:"z"`
	// Leader is the label of the candidate with the least objective.
	Leader string `json:"leader"`
}

// Evaluation is a candidate's standing after a round.
type Evaluation struct {
	Round     int     `json:"round"`
	Label     string  `json:"label"`
	Games     int     `json:"games"`
	Seat0     float64 `json:"seat0"`
	Imbalance Bounds  `json:"imbalance"`
	Objective Bounds  `json:"objective"`
	Dropped   bool    `json:"dropped,omitempty"`
}

// Result is a finished race.
type Result struct {
	Schema string `json:"schema"`
	Name   string `json:"name"`
	Source string `json:"source"`
	Game   string `json:"game"`
	// Axes name the space's axes.
	Axes []string `json:"axes"`
	// Objective says what is minimised, in words; Goal is it as data.
	Objective string    `json:"objective"`
	Goal      Objective `json:"objective_spec"`
	Seed      uint64    `json:"seed"`
	Pairs     bool      `json:"pairs"`
	Alpha     float64   `json:"alpha"`
	// Keep is successive halving's share kept per round (1: none);
	// Tolerance the objective that is fair enough (0: none).
	Keep      float64 `json:"keep"`
	Tolerance float64 `json:"tolerance,omitempty"`
	// Bots describes the players (of the first candidate): the answer is
	// theirs.
	Bots string `json:"bots"`
	// FirstGames and MaxGames are the games of the first and last rounds;
	// Budget the bound on the whole race (0: none).
	FirstGames int `json:"first_games"`
	MaxGames   int `json:"max_games"`
	Budget     int `json:"budget,omitempty"`
	// Learn is the games each raced candidate's model was learned from
	// (0: the bots' own evaluation), apart from Spent.
	Learn int `json:"learn,omitempty"`
	// SearchMethod is SearchRace or SearchNTBEA; Search is NTBEA's
	// account.
	SearchMethod string  `json:"search_method"`
	Search       *Search `json:"search,omitempty"`
	// EvalGames and Confirm are NTBEA's games an evaluation and proposals
	// raced.
	EvalGames int `json:"eval_games,omitempty"`
	Confirm   int `json:"confirm,omitempty"`
	// Spent is the games played (the search's too); FullSweep the games a
	// sweep of every candidate at MaxGames would play.
	Spent     int     `json:"games_spent"`
	FullSweep int     `json:"games_full_sweep"`
	Rounds    []Round `json:"rounds"`
	// Effects are each knob's effect, EffectMeasure says of what: in a
	// race the objective after the first round, after NTBEA the search's
	// cost.
	Effects       []AxisEffect `json:"axis_effects,omitempty"`
	EffectMeasure string       `json:"axis_effect_measure,omitempty"`
	// Skipped tells the points of the space left out (nil: none).
	Skipped *sweep.Skipped `json:"skipped,omitempty"`
	// Evaluations are every candidate's figures after every round it
	// played, with the round's intervals.
	Evaluations []Evaluation `json:"evaluations"`
	// Candidates are ranked: those left in the race by their objective,
	// then the dropped ones, the latest dropped first.
	Candidates []Candidate `json:"candidates"`
	// Stopped says why the race ended.
	Stopped string `json:"stopped"`
}

// Validate checks the options against the space (its candidates and the
// first one's variant), before any game is played.
func Validate(candidates int, cfg *variants.Config, opts Options) error {
	first := cmp.Or(opts.FirstGames, DefaultFirstGames)
	search, budget := searchOf(candidates, opts), opts.Budget
	evalGames, confirm := cmp.Or(opts.EvalGames, DefaultEvalGames), cmp.Or(opts.Confirm, DefaultConfirm)
	switch {
	case search != SearchRace && search != SearchNTBEA:
		return fmt.Errorf("--search %q: want %s or %s", search, SearchRace, SearchNTBEA)
	case search == SearchRace && budget > 0 && budget < candidates*first:
		return fmt.Errorf("--budget %s: the first round alone plays %s games (%d candidates × %d)", bots.Thousands(budget), bots.Thousands(candidates*first), candidates, first)
	case evalGames < 4 || evalGames%2 != 0 || confirm < 2:
		return fmt.Errorf("--eval-games %d, --confirm %d: want evaluations of at least 4 games, an even number (two deals or more of seat-swapped pairs), and at least 2 candidates to confirm", evalGames, confirm)
	case search == SearchNTBEA:
		budget = ntbeaBudget(candidates, opts)
		if searchBudget(budget) < evalGames || budget-searchBudget(budget) < min(confirm, candidates)*first {
			return fmt.Errorf("--budget %s: NTBEA searches with 3/5 of the budget (evaluations of %d games) and races the %d candidates it proposes with the rest, %d games each in the first round: want at least %s", bots.Thousands(budget), evalGames, confirm, first, bots.Thousands(max(5*evalGames/3, 5*confirm*first/2)))
		}
	}
	maxGames := cmp.Or(opts.MaxGames, cfg.Games)
	alpha := cmp.Or(opts.Alpha, DefaultAlpha)
	keep := cmp.Or(opts.Keep, DefaultKeep)
	switch {
	case first < 2 || maxGames < first || opts.Budget < 0:
		return fmt.Errorf("--first-games %d, --games %d, --budget %d: want at least 2 games in the first round, no more than the most a candidate plays, and a budget of 0 or more", first, maxGames, opts.Budget)
	case first%2 != 0 || maxGames%2 != 0:
		return fmt.Errorf("--first-games %d, --games %d: want even numbers (seat-swapped pairs)", first, maxGames)
	case !(alpha > 0 && alpha < 1):
		return fmt.Errorf("--alpha %g: want a level between 0 and 1", alpha)
	case !(keep > 0 && keep <= 1):
		return fmt.Errorf("--keep %g: want a share above 0 and at most 1 (1 races without halving)", keep)
	case !(opts.Tolerance >= 0 && opts.Tolerance < math.Inf(1)):
		return fmt.Errorf("--tolerance %g points: want 0 (none) or more, e.g. 2 points of imbalance", 100*opts.Tolerance)
	case !cfg.Pairs:
		return fmt.Errorf("tune measures seat balance over seat-swapped pairs: the variants need pairs: true")
	}
	return nil
}

// searchOf is the search of a race of candidates.
func searchOf(candidates int, opts Options) string {
	if opts.Search != "" {
		return opts.Search
	}
	if candidates > AutoNTBEA {
		return SearchNTBEA
	}
	return SearchRace
}

// ntbeaBudget is an NTBEA race's budget: the one given, else 20 games a
// candidate of the space.
func ntbeaBudget(candidates int, opts Options) int {
	return cmp.Or(opts.Budget, 20*candidates)
}

// Planned is the most games a race of the candidates plays, for progress
// bars: an NTBEA race's budget; a race's rounds with halving but no drop
// by the tests, bounded by its budget.
func Planned(candidates int, cfg *variants.Config, opts Options) int {
	return planned(candidates, cfg, opts) + learned(candidates, opts)
}

// planned is the games the race plays (Planned without the learning).
func planned(candidates int, cfg *variants.Config, opts Options) int {
	if searchOf(candidates, opts) == SearchNTBEA {
		return ntbeaBudget(candidates, opts)
	}
	keep := cmp.Or(opts.Keep, DefaultKeep)
	total, alive, played := 0, candidates, 0
	for r, n := range rounds(cmp.Or(opts.FirstGames, DefaultFirstGames), cmp.Or(opts.MaxGames, cfg.Games)) {
		if r > 0 {
			alive = min(alive, max(2, int(math.Ceil(keep*float64(alive)-1e-9))))
		}
		total += alive * (n - played)
		played = n
	}
	if opts.Budget > 0 {
		return min(total, opts.Budget)
	}
	return total
}

// learned is the games --learn plays: its games for each raced candidate.
func learned(candidates int, opts Options) int {
	if searchOf(candidates, opts) == SearchNTBEA {
		candidates = min(candidates, cmp.Or(opts.Confirm, DefaultConfirm))
	}
	return candidates * opts.Learn
}

// space is the space's shape: its axes' value labels and each
// candidate's value indices.
type space struct {
	Labels [][]string `json:"labels"`
	Points [][]int    `json:"points"`
}

// Run races the sweep's variants (as sweep.Prepare built them).
func Run(ctx context.Context, s *sweep.Sweep, cfgs []*variants.Config, points []sweep.Point, opts Options) (*Result, error) {
	if err := Validate(len(cfgs), cfgs[0], opts); err != nil {
		return nil, err
	}
	goal := opts.Objective
	if goal.Balance == 0 && goal.Targets == nil {
		goal = BalanceOnly
	}
	maxGames := cmp.Or(opts.MaxGames, cfgs[0].Games)
	res := &Result{Schema: Schema, Name: s.Name, Source: s.Source, Game: cfgs[0].Definition.Name,
		Objective: goal.String(), Goal: goal, Seed: cfgs[0].Seed, Pairs: true, Alpha: cmp.Or(opts.Alpha, DefaultAlpha),
		Keep: cmp.Or(opts.Keep, DefaultKeep), Tolerance: opts.Tolerance,
		Bots: bots.DescribePlayers(cfgs[0].Players), FirstGames: cmp.Or(opts.FirstGames, DefaultFirstGames), MaxGames: maxGames,
		Budget: opts.Budget, Learn: opts.Learn, FullSweep: len(cfgs) * maxGames, SearchMethod: searchOf(len(cfgs), opts)}
	if res.SearchMethod == SearchNTBEA {
		// The confirmation race plays every proposal to the end.
		res.Budget, res.Keep = ntbeaBudget(len(cfgs), opts), 1
		res.EvalGames, res.Confirm = cmp.Or(opts.EvalGames, DefaultEvalGames), cmp.Or(opts.Confirm, DefaultConfirm)
	}
	sp := &space{}
	for _, a := range s.Axes {
		res.Axes = append(res.Axes, a.Name)
		sp.Labels = append(sp.Labels, a.Labels)
	}
	for _, pt := range points {
		sp.Points = append(sp.Points, pt.Values)
	}
	if opts.Skipped.Count() > 0 {
		res.Skipped = &opts.Skipped
	}
	cands := make([]*Candidate, len(cfgs))
	for i, cfg := range cfgs {
		cands[i] = &Candidate{Label: s.Label(points[i]), Values: points[i].Labels, index: i}
		if err := cands[i].setVariant(cfg); err != nil {
			return nil, err
		}
	}
	k, err := res.keeper(sp, cands, opts)
	if err != nil {
		return nil, err
	}
	return res.finish(ctx, sp, cands, k, opts)
}

// setVariant gives the candidate its variant.
func (c *Candidate) setVariant(cfg *variants.Config) error {
	g, err := cfg.NewGame()
	if err != nil {
		return err
	}
	info := rundir.Info(cfg, g)
	c.Variant, c.ConfigHash, c.cfg = cfg.Name, cfg.Hash(), cfg
	c.Changes = variants.LabelOf(strings.TrimPrefix(cfg.Source, "preset "), info.RuleChanges)
	// The ladder climbs the bots the race played, not the preset's, when
	// they search (a ladder varies a search budget; with bots that do not
	// search it climbs the variant's own).
	c.Skill = reports.SkillCommand(info)
	_, _, ok0 := cfg.Players[0].Budget()
	_, _, ok1 := cfg.Players[1].Budget()
	if args := cfg.PlayerArgs(); ok0 && ok1 && args != "" {
		c.Skill += " " + args
	}
	return nil
}

// finish races the candidates (from the state k holds, if any; after an
// NTBEA search, the candidates it proposes), then ranks them.
func (res *Result) finish(ctx context.Context, sp *space, cands []*Candidate, k *keeper, opts Options) (*Result, error) {
	opts.Budget, opts.traced = res.Budget, res.Goal.plays()
	raced := cands
	if res.SearchMethod == SearchNTBEA {
		evaluate := func(c *Candidate, e int) (float64, error) { return res.evaluate(ctx, c, e, res.EvalGames, opts) }
		var err error
		if raced, err = res.ntbea(sp, cands, k, evaluate, opts.OnSearch); err != nil {
			return nil, err
		}
	}
	if res.Learn > 0 {
		if err := res.learnModels(ctx, raced, opts); err != nil {
			return nil, err
		}
	}
	for _, c := range raced {
		if _, err := res.readers(c); err != nil {
			return nil, err
		}
	}
	play := func(c *Candidate, from, to int) error {
		read, err := res.readers(c)
		if err != nil {
			return err
		}
		return c.playGames(ctx, c.cfg.Seed, from, to, opts, func(r *sim.Record) { c.tally.add(r, read) })
	}
	if res.Stopped == "" { // else a kept race that ended before a stop
		if err := res.race(raced, rounds(res.FirstGames, res.MaxGames), play, opts, k); err != nil {
			return nil, err
		}
	}
	if res.SearchMethod == SearchRace {
		res.raceEffects(sp, cands)
	}
	cands = raced
	for _, c := range cands {
		if c.Games > 0 {
			res.estimate(c, stats.Z95) // the figures shown: 95% intervals
		}
	}
	// Those still in the race, by objective; then the dropped, latest
	// first, each by objective.
	ranked := slices.Clone(cands)
	slices.SortStableFunc(ranked, func(a, b *Candidate) int {
		ra, rb := a.DroppedAfter, b.DroppedAfter
		if ra == 0 {
			ra = math.MaxInt
		}
		if rb == 0 {
			rb = math.MaxInt
		}
		return cmp.Or(cmp.Compare(rb, ra), cmp.Compare(a.Objective.Value, b.Objective.Value))
	})
	for _, c := range ranked {
		res.Candidates = append(res.Candidates, *c)
	}
	return res, k.done(res)
}

// learnModels gives each candidate to race a model learned from res.Learn
// games of its own variant, kept in opts.Out's models/ (and read from
// there again on a resume).
func (res *Result) learnModels(ctx context.Context, cands []*Candidate, opts Options) error {
	for _, c := range cands {
		cfg, _, err := learn.ForVariant(ctx, c.cfg, learn.VariantOptions{Games: res.Learn, Workers: opts.Workers, OnGame: opts.OnGame,
			StudyDir: opts.Out, Name: filepath.Base(candidateDir(c.index))})
		if err != nil {
			return fmt.Errorf("%s: %w", c.Label, err)
		}
		if err := c.setVariant(cfg); err != nil {
			return err
		}
	}
	return nil
}

// rounds are the games per candidate after each round: first, 2·first,
// 4·first … up to maxGames.
func rounds(first, maxGames int) []int {
	var sizes []int
	for n := first; ; n = min(2*n, maxGames) {
		sizes = append(sizes, n)
		if n == maxGames {
			return sizes
		}
	}
}

// progress is where a race stands: the round under way and whether its
// games were begun (its budget check passed).
type progress struct {
	Round int  `json:"round"`
	Begun bool `json:"begun"`
}

// race plays the rounds (each candidate left extended to the round's games
// by play). After each it drops the candidates shown to break a hard
// target, then those shown worse than the leader, then, by successive
// halving, those ranked below the share res.Keep of the round's
// candidates. The tests of every round together drop the best candidate
// with probability at most the level (a union bound over the rounds, the
// candidates and their intervals: each at level alpha / (rounds ×
// candidates × intervals a candidate)). Halving drops by rank, not proof.
// k, if not nil, keeps the race's state as it goes and may hold a state
// to continue from.
func (res *Result) race(cands []*Candidate, sizes []int, play func(c *Candidate, from, to int) error, opts Options, k *keeper) error {
	at := k.progress()
	for ; at.Round < len(sizes); at.Round, at.Begun = at.Round+1, false {
		r, n := at.Round, sizes[at.Round]
		alive := slices.DeleteFunc(slices.Clone(cands), func(c *Candidate) bool { return c.DroppedAfter > 0 })
		if !at.Begun {
			switch {
			case len(alive) == 0:
				res.Stopped = "every candidate was shown to break a hard target"
				return nil
			case len(alive) == 1 && r > 0:
				res.Stopped = "one candidate left"
				return nil
			}
			cost := 0
			for _, c := range alive {
				cost += n - c.Games
			}
			if opts.Budget > 0 && res.Spent+cost > opts.Budget {
				res.Stopped = fmt.Sprintf("the budget of %s games would be passed by round %d (%s more)", bots.Thousands(opts.Budget), r+1, bots.Thousands(cost))
				return nil
			}
			at.Begun = true
			if err := k.save(res, at, true); err != nil {
				return err
			}
		}
		for _, c := range alive {
			if c.Games >= n {
				continue // played before a stop
			}
			if err := play(c, c.Games, n); err != nil {
				return err
			}
			res.Spent += n - c.Games
			c.Games = n
			if err := k.save(res, at, false); err != nil {
				return err
			}
		}
		round := res.judge(alive, r, len(sizes), n)
		res.Rounds = append(res.Rounds, round)
		if opts.OnRound != nil {
			opts.OnRound(round)
		}
		lead := res.lead(alive)
		if res.Tolerance > 0 && lead != nil && res.tested(lead) && lead.Objective.High <= res.Tolerance {
			res.Stopped = fmt.Sprintf("%s is shown within the tolerance of %s (its objective at most %s, z = %.2f)", lead.Label, res.amount(res.Tolerance), res.amount(lead.Objective.High), round.Z)
			return nil
		}
		if err := k.save(res, progress{Round: r + 1}, true); err != nil {
			return err
		}
	}
	switch left := len(cands) - len(slices.DeleteFunc(slices.Clone(cands), func(c *Candidate) bool { return c.DroppedAfter == 0 })); left {
	case 0:
		res.Stopped = "every candidate was shown to break a hard target"
	case 1:
		res.Stopped = "one candidate left"
	default:
		res.Stopped = fmt.Sprintf("the candidates left played all %s games", bots.Thousands(sizes[len(sizes)-1]))
	}
	return nil
}

// judge estimates the round's candidates (who played n games in round
// index r of rounds) and drops those its tests and halving drop.
func (res *Result) judge(alive []*Candidate, r, rounds, n int) Round {
	// The level of each interval is alpha over all of them (a union bound).
	z := distuv.UnitNormal.Quantile(1 - res.Alpha/float64(rounds*len(alive)*res.Goal.intervals()))
	for _, c := range alive {
		res.estimate(c, z)
	}
	round := Round{Index: r + 1, Games: n, Candidates: len(alive), Spent: res.Spent, Z: z}
	for _, c := range alive {
		if proof := c.forcedWin(); proof != "" {
			c.DroppedAfter, c.DroppedBy = r+1, DroppedByBroken
			c.Why = fmt.Sprintf("after %d games, its rules are broken: %s", n, proof)
			round.Broken++
			continue
		}
		if broken := res.broken(c); broken != "" {
			c.DroppedAfter, c.DroppedBy = r+1, DroppedByConstraint
			c.Why = fmt.Sprintf("after %d games, %s (z = %.2f)", n, broken, z)
			round.Broke++
		}
	}
	lead := res.lead(alive)
	kept := make([]*Candidate, 0, len(alive))
	for _, c := range alive {
		if c.DroppedAfter > 0 {
			continue // it broke a hard target
		}
		if c != lead {
			if excess, dropped := res.worse(c, lead, z); dropped {
				c.DroppedAfter, c.DroppedBy = r+1, DroppedByTest
				c.Why = fmt.Sprintf("after %d games on the same deals as %s, its objective is at least %s above that one's (paired, z = %.2f)",
					n, lead.Label, res.amount(excess), z)
				round.Dropped++
				continue
			}
		}
		kept = append(kept, c)
	}
	if r < rounds-1 {
		round.Halved = res.halve(kept, len(alive), r+1, n)
	}
	for _, c := range alive {
		res.Evaluations = append(res.Evaluations, Evaluation{Round: r + 1, Label: c.Label, Games: n, Seat0: c.Seat0Mean,
			Imbalance: c.Imbalance, Objective: c.Objective, Dropped: c.DroppedAfter > 0})
	}
	if lead != nil {
		round.Leader = lead.Label
	}
	return round
}

// forcedWin says, for a candidate whose games are short (reports.
// ShortGamePlies on average), the forced win a shallow proof finds from
// its start: "seat 0 wins by force in 1: a1Sxd4 — the rules, not the
// bots"; "" otherwise, or where no proof is possible.
func (c *Candidate) forcedWin() string {
	if c.Plies > reports.ShortGamePlies || c.Games == 0 {
		return ""
	}
	g, err := c.cfg.NewGame()
	if err != nil {
		return ""
	}
	pf, _ := prove.Within(g.NewState(), reports.ShortGamePlies)
	if pf == nil {
		return ""
	}
	return reports.ForcedWinText(pf)
}

// halve sets aside, by successive halving, the candidates of kept ranked
// below the share res.Keep of the round's candidates (of whom there were
// round), by their objective; it keeps at least two, so that the last
// word between candidates is a test's. It returns how many it set aside.
func (res *Result) halve(kept []*Candidate, round, index, games int) int {
	n := max(2, int(math.Ceil(res.Keep*float64(round)-1e-9)))
	if len(kept) <= n {
		return 0
	}
	ranked := slices.Clone(kept)
	slices.SortStableFunc(ranked, func(a, b *Candidate) int { return cmp.Compare(a.Objective.Value, b.Objective.Value) })
	for i, c := range ranked[n:] {
		c.DroppedAfter, c.DroppedBy = index, DroppedByRank
		c.Why = fmt.Sprintf("after %d games, ranked %d of the %d left by objective (%s); successive halving kept the best %d: set aside by rank, not shown worse",
			games, n+i+1, len(ranked), res.amount(c.Objective.Value), n)
	}
	return len(ranked) - n
}

// amount writes a value of the objective: in points of seat 0's score
// when the objective is the imbalance alone.
func (res *Result) amount(x float64) string {
	if res.Goal.IsBalanceOnly() {
		return fmt.Sprintf("%.1f points", 100*x)
	}
	return fmt.Sprintf("%.3g", x)
}

// broken says which hard target c's figures are shown to break ("" when
// none).
func (res *Result) broken(c *Candidate) string {
	if !res.tested(c) {
		return ""
	}
	for i, t := range res.Goal.Targets {
		if f := c.Targets[i]; t.Hard() && f.Distance.Low > 0 {
			return fmt.Sprintf("its %s is shown outside %s: %.3g [%.3g, %.3g]", t.Metric, t.Range(), f.Mean, f.Interval.Low, f.Interval.High)
		}
	}
	return ""
}

// worse tests whether c's objective is above lead's. Its lower bound on
// the difference adds the balance weight times the paired bound on the
// imbalances' difference (pairedExcess) and, for each soft target, its
// weight times c's least distance minus lead's greatest; c is worse when
// the bound is above 0. When every interval holds the bound holds, so a
// candidate as good as the leader is dropped only when one misses.
func (res *Result) worse(c, lead *Candidate, z float64) (excess float64, dropped bool) {
	if !res.tested(c) || !res.tested(lead) {
		return 0, false
	}
	if res.Goal.Balance > 0 {
		excess = res.Goal.Balance * pairedExcess(c, lead, z)
	}
	for i, t := range res.Goal.Targets {
		if !t.Hard() {
			excess += t.Weight * (c.Targets[i].Distance.Low - lead.Targets[i].Distance.High)
		}
	}
	return excess, excess > 0
}

// pairedExcess bounds from below c's imbalance minus lead's, over the
// deals both played (the same deals: common random numbers, so the
// comparison is paired). With x and y their seat-0 scores per deal and σ
// the side of ½ c's mean is on, |mean x − ½| − |mean y − ½| is at least
// the mean of σ(x − ½) − σ'(y − ½) for σ' = +1 and for σ' = −1, whichever
// is less: the bound is the lesser low end of their intervals at quantile
// z. If c is not worse, the test for σ' on the side of lead's true mean
// has a true mean of 0 or less, and its low end is above 0 with
// probability at most that of one interval missing.
func pairedExcess(c, lead *Candidate, z float64) float64 {
	sc := 1.0
	if c.Seat0Mean < 0.5 {
		sc = -1
	}
	n := min(c.tally.deals(), lead.tally.deals())
	x, y := c.tally.Sum[figScore], lead.tally.Sum[figScore]
	excess := math.Inf(1)
	for _, sl := range []float64{1, -1} {
		var m stats.Moments
		for i := range n {
			m.Add(sc*(x[i]/2-0.5) - sl*(y[i]/2-0.5))
		}
		// Two independent deals' scores each vary by at most ¼.
		excess = min(excess, m.ShrunkInterval(z, 2*0.25, stats.PriorPairs).Low)
	}
	return excess
}

// lead is the candidate of cands still in the race with the least
// objective (the first such; nil when none is).
func (res *Result) lead(cands []*Candidate) *Candidate {
	var best *Candidate
	for _, c := range cands {
		if c.DroppedAfter == 0 && (best == nil || c.Objective.Value < best.Objective.Value) {
			best = c
		}
	}
	return best
}

// playGames plays games [from, to) of the candidate's variant on seed,
// giving each to add: game i depends only on the seed and i, so every
// candidate plays the same deals (common random numbers) and a longer
// round extends a shorter one.
func (c *Candidate) playGames(ctx context.Context, seed uint64, from, to int, opts Options, add func(*sim.Record)) error {
	cfg := *c.cfg
	cfg.Games, cfg.Seed = to, seed
	job, err := rundir.Job(&cfg)
	if err != nil {
		return err
	}
	job.Sliced, job.From, job.To = true, from, to
	job.Trace = 0 // every game is traced for How it plays' targets, none otherwise
	if opts.traced {
		job.Trace = to
	}
	var failed error
	err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if opts.OnGame != nil {
			opts.OnGame()
		}
		if r.Err != nil {
			failed = cmp.Or(failed, error(r.Err))
			return
		}
		add(r)
	})
	if err = cmp.Or(err, failed); err != nil {
		return fmt.Errorf("%s: %w", c.Label, err)
	}
	return nil
}

// estimate sets the candidate's figures with intervals at quantile z,
// over its deals (two games each): seat 0's score and imbalance (the
// variance shrunk as the paired interval's is), each target's figure and
// distance, and the objective.
func (res *Result) estimate(c *Candidate, z float64) {
	deals := c.tally.deals()
	m := c.tally.moments(figScore, deals)
	// A deal's mean score varies by at most ¼ (two games of 0 to 1).
	iv := m.ShrunkInterval(z, 0.25, stats.PriorPairs)
	iv.Low, iv.High = max(iv.Low, 0), min(iv.High, 1)
	c.Seat0Mean, c.Seat0 = m.Mean(), iv
	c.Imbalance = Bounds{Value: math.Abs(m.Mean() - 0.5), High: max(math.Abs(iv.Low-0.5), math.Abs(iv.High-0.5))}
	if iv.Low > 0.5 || iv.High < 0.5 {
		c.Imbalance.Low = min(math.Abs(iv.Low-0.5), math.Abs(iv.High-0.5))
	}
	draws, plies := c.tally.moments(figDraws, deals), c.tally.moments(figPlies, deals)
	c.Draws, c.Plies = draws.Mean(), plies.Mean()
	g := res.Goal
	c.Objective = Bounds{Value: g.Balance * c.Imbalance.Value, Low: g.Balance * c.Imbalance.Low, High: g.Balance * c.Imbalance.High}
	c.Targets = c.Targets[:0]
	for i, t := range g.Targets {
		m := c.tally.moments(figTargets+i, deals)
		f := Figure{Metric: t.Metric, Mean: m.Mean(), Interval: targetInterval(&m, t, z)}
		f.Distance.Value = t.distance(f.Mean)
		f.Distance.Low, f.Distance.High = t.distanceRange(f.Interval)
		c.Targets = append(c.Targets, f)
		if !t.Hard() {
			c.Objective.Value += t.Weight * f.Distance.Value
			c.Objective.Low += t.Weight * f.Distance.Low
			c.Objective.High += t.Weight * f.Distance.High
		}
	}
}

// MinTargetDeals is the fewest deals a target's interval needs before a
// test of it may drop a candidate or end the race.
const MinTargetDeals = 10

// targetInterval is the interval of a target's figure from its per-deal
// means: a share's variance is shrunk toward a share's largest, as the
// seat score's is; another figure's is a normal interval.
func targetInterval(m *stats.Moments, t Target, z float64) stats.Interval {
	if t.Unit {
		iv := m.ShrunkInterval(z, 0.25, stats.PriorPairs)
		iv.Low, iv.High = max(iv.Low, 0), min(iv.High, 1)
		return iv
	}
	return m.MeanInterval(z)
}

// tested reports whether c's target figures rest on enough deals to be
// tested (MinTargetDeals; always, without targets).
func (res *Result) tested(c *Candidate) bool {
	return len(res.Goal.Targets) == 0 || c.tally.deals() >= MinTargetDeals
}
