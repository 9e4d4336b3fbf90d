package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"playtest/games"
	"playtest/games/catalog"
	"playtest/sim/bots"
	"playtest/studies/sweep"
	"playtest/studies/worth"
	"playtest/variants"
)

func newGamesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "games [GAME]",
		Short: "List the games, their presets, every rules knob and the bots",
		Long: `List every game playtest plays with its presets (runnable by name) and every
rules knob with its default and meaning, the figures its games report (the
metrics tables and reports show, and check can bound), then the bots and their
parameters, and the shipped sweeps (playtest sweep NAME) and tune spaces
(playtest tune NAME). With a game's name, list only that game and its
sweeps and spaces.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			defs := catalog.All
			if len(args) == 1 {
				d, err := catalog.Lookup(args[0])
				if err != nil {
					return usageError{err}
				}
				defs = []games.Definition{d}
			}
			w := cmd.OutOrStdout()
			for _, d := range defs {
				if err := describeGame(w, d); err != nil {
					return err
				}
			}
			game := ""
			if len(args) == 1 {
				game = defs[0].Name
			}
			if err := describeSpaces(w, game); err != nil {
				return err
			}
			describeBots(w)
			return nil
		},
	}
}

func describeGame(w io.Writer, d games.Definition) error {
	fmt.Fprintf(w, "%s — %s\n  %s\n\n  presets (playtest run NAME):\n", d.Name, d.Title, d.Summary)
	for _, name := range variants.Presets() {
		if !strings.HasPrefix(name, d.Name+"/") {
			continue
		}
		desc := ""
		if cfg, err := variants.Load(name, nil); err == nil {
			desc = cfg.Description
		} else {
			return fmt.Errorf("preset %s is broken: %v", name, err)
		}
		fmt.Fprintf(w, "    %-24s %s\n", name, desc)
	}
	fmt.Fprintf(w, "\n  rules knobs (under rules:):\n")
	writeKnobs(w, games.Knobs(d.NewRules()))
	if len(d.Metrics) > 0 {
		fmt.Fprintf(w, "\n  figures each game reports (seatN: one per seat, seat0 and seat1):\n")
		width := 0
		for _, m := range d.Metrics {
			width = max(width, len(m.Name))
		}
		for _, m := range d.Metrics {
			fmt.Fprintf(w, "    %-*s %s\n", width, strings.ReplaceAll(m.Name, "seat*", "seatN"), m.Doc)
		}
	}
	if f, ok := newGameOf(d).(games.Featurer); ok {
		fmt.Fprintf(w, "\n  features of a position from one seat's view (playtest learn):\n")
		width := 0
		for _, x := range f.Features() {
			width = max(width, len(x.Name))
		}
		for _, x := range f.Features() {
			fmt.Fprintf(w, "    %-*s %s\n", width, x.Name, x.Doc)
		}
	}
	if r, ok := newGameOf(d).(games.Restricter); ok {
		fmt.Fprintf(w, "\n  restrictions a player may be held to (restrict: {name: NAME}; playtest worth):\n")
		width := 0
		for _, x := range r.Restrictions() {
			width = max(width, len(x.Name))
		}
		for _, x := range r.Restrictions() {
			fmt.Fprintf(w, "    %-*s %s\n", width, x.Name, x.Doc)
		}
	}
	fmt.Fprintln(w)
	return nil
}

// newGameOf is the game of d's default rules (nil if they do not build
// one).
func newGameOf(d games.Definition) games.Game {
	g, err := d.NewRules().NewGame()
	if err != nil {
		return nil
	}
	return g
}

// describeSpaces lists the embedded sweeps and tune spaces, each with its
// description: those of game's variants only, unless game is "".
func describeSpaces(w io.Writer, game string) error {
	var studies []string
	for _, name := range worth.Names() {
		st, _, err := worth.Find(name)
		if err != nil {
			return fmt.Errorf("worth study %s is broken: %v", name, err)
		}
		cfg, err := st.Config(nil)
		if err != nil {
			return fmt.Errorf("worth study %s is broken: %v", name, err)
		}
		if game == "" || cfg.Definition.Name == game {
			studies = append(studies, fmt.Sprintf("  %-28s %s (%d mechanics)\n", name, st.Description, len(st.Mechanics)))
		}
	}
	if len(studies) > 0 {
		fmt.Fprintf(w, "worth studies (playtest worth NAME)\n%s\n", strings.Join(studies, ""))
	}
	for _, kind := range []struct{ dir, title string }{
		{sweep.Dir, "sweeps (playtest sweep NAME)"},
		{"tunes", "tune spaces (playtest tune NAME)"},
	} {
		var lines []string
		for _, name := range sweep.NamesIn(kind.dir) {
			sw, err := sweep.LoadIn(name, kind.dir)
			if err != nil {
				return fmt.Errorf("%s %s is broken: %v", kind.dir, name, err)
			}
			cfgs, _, _, err := sw.Variants(nil)
			if err != nil || len(cfgs) == 0 {
				return fmt.Errorf("%s %s is broken: %v", kind.dir, name, err)
			}
			if game != "" && cfgs[0].Definition.Name != game {
				continue
			}
			lines = append(lines, fmt.Sprintf("  %-28s %s (%d variants)\n", name, sw.Description, len(cfgs)))
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "%s\n%s\n", kind.title, strings.Join(lines, ""))
		}
	}
	return nil
}

func describeBots(w io.Writer) {
	fmt.Fprintf(w, "bots (under players:, one entry per player)\n")
	for _, d := range bots.All {
		fmt.Fprintf(w, "  %-10s %s\n", d.Name, d.Summary)
		if knobs := games.Knobs(d.NewParams()); len(knobs) > 0 {
			writeKnobs(w, knobs)
		}
	}
}

func writeKnobs(w io.Writer, knobs []games.Knob) {
	width := 14
	for _, k := range knobs {
		width = max(width, len(k.Name))
	}
	for _, k := range knobs {
		fmt.Fprintf(w, "    %-*s %s\n", width, k.Name, k.Doc)
		if k.Default == "" {
			fmt.Fprintf(w, "    %-*s type: %s\n", width, "", k.Type)
			continue
		}
		fmt.Fprintf(w, "    %-*s type: %s; default: %s\n", width, "", k.Type, k.Default)
	}
}
