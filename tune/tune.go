package tune

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"playtest/experiment"
	"playtest/games"
	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/sweep"
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
	// DroppedByTest: its games showed it less balanced than the leader's.
	DroppedByTest = "test"
	// DroppedByRank: successive halving set it aside for its rank, without
	// showing it worse.
	DroppedByRank = "rank"
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
	// Alpha bounds the chance that the race drops the best candidate
	// (DefaultAlpha if 0).
	Alpha float64
	// Keep is the share of a round's candidates that successive halving
	// keeps for the next round, by rank (DefaultKeep if 0; 1 races
	// without halving). It never keeps fewer than two.
	Keep float64
	// Tolerance, if above 0, ends the race once the leader's imbalance is
	// shown at most Tolerance: "fair enough".
	Tolerance float64
	// Skipped are the points of the space left out (sweep.Prepare's).
	Skipped sweep.Skipped
	// OnRound, if set, is told each finished round.
	OnRound func(Round)
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
	// 95% interval; Imbalance is its distance from ½, the objective, with
	// the interval that distance can take within Seat0's.
	Seat0     stats.Interval `json:"seat0_interval"`
	Seat0Mean float64        `json:"seat0"`
	Imbalance Imbalance      `json:"imbalance"`
	// Draws and Plies are the share of drawn games and the mean length.
	Draws float64 `json:"draws"`
	Plies float64 `json:"plies"`
	// DroppedAfter is the round after which it left the race (0: it stayed
	// to the end), DroppedBy how (DroppedByTest or DroppedByRank), and Why
	// says why in words.
	DroppedAfter int    `json:"dropped_after,omitempty"`
	DroppedBy    string `json:"dropped_by,omitempty"`
	Why          string `json:"why,omitempty"`

	cfg   *variants.Config
	agg   *reports.Aggregator
	deals []float64 // seat 0's total score per deal
}

// Imbalance is |seat 0's score − ½| with the range it can take.
type Imbalance struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Round is one round of the race.
type Round struct {
	Index int `json:"round"`
	// Games is the games each candidate left has played after it.
	Games int `json:"games_per_candidate"`
	// Candidates is how many played it; Dropped how many its tests showed
	// worse than the leader, Halved how many successive halving set aside.
	Candidates int `json:"candidates"`
	Dropped    int `json:"dropped"`
	Halved     int `json:"halved,omitempty"`
	// Spent is the games of the race so far.
	Spent int `json:"games_spent"`
	// Z is the normal quantile of its drop intervals.
	Z float64 `json:"z"`
	// Leader is the label of the least imbalanced candidate.
	Leader string `json:"leader"`
}

// Evaluation is a candidate's standing after a round.
type Evaluation struct {
	Round     int       `json:"round"`
	Label     string    `json:"label"`
	Games     int       `json:"games"`
	Seat0     float64   `json:"seat0"`
	Imbalance Imbalance `json:"imbalance"`
	Dropped   bool      `json:"dropped,omitempty"`
}

// Result is a finished race.
type Result struct {
	Schema string `json:"schema"`
	Name   string `json:"name"`
	Source string `json:"source"`
	Game   string `json:"game"`
	// Axes name the space's axes.
	Axes []string `json:"axes"`
	// Objective says what is minimised.
	Objective string  `json:"objective"`
	Seed      uint64  `json:"seed"`
	Pairs     bool    `json:"pairs"`
	Alpha     float64 `json:"alpha"`
	// Keep is successive halving's share kept per round (1: none);
	// Tolerance the imbalance that is fair enough (0: none).
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
	// Spent is the games played; FullSweep the games a sweep of every
	// candidate at MaxGames would play.
	Spent     int     `json:"games_spent"`
	FullSweep int     `json:"games_full_sweep"`
	Rounds    []Round `json:"rounds"`
	// Skipped tells the points of the space left out (nil: none).
	Skipped *sweep.Skipped `json:"skipped,omitempty"`
	// Evaluations are every candidate's figures after every round it
	// played, with the round's drop intervals.
	Evaluations []Evaluation `json:"evaluations"`
	// Candidates are ranked: those left in the race by their imbalance,
	// then the dropped ones, the latest dropped first.
	Candidates []Candidate `json:"candidates"`
	// Stopped says why the race ended.
	Stopped string `json:"stopped"`
}

// Validate checks the options against the space (its candidates and the
// first one's variant), before any game is played.
func Validate(candidates int, cfg *variants.Config, opts Options) error {
	first := cmp.Or(opts.FirstGames, DefaultFirstGames)
	if opts.Budget > 0 && opts.Budget < candidates*first {
		return fmt.Errorf("--budget %s: the first round alone plays %s games (%d candidates × %d)", bots.Thousands(opts.Budget), bots.Thousands(candidates*first), candidates, first)
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
	case !(opts.Tolerance >= 0 && opts.Tolerance < 0.5):
		return fmt.Errorf("--tolerance %g: want an imbalance from 0 (none) up to 0.5, e.g. 0.02 for 2 points", opts.Tolerance)
	case !cfg.Pairs:
		return fmt.Errorf("tune measures seat balance over seat-swapped pairs: the variants need pairs: true")
	}
	return nil
}

// Run races the sweep's variants (as sweep.Prepare built them).
func Run(ctx context.Context, s *sweep.Sweep, cfgs []*variants.Config, points []sweep.Point, opts Options) (*Result, error) {
	if err := Validate(len(cfgs), cfgs[0], opts); err != nil {
		return nil, err
	}
	first := cmp.Or(opts.FirstGames, DefaultFirstGames)
	maxGames := cmp.Or(opts.MaxGames, cfgs[0].Games)
	alpha := cmp.Or(opts.Alpha, DefaultAlpha)
	res := &Result{Schema: Schema, Name: s.Name, Source: s.Source, Game: cfgs[0].Definition.Name,
		Objective: "|seat 0's score over seat-swapped pairs − 50%|", Seed: cfgs[0].Seed, Pairs: true, Alpha: alpha,
		Keep: cmp.Or(opts.Keep, DefaultKeep), Tolerance: opts.Tolerance,
		Bots: bots.DescribePlayers(cfgs[0].Players), FirstGames: first, MaxGames: maxGames, Budget: opts.Budget,
		FullSweep: len(cfgs) * maxGames}
	for _, a := range s.Axes {
		res.Axes = append(res.Axes, a.Name)
	}
	if opts.Skipped.Count() > 0 {
		res.Skipped = &opts.Skipped
	}
	cands := make([]*Candidate, len(cfgs))
	for i, cfg := range cfgs {
		g, err := cfg.NewGame()
		if err != nil {
			return nil, err
		}
		info := experiment.Info(cfg, g)
		cands[i] = &Candidate{Label: s.Label(points[i]), Values: points[i].Labels, Variant: cfg.Name, ConfigHash: cfg.Hash(),
			Changes: variants.LabelOf(strings.TrimPrefix(cfg.Source, "preset "), info.RuleChanges), Skill: reports.SkillCommand(info),
			cfg: cfg, agg: reports.NewAggregator(info)}
	}
	play := func(c *Candidate, from, to int) error { return c.play(ctx, from, to, opts) }
	if err := res.race(cands, rounds(first, maxGames), play, opts); err != nil {
		return nil, err
	}
	// Those still in the race, by imbalance; then the dropped, latest
	// first, each by imbalance.
	slices.SortStableFunc(cands, func(a, b *Candidate) int {
		ra, rb := a.DroppedAfter, b.DroppedAfter
		if ra == 0 {
			ra = math.MaxInt
		}
		if rb == 0 {
			rb = math.MaxInt
		}
		return cmp.Or(cmp.Compare(rb, ra), cmp.Compare(a.Imbalance.Value, b.Imbalance.Value))
	})
	for _, c := range cands {
		if c.Games > 0 {
			c.estimate(stats.Z95) // the figures shown: 95% intervals
		}
		res.Candidates = append(res.Candidates, *c)
	}
	return res, nil
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

// race plays the rounds (each candidate left extended to the round's games
// by play), dropping after each the candidates shown less balanced than
// the leader, then, by successive halving, those ranked below the share
// res.Keep of the round's candidates. The tests of every round together
// drop the best candidate with probability at most the level (a union
// bound over the rounds and the candidates): each interval is at level
// alpha / (2 × rounds × candidates). Halving drops by rank, not proof.
func (res *Result) race(cands []*Candidate, sizes []int, play func(c *Candidate, from, to int) error, opts Options) error {
	alive := slices.Clone(cands)
	played := 0
	for r, n := range sizes {
		if len(alive) == 1 && r > 0 {
			res.Stopped = "one candidate left"
			return nil
		}
		cost := len(alive) * (n - played)
		if opts.Budget > 0 && res.Spent+cost > opts.Budget {
			res.Stopped = fmt.Sprintf("the budget of %s games would be passed by round %d (%s more)", bots.Thousands(opts.Budget), r+1, bots.Thousands(cost))
			return nil
		}
		for _, c := range alive {
			if err := play(c, played, n); err != nil {
				return err
			}
			c.Games = n
		}
		res.Spent += cost
		played = n
		// Two one-sided tests per candidate and round: the level of each
		// is alpha over all of them (a union bound).
		z := distuv.UnitNormal.Quantile(1 - res.Alpha/float64(2*len(sizes)*len(alive)))
		for _, c := range alive {
			c.estimate(z)
		}
		lead := leader(alive)
		round := Round{Index: r + 1, Games: n, Candidates: len(alive), Spent: res.Spent, Z: z}
		kept := make([]*Candidate, 0, len(alive))
		for _, c := range alive {
			if c == lead {
				kept = append(kept, c)
				continue
			}
			if excess, dropped := worse(c, lead, z); dropped {
				c.DroppedAfter, c.DroppedBy = r+1, DroppedByTest
				c.Why = fmt.Sprintf("after %d games on the same deals as %s, its imbalance is at least %.1f points above that one's (paired, z = %.2f)",
					n, lead.Label, 100*excess, z)
				round.Dropped++
				continue
			}
			kept = append(kept, c)
		}
		if r < len(sizes)-1 {
			round.Halved = res.halve(&kept, len(alive), r+1, n)
		}
		for _, c := range alive {
			res.Evaluations = append(res.Evaluations, Evaluation{Round: r + 1, Label: c.Label, Games: n, Seat0: c.Seat0Mean, Imbalance: c.Imbalance, Dropped: c.DroppedAfter > 0})
		}
		alive = kept
		round.Leader = lead.Label
		res.Rounds = append(res.Rounds, round)
		if opts.OnRound != nil {
			opts.OnRound(round)
		}
		if res.Tolerance > 0 && lead.Imbalance.High <= res.Tolerance {
			res.Stopped = fmt.Sprintf("%s is shown within the tolerance of %.1f points (its imbalance at most %.1f, z = %.2f)", lead.Label, 100*res.Tolerance, 100*lead.Imbalance.High, z)
			return nil
		}
	}
	res.Stopped = fmt.Sprintf("the candidates left played all %s games", bots.Thousands(sizes[len(sizes)-1]))
	if len(alive) == 1 {
		res.Stopped = "one candidate left"
	}
	return nil
}

// halve sets aside, by successive halving, the candidates of *kept ranked
// below the share res.Keep of the round's candidates (of whom there were
// round), by their imbalance; it keeps at least two, so that the last
// word between candidates is a test's. It returns how many it set aside.
func (res *Result) halve(kept *[]*Candidate, round, index, games int) int {
	n := max(2, int(math.Ceil(res.Keep*float64(round)-1e-9)))
	if len(*kept) <= n {
		return 0
	}
	ranked := slices.Clone(*kept)
	slices.SortStableFunc(ranked, func(a, b *Candidate) int { return cmp.Compare(a.Imbalance.Value, b.Imbalance.Value) })
	for i, c := range ranked[n:] {
		c.DroppedAfter, c.DroppedBy = index, DroppedByRank
		c.Why = fmt.Sprintf("after %d games, ranked %d of the %d left by imbalance (%.1f points); successive halving kept the best %d: set aside by rank, not shown worse",
			games, n+i+1, len(ranked), 100*c.Imbalance.Value, n)
	}
	*kept = slices.DeleteFunc(*kept, func(c *Candidate) bool { return c.DroppedAfter > 0 })
	return len(ranked) - n
}

// worse tests whether c is less balanced than lead, over the deals both
// played (the same deals: common random numbers, so the comparison is
// paired). With x and y their seat-0 scores per deal and σ the side of ½
// c's mean is on, |mean x − ½| − |mean y − ½| is at least the mean of
// σ(x − ½) − σ'(y − ½) for σ' = +1 and for σ' = −1, whichever is less: c
// is worse when both means are shown above 0 (their intervals' low ends
// at quantile z), and excess is the lesser low end. If c is not worse,
// the test for σ' on the side of lead's true mean has a true mean of 0 or
// less, and passes with probability at most that of one interval missing.
func worse(c, lead *Candidate, z float64) (excess float64, dropped bool) {
	sc := 1.0
	if c.Seat0Mean < 0.5 {
		sc = -1
	}
	n := min(len(c.deals), len(lead.deals))
	excess = math.Inf(1)
	for _, sl := range []float64{1, -1} {
		var m stats.Moments
		for i := range n {
			m.Add(sc*(c.deals[i]/2-0.5) - sl*(lead.deals[i]/2-0.5))
		}
		// Two independent deals' scores each vary by at most ¼.
		excess = min(excess, m.ShrunkInterval(z, 2*0.25, stats.PriorPairs).Low)
	}
	return excess, excess > 0
}

// leader is the candidate with the least imbalance estimate (the first
// such).
func leader(cands []*Candidate) *Candidate {
	best := cands[0]
	for _, c := range cands[1:] {
		if c.Imbalance.Value < best.Imbalance.Value {
			best = c
		}
	}
	return best
}

// play plays the candidate's games [from, to): game i depends only on the
// seed and i, so every candidate plays the same deals (common random
// numbers) and a longer round extends a shorter one.
func (c *Candidate) play(ctx context.Context, from, to int, opts Options) error {
	cfg := *c.cfg
	cfg.Games = to
	job, err := experiment.Job(&cfg)
	if err != nil {
		return err
	}
	job.Sliced, job.From, job.To = true, from, to
	var failed error
	err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if opts.OnGame != nil {
			opts.OnGame()
		}
		if r.Err != nil {
			failed = cmp.Or(failed, error(r.Err))
			return
		}
		c.agg.Add(r)
		for len(c.deals) <= r.Deal {
			c.deals = append(c.deals, 0)
		}
		c.deals[r.Deal] += r.Result.ScoreFor(games.Seat0)
	})
	if err = cmp.Or(err, failed); err != nil {
		return fmt.Errorf("%s: %w", c.Label, err)
	}
	return nil
}

// estimate sets the candidate's seat-0 score and imbalance with intervals
// at quantile z, over its deals (two games each), the variance shrunk as
// the paired interval's is.
func (c *Candidate) estimate(z float64) {
	var m stats.Moments
	for _, d := range c.deals {
		m.Add(d / 2)
	}
	// A deal's mean score varies by at most ¼ (two games of 0 to 1).
	iv := m.ShrunkInterval(z, 0.25, stats.PriorPairs)
	iv.Low, iv.High = max(iv.Low, 0), min(iv.High, 1)
	c.Seat0Mean, c.Seat0 = m.Mean(), iv
	c.Imbalance = Imbalance{Value: math.Abs(m.Mean() - 0.5), High: max(math.Abs(iv.Low-0.5), math.Abs(iv.High-0.5))}
	if iv.Low > 0.5 || iv.High < 0.5 {
		c.Imbalance.Low = min(math.Abs(iv.Low-0.5), math.Abs(iv.High-0.5))
	}
	if c.agg != nil {
		s := c.agg.Summary(reports.Timing{})
		c.Draws, c.Plies = s.Rates.Draw.Rate, s.Plies.Mean
	}
}
