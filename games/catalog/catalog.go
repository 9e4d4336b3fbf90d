package catalog

import (
	"fmt"
	"slices"
	"strings"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/capturecard"
	"playtest/games/connect4"
	"playtest/games/mnk"
	"playtest/games/stacks"
	"playtest/games/stacktics"
)

// All lists every game's definition, in the order `playtest games` shows.
var All = []games.Definition{
	stacktics.Definition,
	capstone.Definition,
	stacks.Definition,
	capturecard.Definition,
	mnk.Definition,
	connect4.Definition,
}

// Lookup returns the definition of a game by its catalog name.
func Lookup(name string) (games.Definition, error) {
	for _, d := range All {
		if d.Name == name {
			return d, nil
		}
	}
	return games.Definition{}, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names returns the catalog names in order.
func Names() []string {
	names := make([]string, len(All))
	for i, d := range All {
		names[i] = d.Name
	}
	return slices.Clip(names)
}
