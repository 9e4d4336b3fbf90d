package worth

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/configs"
	"playtest/sim/bots"
	"playtest/variants"
)

// Dir is the directory of the embedded worth studies in configs.
const Dir = "worth"

// Study is a decoded worth study file: a base variant (a preset or a
// file), settings over it, and the mechanics to measure.
type Study struct {
	// Source is the file's path, or "worth NAME" for an embedded one.
	Source      string
	Name        string
	Description string
	Base        string
	Games       int
	Seed        *uint64
	Set         []variants.Override
	Mechanics   []Mechanic
}

var (
	topKeys      = []string{"name", "description", "base", "games", "seed", "set", "mechanics"}
	mechanicKeys = []string{"name", "forbid", "label"}
)

// Names lists the embedded worth studies, sorted.
func Names() []string {
	var names []string
	_ = fs.WalkDir(configs.FS, Dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && path.Ext(p) == ".yaml" {
			names = append(names, strings.TrimSuffix(path.Base(p), ".yaml"))
		}
		return nil
	})
	slices.Sort(names)
	return names
}

// Find reads the worth study arg names: an embedded one (with or without
// "worth/") or a file whose top level has mechanics:. ok is false when arg
// names neither (a variant, then).
func Find(arg string) (s *Study, ok bool, err error) {
	name := strings.TrimSuffix(strings.TrimPrefix(arg, Dir+"/"), ".yaml")
	if text, err := configs.FS.ReadFile(Dir + "/" + name + ".yaml"); err == nil {
		s, err := Parse("worth "+name, text)
		return s, true, err
	}
	info, err := os.Stat(arg)
	if err != nil || info.IsDir() {
		return nil, false, nil
	}
	text, err := variants.ReadFile(arg)
	if err != nil {
		return nil, false, err
	}
	doc, err := variants.OneDocument(arg, text)
	if err != nil || len(doc.Content) == 0 || !hasKey(doc.Content[0], "mechanics") {
		return nil, false, nil // a variant file: its loader reports its errors
	}
	s, err = Parse(arg, text)
	return s, true, err
}

func hasKey(n *yaml.Node, key string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// Parse decodes a worth study strictly: unknown keys, wrong types, a
// mechanic with neither or both of name: and forbid: are errors naming the
// file, line and key.
func Parse(file string, text []byte) (*Study, error) {
	doc, err := variants.OneDocument(file, text)
	if err != nil {
		return nil, err
	}
	errorf := func(n *yaml.Node, key, format string, args ...any) error {
		return &variants.Error{File: file, Line: n.Line, Key: key, Message: fmt.Sprintf(format, args...)}
	}
	if len(doc.Content) == 0 {
		return nil, &variants.Error{File: file, Message: "the file is empty: a worth study needs base: and mechanics:"}
	}
	root := doc.Content[0]
	s := &Study{Source: file, Name: strings.TrimPrefix(strings.TrimSuffix(path.Base(file), ".yaml"), "worth ")}
	str := func(v *yaml.Node, key string) (string, error) {
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			return "", errorf(v, key, "want a non-empty string, got %s", variants.Describe(v))
		}
		return v.Value, nil
	}
	err = mapping(root, "", topKeys, errorf, func(key string, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			s.Name, err = str(v, key)
		case "description":
			s.Description, err = str(v, key)
		case "base":
			s.Base, err = str(v, key)
		case "games":
			if s.Games, err = strconv.Atoi(v.Value); err != nil || v.Kind != yaml.ScalarNode || s.Games < 2 || s.Games%2 != 0 || s.Games > variants.MaxGames {
				err = errorf(v, key, "want an even number of games from 2 to %d, got %s", variants.MaxGames, variants.Describe(v))
			}
		case "seed":
			n, perr := strconv.ParseUint(v.Value, 0, 64)
			if perr != nil || v.Kind != yaml.ScalarNode {
				return errorf(v, key, "want a whole number ≥ 0, got %s", variants.Describe(v))
			}
			s.Seed = &n
		case "set":
			err = mapping(v, key, nil, errorf, func(k string, val *yaml.Node) error {
				text, err := yaml.Marshal(val)
				if err != nil {
					return errorf(val, key+"."+k, "%v", err)
				}
				s.Set = append(s.Set, variants.Override{Path: k, Value: strings.TrimSpace(string(text)), Origin: fmt.Sprintf("%s:%d set.%s", file, val.Line, k)})
				return nil
			})
		case "mechanics":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return errorf(v, key, "want a list of mechanics, each {name: RESTRICTION} or {forbid: REGEX}")
			}
			for i, item := range v.Content {
				at := fmt.Sprintf("mechanics[%d]", i)
				var m Mechanic
				if err := mapping(item, at, mechanicKeys, errorf, func(k string, val *yaml.Node) error {
					text, err := str(val, at+"."+k)
					switch k {
					case "name":
						m.Restrict.Name = text
					case "forbid":
						m.Restrict.Forbid = text
					case "label":
						m.Label = text
					}
					return err
				}); err != nil {
					return err
				}
				if (m.Restrict.Name == "") == (m.Restrict.Forbid == "") {
					return errorf(item, at, "want name: (a restriction the game names) or forbid: (a regular expression), one of them")
				}
				if m.Label == "" {
					m.Label = bots.Restrict{Name: m.Restrict.Name, Forbid: m.Restrict.Forbid}.String()
				}
				s.Mechanics = append(s.Mechanics, m)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.Base == "" {
		return nil, errorf(root, "base", "is required: the preset or variant file whose mechanics are measured")
	}
	if s.Mechanics == nil {
		return nil, errorf(root, "mechanics", "is required: a list of {name: RESTRICTION} or {forbid: REGEX}")
	}
	return s, nil
}

// mapping calls f for each key of mapping n in order; known, if not nil,
// lists the allowed keys.
func mapping(n *yaml.Node, path string, known []string, errorf func(*yaml.Node, string, string, ...any) error, f func(key string, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return errorf(n, path, "want a mapping, got %s", variants.Describe(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		full := k.Value
		if path != "" {
			full = path + "." + k.Value
		}
		if known != nil && !slices.Contains(known, k.Value) {
			return errorf(k, full, "unknown key%s; known keys: %s", variants.Suggestion(k.Value, known), strings.Join(known, ", "))
		}
		if seen[k.Value] {
			return errorf(k, full, "appears twice")
		}
		seen[k.Value] = true
		if err := f(k.Value, v); err != nil {
			return err
		}
	}
	return nil
}

// Config loads the study's base variant with its settings, games and seed,
// and the command line's overrides (applied after the study's, so they
// win).
func (s *Study) Config(overrides []variants.Override) (*variants.Config, error) {
	own := slices.Clone(s.Set)
	if s.Games > 0 {
		own = append(own, variants.Override{Path: "games", Value: strconv.Itoa(s.Games), Origin: s.Source + " games"})
	}
	if s.Seed != nil {
		own = append(own, variants.Override{Path: "seed", Value: strconv.FormatUint(*s.Seed, 10), Origin: s.Source + " seed"})
	}
	return variants.Load(s.Base, append(own, overrides...))
}
