package cmd

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"playtest/internal/progress"
	"playtest/reports"
	"playtest/reports/plots"
	"playtest/studies/worth"
	"playtest/variants"
)

type worthOptions struct {
	restrict, forbid, sets []string
}

func newWorthCommand() *cobra.Command {
	var opts worthOptions
	c := &cobra.Command{
		Use:   "worth [STUDY|PRESET|FILE] [--restrict NAME] [--forbid REGEX]",
		Short: "What a mechanic is worth: the variant's bot against itself held to a restriction (restricted play)",
		Long: `Measure what each mechanic of a variant is worth by restricted play (Jaffe
et al. 2012): the variant's first player plays against itself held to a
restriction — one the game names (--restrict NAME: never swap under the pie
rule, never capture, never play a 4-card, a goal stacked without choosing
its order; playtest games GAME lists them) or a regular expression over the
move notation (--forbid REGEX: 'x' never captures in Stacktics) — at the
same budget, --games games a mechanic in seat-swapped pairs on the same
deals for every mechanic. A restriction holds in the restricted player's
moves and inside its own search; at a decision whose every legal move it
forbids it is lifted, and counted.

What the restricted player loses is the mechanic's worth: points of score
per game (½ less its score over pairs) and the Elo difference, with 95%
pentanomial intervals, and its score in each seat (the pie swap is seat
1's alone). Without --restrict or --forbid every restriction the game names
is measured. A STUDY is a worth study file (base:, set:, games:,
mechanics:) or the name of one embedded (configs/worth: one per game).
--out DIR writes worth.json, worth.md, worth.html and plots/worth.svg.`,
		Example: `  playtest worth stacktics-size2-mechanics
  playtest worth stacktics/size2 --restrict no-swap --forbid x --games 400
  playtest worth stacks/fourcards --restrict no-4-card --out worth/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runWorth(cmd, args, &opts) },
	}
	f := c.Flags()
	f.StringArrayVar(&opts.restrict, "restrict", nil, "a restriction the game names (repeatable)")
	f.StringArrayVar(&opts.forbid, "forbid", nil, "a regular expression over the move notation: never play a move it matches (repeatable)")
	f.Int("games", 200, "games per mechanic (even: seat-swapped pairs)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("format", "table", "output format: table or json")
	f.String("out", "", "also write DIR/worth.json, worth.md, worth.html and plots/worth.svg")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.pie_rule=true (repeatable)")
	return c
}

func runWorth(cmd *cobra.Command, args []string, opts *worthOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	out := v.GetString("out")
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	overrides, err := variantOverrides(cmd.Flags(), v, []string{"seed"}, opts.sets)
	if err != nil {
		return err
	}
	var study *worth.Study
	if len(args) > 0 {
		var found bool
		if study, found, err = worth.Find(args[0]); err != nil {
			return err
		} else if !found {
			study = nil
		}
	}
	if cmd.Flags().Changed("games") || study == nil {
		games, _ := cmd.Flags().GetInt("games")
		overrides = append(overrides, variants.Override{Path: "games", Value: fmt.Sprint(games), Origin: "--games"})
	}
	var cfg *variants.Config
	if study != nil {
		cfg, err = study.Config(overrides)
	} else {
		cfg, err = loadVariant(args, overrides)
	}
	if err != nil {
		return err
	}
	var mechanics []worth.Mechanic
	if study != nil {
		mechanics = study.Mechanics
	}
	g, err := cfg.NewGame()
	if err != nil {
		return err
	}
	named := worth.Named(g)
	var names []string
	for _, n := range named {
		names = append(names, n.Label)
	}
	for _, name := range opts.restrict {
		i := slices.IndexFunc(named, func(m worth.Mechanic) bool { return m.Label == name })
		if i < 0 {
			return usageErrorf("--restrict %s: unknown restriction%s; %s names: %s", name, variants.Suggestion(name, names), cfg.Definition.Name, strings.Join(names, ", "))
		}
		mechanics = append(mechanics, named[i])
	}
	for _, expr := range opts.forbid {
		mechanics = append(mechanics, worth.Forbid(expr))
	}
	if len(mechanics) == 0 {
		mechanics = named
	}
	for i := range mechanics { // a study file's named mechanics get the game's words
		for _, n := range named {
			if mechanics[i].Restrict.Name == n.Restrict.Name && mechanics[i].Restrict.Name != "" && mechanics[i].Doc == "" {
				mechanics[i].Doc = n.Doc
			}
		}
	}
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	if !v.GetBool("quiet") {
		rep = progress.New(cmd.ErrOrStderr(), progress.Auto, "worth", 0, len(mechanics)*cfg.Games)
	}
	res, err := worth.Run(cmd.Context(), cfg, mechanics, worth.Options{Workers: workers, OnGame: func() { rep.Add(1) }})
	rep.Close()
	if err != nil {
		return err
	}
	if out != "" {
		if err := writeWorth(out, res); err != nil {
			return err
		}
	}
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), res)
	}
	return res.WriteTable(cmd.OutOrStdout())
}

// writeWorth writes worth.json, .md, .html and the chart to out.
func writeWorth(out string, res *worth.Result) error {
	p, err := res.Figure()
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(out, filepath.Join(out, "plots")); err != nil {
		return err
	}
	if err := plots.Save(filepath.Join(out, "plots"), plots.Figure{Name: worth.PlotName, Plot: p}); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md, true); err != nil {
		return err
	}
	return writeReportFiles(out, "worth", "playtest worth: "+cmp.Or(res.Label, res.Variant), res, md.Bytes())
}
