package skill

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"playtest/internal/shell"
	"playtest/reports"
	"playtest/sim/bots"
	"playtest/studies/study"
	"playtest/variants"
)

// FamiliesSchema is the schema tag of a ladder per bot family.
const FamiliesSchema = "playtest/skill-families/v1"

// Families is one ladder per bot family on the same seeds, and whether
// their top rungs agree.
type Families struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	// Label names the variant with what --set changed in its rules.
	Label string `json:"label,omitempty"`
	// Names names the families: the bot, numbered when both are the
	// same bot with different parameters.
	Names   []string  `json:"names"`
	Ladders []*Result `json:"ladders"`
	// Shift is the second family's top rung's seat-0 figure minus the
	// first's, paired deal by deal (the ladders play the same deals).
	Shift *Shift `json:"shift,omitempty"`
	// Common is the games a rung the top rungs are compared over when the
	// two kept ladders play different numbers (0: all of them): the
	// first Common games of the larger are the smaller's deals.
	Common int `json:"common,omitempty"`
	// Agreement is agree, disagree or undecided; Text says it in words.
	Agreement string `json:"agreement"`
	Text      string `json:"text"`
	// ProjectedGames, where the comparison is undecided, is about how
	// many games a rung both ladders' top rungs would need to show the
	// difference within the tolerance were its estimate to hold; 0 where
	// none would, or for any other agreement.
	ProjectedGames int `json:"projected_games,omitempty"`
}

// Agreements of two families' top rungs (or Undecided).
const (
	Agree    = "agree"
	Disagree = "disagree"
)

// RunFamilies climbs a ladder for each bot family (the players of every
// rung are the family's bot, with the family's own parameters and
// budgets; the time allowance is shared), all on cfg's seeds, and
// compares their top rungs: they agree when the paired shift between them
// is shown within the tolerance, disagree when it leaves 0 out, and are
// undecided otherwise. An answer two kinds of player reach is worth more
// than one.
func RunFamilies(ctx context.Context, cfg *variants.Config, families []bots.Spec, opts Options) (*Families, error) {
	if err := ValidateFamilies(cfg, families, opts); err != nil {
		return nil, err
	}
	// The two ladders share the time allowance.
	opts.MaxTime = max(cmp.Or(opts.MaxTime, DefaultMaxTime)/time.Duration(len(families)), 1)
	out := &Families{Schema: FamiliesSchema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Names: familyNames(families)}
	for _, f := range families {
		c := *cfg
		c.Players = [2]bots.Spec{f, f}
		res, err := Run(ctx, &c, opts)
		if err != nil {
			return nil, fmt.Errorf("family %s: %w", f.Describe(), err)
		}
		out.Ladders = append(out.Ladders, res)
	}
	out.compare(out.tops(), cmp.Or(opts.Tolerance, DefaultTolerance))
	return out, nil
}

// CompareKept compares the top rungs of two finished ladders kept in
// dirs (each fixed in advance and played with --out, resumed or merged
// from shards as its own study), as RunFamilies compares its two: a long
// ladder per family can then be played, stopped and resumed on its own.
// Both must play the same deals: the same game, rules, seed, pairs, book
// and opening, whatever their bots. Where they play different numbers of
// games a rung, the top rungs are compared over the smaller's: game i
// depends only on the seed and i, so the larger's first games are the
// same deals (Common).
func CompareKept(dirs []string, tol float64) (*Families, error) {
	if len(dirs) != 2 {
		return nil, study.BadInputf("--compare: give two ladder directories (got %d)", len(dirs))
	}
	if a, errA := os.Stat(filepath.Join(dirs[0], study.ManifestFile)); errA == nil {
		if b, errB := os.Stat(filepath.Join(dirs[1], study.ManifestFile)); errB == nil && os.SameFile(a, b) {
			return nil, study.BadInputf("--compare: %s and %s are the same ladder; give the directories of two families' ladders", dirs[0], dirs[1])
		}
	}
	out := &Families{Schema: FamiliesSchema}
	var specs []bots.Spec
	var deals, sized [2]string
	for i, dir := range dirs {
		m, err := study.Read(dir)
		if err != nil {
			return nil, err
		}
		switch {
		case m.Kind != Kind:
			return nil, study.BadInputf("--compare %s: it holds a %s, not a skill ladder", dir, m.Kind)
		case m.Shard.Count > 0:
			return nil, study.BadInputf("--compare %s: it holds shard %v of a ladder; assemble the shards with playtest merge first", dir, m.Shard)
		case !m.Finished: // a ladder's pending record too
			return nil, study.BadInputf("--compare %s: the ladder is not finished; continue it with playtest skill --resume --out %s", dir, shell.Quote(dir))
		}
		res, err := readKept(dir, m)
		if err != nil {
			return nil, fmt.Errorf("--compare %s: %w", dir, err)
		}
		c := res.Rungs[len(res.Rungs)-1].self.cfg
		specs = append(specs, c.Players[0])
		c.Players = [2]bots.Spec{}
		deals[i] = c.Hash()
		c.Games = 0
		sized[i] = c.Hash()
		out.Ladders = append(out.Ladders, res)
	}
	a, b := out.Ladders[0], out.Ladders[1]
	tops := out.tops()
	if deals[0] != deals[1] && sized[0] == sized[1] {
		out.Common = min(a.Games, b.Games)
		for i, l := range out.Ladders {
			if l.Games > out.Common {
				top, err := topOver(dirs[i], l, out.Common)
				if err != nil {
					return nil, fmt.Errorf("--compare %s: %w", dirs[i], err)
				}
				tops[i] = top
			}
		}
	} else if deals[0] != deals[1] {
		return nil, study.BadInputf("--compare: %s and %s do not play the same deals (%s, seed %d, %d games against %s, seed %d, %d games, or other rules, book or opening): their top rungs cannot be paired",
			dirs[0], dirs[1], cmp.Or(a.Label, a.Variant), a.Seed, a.Games, cmp.Or(b.Label, b.Variant), b.Seed, b.Games)
	}
	out.Game, out.Variant, out.Label = a.Game, a.Variant, a.Label
	out.Names = familyNames(specs)
	out.compare(tops, cmp.Or(tol, DefaultTolerance))
	return out, nil
}

// tops is each ladder's top rung.
func (f *Families) tops() [2]Rung {
	a, b := f.Ladders[0], f.Ladders[1]
	return [2]Rung{a.Rungs[len(a.Rungs)-1], b.Rungs[len(b.Rungs)-1]}
}

// topOver is the top rung of the ladder l kept in dir read again over its
// first n games: the deals a ladder of fewer games a rung plays.
func topOver(dir string, l *Result, n int) (Rung, error) {
	k := len(l.Rungs) - 1
	top := l.Rungs[k]
	cfg := top.self.cfg
	cfg.Games = n
	s, err := newSeries(&cfg, top.self.name, top.self.rung, top.self.budget, false)
	if err != nil {
		return Rung{}, err
	}
	if err := s.loadFirst(filepath.Join(dir, unitDir(k, s)), l.Games); err != nil {
		return Rung{}, err
	}
	r := Rung{Budget: top.Budget, Preset: top.Preset, self: s}
	return r, r.refresh()
}

// ValidateFamilies checks, before any game, that there are two families
// and each can climb a ladder of cfg; a fixed ladder (opts.Budgets) needs
// both families to count their budget in the same unit.
func ValidateFamilies(cfg *variants.Config, families []bots.Spec, opts Options) error {
	if len(families) != 2 {
		return fmt.Errorf("--family: give two bot families to compare (got %d)", len(families))
	}
	units := [2]string{}
	for i, f := range families {
		if f.Weak() {
			return fmt.Errorf("--family %s: a family climbs a ladder of its own search budget, and %s has none: give search bots (mcts, ismcts, alphabeta)", f.Bot, f.Bot)
		}
		units[i], _, _ = f.Budget()
	}
	if len(opts.Budgets) > 0 && units[0] != units[1] {
		return fmt.Errorf("--budgets with --family: the families' budgets are in different units (%s and %s); leave --budgets out and each family climbs its own default ladder", units[0], units[1])
	}
	for _, f := range families {
		c := *cfg
		c.Players = [2]bots.Spec{f, f}
		if err := Validate(&c, opts); err != nil {
			return fmt.Errorf("--family %s: %w", f.Describe(), err)
		}
	}
	return nil
}

// compare judges the two ladders' top rungs, tops (over their common
// games when the ladders play different numbers).
func (f *Families) compare(tops [2]Rung, tol float64) {
	a, b := f.Ladders[0], f.Ladders[1]
	ta, tb := tops[0], tops[1]
	f.Shift, f.ProjectedGames = shiftTo(tb, ta), 0
	both := fmt.Sprintf("the %s ladder ends at %s (%s), the %s ladder at %s (%s)",
		f.Names[0], a.figure(ta), a.Verdict, f.Names[1], b.figure(tb), b.Verdict)
	if f.Common > 0 {
		larger := 0
		if b.Games > a.Games {
			larger = 1
		}
		both += fmt.Sprintf(", each top rung read over its first %s games, the deals both ladders play (the %s ladder plays %s a rung)",
			bots.Thousands(f.Common), f.Names[larger], bots.Thousands(f.Ladders[larger].Games))
	}
	switch s := f.Shift; {
	case a.topEndsInProof() && b.topEndsInProof():
		f.Agreement = Agree
		f.Text = fmt.Sprintf("The two families agree on the proven value: %s, and every game of both ladders' top two rungs ended in the %s playtest solve proves, whatever the intervals (a difference of %s).", both, a.Proven.Value, points(s))
	case s.Low >= -tol && s.High <= tol:
		f.Agreement = Agree
		f.Text = fmt.Sprintf("The two families agree: %s, a difference of %s, shown within ±%.0f points.", both, points(s), 100*tol)
		if a.Verdict == Converged && b.Verdict == Converged {
			f.Text += " Both ladders converged: two kinds of player reach the same answer."
		} else {
			f.Text += " A ladder that has not converged may still move: the agreement holds at these budgets."
		}
	case s.moves():
		f.Agreement = Disagree
		f.Text = fmt.Sprintf("The two families disagree: %s, a difference of %s. At least one of them is not yet playing the game's answer.", both, points(s))
	default:
		f.Agreement = Undecided
		f.Text = fmt.Sprintf("Undecided: %s, a difference of %s, neither shown within ±%.0f points nor apart: play more games per rung (two ladders kept with --out grow with playtest skill --resume --out DIR --games N on each, playing only the new games).", both, points(s), 100*tol)
		var more string
		f.ProjectedGames, more = projection(s, cmp.Or(f.Common, min(ta.Games, tb.Games)), tol)
		f.Text += more
	}
}

// WriteTable prints each ladder, then the comparison.
func (f *Families) WriteTable(w io.Writer) error {
	for _, l := range f.Ladders {
		if err := l.WriteTable(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w, f.Text)
	return err
}

// WriteJSON writes the ladders and the comparison as indented JSON.
func (f *Families) WriteJSON(w io.Writer) error { return reports.WriteJSON(w, f) }

// WriteDir writes each family's ladder into dir/FAMILY (as a ladder's
// --out does) and the comparison as families.json and families.md.
func (f *Families) WriteDir(dir string) error {
	for i, l := range f.Ladders {
		if err := l.WriteDir(filepath.Join(dir, fmt.Sprintf("%d-%s", i+1, dirName(f.Names[i])))); err != nil {
			return err
		}
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, "families.json"), f.WriteJSON); err != nil {
		return err
	}
	return reports.WriteFileAtomic(filepath.Join(dir, "families.md"), func(w io.Writer) error {
		fmt.Fprintf(w, "# Skill ladders by bot family: %s (%s)\n\n%s\n", reports.MarkdownEscape(cmp.Or(f.Label, f.Variant)), reports.MarkdownEscape(f.Game), reports.MarkdownText(f.Text))
		return reports.WriteMarkdownFooter(w)
	})
}

// familyNames names each family by its bot, numbered when the two are
// the same bot.
func familyNames(families []bots.Spec) []string {
	names := make([]string, len(families))
	for i, f := range families {
		names[i] = f.Bot
		if families[0].Bot == families[len(families)-1].Bot {
			names[i] = fmt.Sprintf("%s (family %d)", f.Bot, i+1)
		}
	}
	return names
}

// dirName makes a directory name of a family's name: "mcts (family 1)"
// becomes "mcts--family-1".
func dirName(name string) string {
	return strings.Trim(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(name)), "-")
}
