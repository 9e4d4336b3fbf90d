package skill

import (
	"context"
	"fmt"

	"playtest/reports"
	"playtest/studies/accuracy"
)

// Accuracy settings of a ladder (Options.Accuracy).
const (
	// AutoAccuracy judges DefaultAccuracyGames of each rung where the
	// full solve proves the variant (its positions are quick to prove),
	// none elsewhere.
	AutoAccuracy = -1
	// DefaultAccuracyGames is how many self-play games of each rung
	// AutoAccuracy judges.
	DefaultAccuracyGames = 20
)

// RungAccuracy is a rung's self-play judged against perfect play
// (package accuracy): both seats' decisions together.
type RungAccuracy struct {
	// Games are the rung's self-play games judged, from index 0.
	Games int `json:"games"`
	// Decisions are the judged decisions (the book's and the bots'
	// varied ones apart); Accuracy the share that kept the proven value,
	// with a 95% interval over games.
	Decisions int     `json:"decisions"`
	Accuracy  float64 `json:"accuracy"`
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	// BlundersPerGame is the mean of a game's blunders (a win given
	// away, a draw turned into a loss), both seats'.
	BlundersPerGame float64 `json:"blunders_per_game"`
	// Varied are the decisions the bots' variety settings (noise) made,
	// VariedKept those that kept the value: apart from Accuracy.
	Varied     int `json:"varied,omitempty"`
	VariedKept int `json:"varied_kept,omitempty"`
	// Unproven counts the decisions a proof's bound left unjudged.
	Unproven int `json:"unproven,omitempty"`
}

// accuracyGames resolves opts.Accuracy for a ladder proven (or not) as
// proven says.
func accuracyGames(opts Options, proven *Proven) int {
	if opts.Accuracy != AutoAccuracy {
		return max(opts.Accuracy, 0)
	}
	if proven != nil && !proven.Searched {
		return DefaultAccuracyGames
	}
	return 0
}

// judgeAccuracy judges the first games of each rung's self-play against
// perfect play, as opts ask (by default where the ladder is proven by the
// full solve; asked for, wherever the variant's positions can be proven,
// each decision proven or counted unproven).
func (r *Result) judgeAccuracy(ctx context.Context, opts Options) error {
	n := accuracyGames(opts, r.Proven)
	if n == 0 {
		return nil
	}
	for k := range r.Rungs {
		self := r.Rungs[k].self
		if self == nil {
			continue
		}
		cfg := self.cfg
		if accuracy.Check(&cfg) != nil {
			return nil
		}
		res, err := accuracy.Run(ctx, &cfg, accuracy.Options{Games: min(n, cfg.Games), Workers: opts.Workers})
		if err != nil {
			return fmt.Errorf("accuracy of the rung at %d: %w", r.Rungs[k].Budget, err)
		}
		a := res.All
		r.Rungs[k].Accuracy = &RungAccuracy{Games: res.Games, Decisions: a.Decisions, Accuracy: a.Accuracy,
			Low: a.Interval.Low, High: a.Interval.High, BlundersPerGame: a.BlundersPerGame,
			Varied: a.Varied, VariedKept: a.VariedKept, Unproven: a.Unproven}
	}
	return nil
}

// judged says whether any rung was judged against perfect play.
func (r *Result) judged() bool {
	for _, rung := range r.Rungs {
		if rung.Accuracy != nil {
			return true
		}
	}
	return false
}

// accuracyCell is a rung's accuracy in the table.
func accuracyCell(a *RungAccuracy) string {
	if a == nil {
		return "—"
	}
	return fmt.Sprintf("%s [%s]", reports.FormatPercent(a.Accuracy), reports.FormatInterval(a.Low, a.High))
}

// variedCell is a rung's varied decisions in the table.
func variedCell(a *RungAccuracy) string {
	if a == nil || a.Varied == 0 {
		return "—"
	}
	return fmt.Sprintf("%s of %d", reports.FormatPercent(float64(a.VariedKept)/float64(a.Varied)), a.Varied)
}

// accuracyLine says what the accuracy column counts.
func (r *Result) accuracyLine() string {
	if !r.judged() {
		return ""
	}
	games, unproven := 0, 0
	for _, rung := range r.Rungs {
		if a := rung.Accuracy; a != nil {
			games, unproven = a.Games, unproven+a.Unproven
		}
	}
	line := fmt.Sprintf("Accuracy: the share of the bots' decisions (both seats; the book's not judged, the noise moves apart) that keep the proven value, in the first %d self-play games of each rung, with 95%% intervals over games; noise kept: the same share of the decisions the bots' noise made (playtest accuracy gives blunders by kind and phase).", games)
	if unproven > 0 {
		line += fmt.Sprintf(" %d decisions were left unproven within the prover's bound.", unproven)
	}
	return line
}
