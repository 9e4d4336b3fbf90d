package variants

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/games"
	"playtest/games/script"
	"playtest/internal/bounded"
)

// MaxScriptBytes bounds a rules script's size.
const MaxScriptBytes = 1 << 20

// IsScript reports whether a game: value names a rules script (a path
// ending in .star) rather than a game of the catalog.
func IsScript(game string) bool { return strings.HasSuffix(game, ".star") }

// ScriptPath resolves a game: script path as written in file: from the
// working directory, else from the variant file's directory.
func ScriptPath(file, game string) string {
	if fileExists(game) || filepath.IsAbs(game) || file == "" || strings.HasPrefix(file, "preset ") {
		return game
	}
	if alt := filepath.Join(filepath.Dir(file), game); fileExists(alt) {
		return alt
	}
	return game
}

// loadScript loads the rules script a game: key names and defines its
// game.
func (d *decoder) loadScript(n *yaml.Node) (games.Definition, error) {
	path := ScriptPath(d.file, n.Value)
	src, err := bounded.ReadFile(path, MaxScriptBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return games.Definition{}, d.errorf(n, "game", "the rules script %s does not exist (a path from the working directory or from the variant file's directory)", n.Value)
		}
		return games.Definition{}, d.errorf(n, "game", "the rules script %s: %v", n.Value, err)
	}
	s, err := script.Load(path, src)
	if err != nil {
		return games.Definition{}, d.errorf(n, "game", "%v", err)
	}
	def, err := s.Definition()
	if err != nil {
		return games.Definition{}, d.errorf(n, "game", "%v", err)
	}
	return def, nil
}

// decodeKnobSet decodes a rules: mapping into rules whose knobs are
// declared at run time (a script's KNOBS).
func (d *decoder) decodeKnobSet(n *yaml.Node, ks games.KnobSet) error {
	ps, err := d.pairs(n, "rules")
	if err != nil {
		return err
	}
	var errs collect
	for _, p := range ps {
		name := p.key.Value
		if !slices.Contains(ks.KnobNames(), name) {
			errs.add(d.unknownKey(p.key, "rules", ks.KnobNames()))
			continue
		}
		var v any
		if err := resolve(p.value).Decode(&v); err != nil {
			errs.add(d.errorf(p.value, "rules."+name, "%v", err))
			continue
		}
		if err := ks.SetKnob(name, v); err != nil {
			var ke *games.KnobError
			if errors.As(err, &ke) {
				errs.add(d.errorf(p.value, "rules."+name, "%s", ke.Message))
			} else {
				errs.add(d.errorf(p.value, "rules."+name, "%v", err))
			}
		}
	}
	return errs.err()
}

// ScriptOf returns the rules script a variant plays, or nil for a game of
// the catalog.
func (c *Config) ScriptOf() *script.Script {
	if r, ok := c.Rules.(*script.Rules); ok {
		return r.Script()
	}
	return nil
}
