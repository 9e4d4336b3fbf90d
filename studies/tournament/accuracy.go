package tournament

import (
	"context"
	"fmt"

	"playtest/reports"
	"playtest/studies/accuracy"
	"playtest/variants"
)

// judgeAccuracy judges the first r.AccuracyGames games of each pairing
// against perfect play (set from Options.Accuracy, kept in a study's
// design) and pools each entrant's decisions over its pairings.
func (r *Result) judgeAccuracy(ctx context.Context, cfgs []*variants.Config, opts Options) error {
	n := r.AccuracyGames
	if n <= 0 || len(cfgs) == 0 {
		return nil
	}
	mine := make([][]*accuracy.Player, len(r.Entrants))
	for i, cfg := range cfgs {
		p := r.Pairings[i]
		res, err := accuracy.Run(ctx, cfg, accuracy.Options{Games: n, Workers: opts.Workers})
		if err != nil {
			return fmt.Errorf("accuracy of pairing #%d vs #%d: %w", p.A+1, p.B+1, err)
		}
		mine[p.A] = append(mine[p.A], &res.Players[0])
		mine[p.B] = append(mine[p.B], &res.Players[1])
	}
	for i, e := range r.Entrants {
		r.Accuracy = append(r.Accuracy, accuracy.Pool(e.Label, mine[i]...))
	}
	r.AccuracyGames = n
	return nil
}

// accuracyCells are entrant i's accuracy cells in the ratings table.
func (r *Result) accuracyCells(i int) []string {
	a := r.Accuracy[i]
	if a.Decisions == 0 {
		return []string{"—", fmt.Sprint(a.Blunders())}
	}
	return []string{fmt.Sprintf("%s [%s]", reports.FormatPercent(a.Accuracy), reports.FormatInterval(a.Interval.Low, a.Interval.High)),
		fmt.Sprintf("%.2f", a.BlundersPerGame)}
}

// accuracyNote says what the accuracy columns count.
func (r *Result) accuracyNote() string {
	if r.Accuracy == nil {
		return ""
	}
	unproven := 0
	for _, a := range r.Accuracy {
		unproven += a.Unproven
	}
	note := fmt.Sprintf("accuracy: the share of each entrant's decisions that keep the proven value in the first %d games of each of its pairings (noise moves apart), with 95%% intervals over games; blunders: a win given away or a draw turned into a loss, a game (playtest accuracy gives them by kind and phase)", r.AccuracyGames)
	if unproven > 0 {
		note += fmt.Sprintf("; %d decisions were left unproven within the prover's bound", unproven)
	}
	return note
}
