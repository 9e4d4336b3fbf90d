package skill

import (
	"context"
	"fmt"
	"time"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim/bots"
	"playtest/variants"
)

// Ceiling is the ladder's perfect rung (Options.Perfect): the perfect bot
// in both seats on the ladder's deals, whose seat 0 figure is the proven
// value's when every game ends in it.
type Ceiling struct {
	Games    int              `json:"games"`
	Headline reports.Headline `json:"headline"`
	reports.RatesAndLength
	Seconds float64 `json:"seconds"`
}

// Gap is a rung's distance from the ceiling: its bot (player 0, at the
// rung's budget) against the perfect bot, in seat-swapped pairs on the
// ladder's deals.
type Gap struct {
	// Score is the rung's score per game against perfect play, with its
	// 95% interval over pairs; Elo the logistic difference (nil where the
	// score is 0 or 1: no finite Elo).
	Score stats.PairScore `json:"score"`
}

// perfectSpec is the perfect bot with its default bound.
func perfectSpec() (bots.Spec, error) {
	def, err := bots.Lookup("perfect")
	if err != nil {
		return bots.Spec{}, err
	}
	return bots.Spec{Bot: def.Name, Params: def.NewParams()}, nil
}

// checkPerfect refuses --perfect where the perfect bot would be refused:
// the variant's start not proven within its bound, or rules a proof does
// not see.
func checkPerfect(cfg *variants.Config) error {
	spec, err := perfectSpec()
	if err != nil {
		return err
	}
	return cfg.LoadBotModel("--perfect", spec)
}

// withPlayers is cfg with the players and pairs given, built in code
// (the perfect rung is not kept in a study's directory).
func withPlayers(cfg *variants.Config, p0, p1 bots.Spec, pairs bool) *variants.Config {
	c := *cfg
	c.Players, c.Pairs = [2]bots.Spec{p0, p1}, pairs
	return &c
}

// climbToPerfect plays the ceiling (perfect self-play) and each rung's
// head-to-head against it, on the ladder's seeds and games.
func (r *Result) climbToPerfect(ctx context.Context, cfg *variants.Config, opts Options) error {
	perfect, err := perfectSpec()
	if err != nil {
		return err
	}
	begin := time.Now()
	self, err := newSeries(withPlayers(cfg, perfect, perfect, cfg.Pairs), "perfect", len(r.Rungs), 0, false)
	if err != nil {
		return err
	}
	if err := self.extend(ctx, opts, cfg.Games); err != nil {
		return err
	}
	s := self.summary()
	r.Ceiling = &Ceiling{Games: self.played, Headline: s.Headline, RatesAndLength: s.RatesAndLength(), Seconds: time.Since(begin).Seconds()}
	for k := range r.Rungs {
		rung := &r.Rungs[k]
		bot := cfg.Players[0].WithBudget(rung.Budget)
		h2h, err := newSeries(withPlayers(cfg, bot, perfect, true), fmt.Sprintf("budget %d against perfect", rung.Budget), k, rung.Budget, true)
		if err != nil {
			return err
		}
		if err := h2h.extend(ctx, opts, cfg.Games); err != nil {
			return err
		}
		hs := h2h.summary()
		if hs.PairStats == nil {
			return fmt.Errorf("%s: too few games for a pair", h2h.name)
		}
		rung.Gap = &Gap{Score: hs.PairStats.Player0}
	}
	return nil
}

// gapCell is a rung's score against perfect play in the table.
func gapCell(g *Gap) string {
	if g == nil {
		return "—"
	}
	sc := g.Score
	text := fmt.Sprintf("%s [%s]", reports.FormatPercent(sc.Score), reports.FormatInterval(sc.CI.Low, sc.CI.High))
	if sc.Elo != nil {
		text += fmt.Sprintf(", %+.0f Elo", *sc.Elo)
	}
	return text
}

// ceilingRow is the perfect rung's cells, under the rungs'.
func (r *Result) ceilingRow() []string {
	c := r.Ceiling
	h := c.Headline
	row := []string{"perfect", bots.Thousands(c.Games),
		fmt.Sprintf("%s [%s]", reports.FormatPercent(h.Value), reports.FormatInterval(h.Low, h.High)),
		reports.FormatP(h.P), reports.FormatPercent(c.Draws.Rate), reports.FormatPercent(c.Stalled.Rate),
		fmt.Sprintf("%.1f", c.Plies.Value), "—", "—"}
	if r.judged() {
		row = append(row, "—", "—")
	}
	return append(row, "—")
}

// ceilingLine says what the perfect rung shows.
func (r *Result) ceilingLine() string {
	c := r.Ceiling
	if c == nil {
		return ""
	}
	text := fmt.Sprintf("Ceiling: the perfect bot in both seats (%d games, %.1f s) scores seat 0 %s with %s draws", c.Games, c.Seconds,
		reports.FormatPercent(c.Headline.Value), reports.FormatPercent(c.Draws.Rate))
	if p := r.Proven; p != nil {
		text += fmt.Sprintf(", the proven %s giving %s", p.Value, reports.FormatPercent(p.Seat0Score))
	}
	text += "; vs perfect is each rung's bot's score against it over seat-swapped pairs on the same deals (50% where it never loses value, as in a draw held both ways)."
	return text
}
