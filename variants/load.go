package variants

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/configs"
	"playtest/internal/bounded"
	"playtest/sim/bots"
)

// DefaultPreset is the variant run when no preset or file is named.
const DefaultPreset = "stacktics/size3"

// Override is one key=value change applied to a variant before decoding.
type Override struct {
	// Path is the dotted key, e.g. "rules.pie_rule" or "players.0.bot".
	Path string `json:"path"`
	// Value is YAML text, e.g. "false", "[0, 2]" or "{rows: 5, cols: 3}".
	Value string `json:"value"`
	// Origin names where the override came from, e.g. "--set
	// rules.pie_rule=false" or "--games".
	Origin string `json:"origin"`
}

// ParseSets reads --set arguments in order.
func ParseSets(args []string) ([]Override, error) {
	out := make([]Override, 0, len(args))
	for _, arg := range args {
		o, err := ParseSet(arg)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// ParseSet reads a --set argument of the form key=value.
func ParseSet(arg string) (Override, error) {
	key, value, ok := strings.Cut(arg, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return Override{}, fmt.Errorf("--set %s: want key=value, e.g. --set rules.pie_rule=false", arg)
	}
	return Override{Path: key, Value: value, Origin: "--set " + arg}, nil
}

// notPresets are the embedded directories of sweep files (sweeps, and the
// spaces tune races), worth studies and models, which are not presets.
var notPresets = []string{"sweeps", "tunes", "models", "worth", "scripts"}

// Presets lists the names of the embedded presets, sorted.
func Presets() []string {
	var names []string
	_ = fs.WalkDir(configs.FS, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.IsDir() && slices.Contains(notPresets, p) {
			return fs.SkipDir
		}
		if err == nil && !e.IsDir() && path.Ext(p) == ".yaml" {
			names = append(names, strings.TrimSuffix(p, ".yaml"))
		}
		return nil
	})
	slices.Sort(names)
	return names
}

// presetName resolves a preset's full name (capstone/threestone) or, when
// it is unambiguous, its short name (threestone).
func presetName(arg string) (string, bool) {
	var found []string
	for _, name := range Presets() {
		if name == arg {
			return name, true
		}
		if path.Base(name) == arg {
			found = append(found, name)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// PresetText returns the YAML text of an embedded preset.
func PresetText(name string) ([]byte, error) {
	return configs.FS.ReadFile(name + ".yaml")
}

// MaxFileSize is the largest variant or sweep file read: they are a few
// lines of YAML, and a bound keeps a wrong path (/dev/zero, a log) from
// filling the memory.
const MaxFileSize = 1 << 20

// ReadFile reads a variant or sweep file, refusing one over MaxFileSize
// with an *Error naming it.
func ReadFile(path string) ([]byte, error) {
	text, err := bounded.ReadFile(path, MaxFileSize)
	var large *bounded.ErrTooLarge
	switch {
	case errors.As(err, &large):
		return nil, &Error{File: path, Message: "larger than 1 MiB: not a variant or sweep file (those are a few lines of YAML)"}
	case err != nil:
		return nil, &Error{File: path, Message: err.Error()}
	}
	return text, nil
}

// Load reads the variant named by arg, an embedded preset name (full, as
// capstone/threestone, or short when unambiguous, as threestone) or a file
// path (an existing file wins), applies the overrides, and decodes and
// validates it. An empty arg loads DefaultPreset. A directory does not
// hide a preset of its name (a run's --out named after it, say).
func Load(arg string, overrides []Override) (*Config, error) {
	if arg == "" {
		arg = DefaultPreset
	}
	info, err := os.Stat(arg)
	if err == nil && !info.IsDir() {
		text, err := ReadFile(arg)
		if err != nil {
			return nil, err
		}
		base := strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg))
		return Parse(arg, base, text, overrides)
	}
	if name, ok := presetName(arg); ok {
		text, err := PresetText(name)
		if err != nil {
			return nil, &Error{File: "preset " + name, Message: err.Error()}
		}
		return Parse("preset "+name, name, text, overrides)
	}
	if c := candidates(arg); len(c) > 1 {
		return nil, &Error{File: arg, Message: fmt.Sprintf("no such file, and several presets start with it: %s; name one", strings.Join(c, ", "))}
	}
	msg := "no such file, and no preset of that name"
	if err == nil {
		msg = "a directory, not a variant file, and no preset of that name"
	}
	if s := SuggestPreset(arg); s != "" {
		msg += fmt.Sprintf(" (did you mean preset %q?)", s)
	}
	msg += "; presets: " + strings.Join(Presets(), ", ")
	return nil, &Error{File: arg, Message: msg}
}

// IsPreset reports whether arg names a preset, in full or by its short
// name when unambiguous.
func IsPreset(arg string) bool {
	_, ok := presetName(arg)
	return ok
}

// SuggestPreset is the preset arg may have meant (a misspelt full or short
// name: size22 for stacktics/size2), or "".
func SuggestPreset(arg string) string {
	if s := Suggest(arg, Presets()); s != "" {
		return s
	}
	if c := candidates(arg); len(c) == 1 {
		return c[0]
	}
	// A short name misspelt: suggested among the short names that name
	// one preset alone.
	byShort := map[string]string{}
	var shorts []string
	for _, name := range Presets() {
		short := path.Base(name)
		if _, dup := byShort[short]; dup {
			byShort[short] = ""
			continue
		}
		byShort[short] = name
		shorts = append(shorts, short)
	}
	if s := Suggest(arg, shorts); s != "" && byShort[s] != "" {
		return byShort[s]
	}
	return ""
}

// candidates lists the presets whose full or short name starts with arg.
func candidates(arg string) []string {
	var out []string
	if arg == "" {
		return nil
	}
	for _, name := range Presets() {
		if strings.HasPrefix(name, arg) || strings.HasPrefix(path.Base(name), arg) {
			out = append(out, name)
		}
	}
	return out
}

// Parse decodes variant text read from file (a path or a preset's name);
// defaultName is the variant's name when the text has no name: key.
func Parse(file, defaultName string, text []byte, overrides []Override) (*Config, error) {
	d := &decoder{file: file, origin: map[*yaml.Node]string{}}
	doc, err := OneDocument(file, text)
	if err != nil {
		return nil, err
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode}
	}
	for _, o := range overrides {
		if err := d.apply(&doc, o); err != nil {
			return nil, err
		}
	}
	c, err := d.decodeConfig(&doc, defaultName)
	if err != nil {
		return nil, err
	}
	c.DefaultName, c.Text, c.Overrides = defaultName, text, slices.Clip(overrides)
	return c, nil
}

// OneDocument parses YAML text read from file that must hold one document:
// a syntax error, or a second document after "---" (which would otherwise
// be ignored without a word), is an *Error naming the line.
func OneDocument(file string, text []byte) (yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return doc, syntaxError(file, text, err)
	}
	for {
		var next yaml.Node
		switch err := dec.Decode(&next); {
		case errors.Is(err, io.EOF):
			return doc, nil
		case err != nil:
			return doc, syntaxError(file, text, err)
		case len(next.Content) > 0 && next.Content[0].Tag != "!!null":
			return doc, &Error{File: file, Line: next.Content[0].Line,
				Message: `a second YAML document (after "---"): a file holds one; remove it, or put it in a file of its own`}
		}
	}
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a YAML parser error into an *Error with its line, and
// a hint when a tab is the likely cause.
func syntaxError(file string, text []byte, err error) *Error {
	msg := err.Error()
	e := &Error{File: file, Message: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Message = "invalid YAML: " + m[2]
	}
	if tab := tabLine(text, e.Line); tab > 0 {
		e.Message += fmt.Sprintf(" (line %d indents with a tab: YAML indents with spaces only)", tab)
	}
	return e
}

// tabLine returns the line (1-based) of the first tab in a line's
// indentation, looking at line and the lines around it (the parser often
// reports the line before); 0 if none.
func tabLine(text []byte, line int) int {
	lines := strings.Split(string(text), "\n")
	for _, l := range []int{line, line + 1, line - 1} {
		if l >= 1 && l <= len(lines) {
			indent := lines[l-1][:len(lines[l-1])-len(strings.TrimLeft(lines[l-1], " \t"))]
			if strings.Contains(indent, "\t") {
				return l
			}
		}
	}
	if line == 0 {
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "\t") {
				return i + 1
			}
		}
	}
	return 0
}

// apply sets one override in the document tree, creating the mappings (and
// the default players list) it needs.
func (d *decoder) apply(doc *yaml.Node, o Override) error {
	fail := func(format string, args ...any) error {
		return &Error{File: d.file, Override: o.Origin, Key: o.Path, Message: fmt.Sprintf(format, args...)}
	}
	var value yaml.Node
	if err := yaml.Unmarshal([]byte(o.Value), &value); err != nil {
		return fail("value %q is not valid YAML: %v", o.Value, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	newNode := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ""}
	if len(value.Content) > 0 {
		newNode = value.Content[0]
	}
	d.markOrigin(newNode, o.Origin)

	if len(doc.Content) == 0 {
		doc.Kind = yaml.DocumentNode
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode}}
	}
	n := doc.Content[0]
	segments := strings.Split(o.Path, ".")
	if len(segments) > 1 && segments[0] == "players" && segments[1] == EverySeat {
		return d.applyEverySeat(doc, o, segments[2:], fail)
	}
	for i, seg := range segments {
		last := i == len(segments)-1
		n = resolve(n)
		// A number indexes a list; in a mapping it is a key (STACKS' cards).
		afterPlayers := i > 0 && segments[i-1] == "players"
		if idx, err := strconv.Atoi(seg); err == nil && (n.Kind == yaml.SequenceNode || afterPlayers) {
			if n.Kind == yaml.ScalarNode && isNull(n) && afterPlayers {
				*n = *defaultPlayersNode()
			}
			if n.Kind != yaml.SequenceNode {
				return fail("%s is not a list", strings.Join(segments[:i], "."))
			}
			if idx < 0 || idx >= len(n.Content) {
				return fail("index %d is out of range (the list has %d entries)", idx, len(n.Content))
			}
			if last {
				n.Content[idx] = newNode
				return nil
			}
			if item := resolve(n.Content[idx]); item.Kind == yaml.ScalarNode && !isNull(item) {
				// A bare bot name becomes {bot: name} so a parameter can be set.
				n.Content[idx] = &yaml.Node{Kind: yaml.MappingNode, Line: item.Line, Content: []*yaml.Node{
					{Kind: yaml.ScalarNode, Tag: "!!str", Value: "bot", Line: item.Line}, item}}
			}
			n = n.Content[idx]
			continue
		}
		if n.Kind == yaml.ScalarNode && isNull(n) {
			n.Kind, n.Tag, n.Value = yaml.MappingNode, "", ""
		}
		if n.Kind != yaml.MappingNode {
			return fail("%s is not a mapping", strings.Join(segments[:i], "."))
		}
		var child *yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == seg {
				if last {
					n.Content[j+1] = newNode
					d.markOrigin(n.Content[j], o.Origin)
					return nil
				}
				child = n.Content[j+1]
				break
			}
		}
		if child == nil {
			key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg}
			d.markOrigin(key, o.Origin)
			if last {
				child = newNode
			} else if seg == "players" && i == 0 {
				child = defaultPlayersNode()
			} else {
				child = &yaml.Node{Kind: yaml.MappingNode}
				d.markOrigin(child, o.Origin)
			}
			n.Content = append(n.Content, key, child)
			if last {
				return nil
			}
		}
		n = child
	}
	return nil
}

// EverySeat, as the players' index of a --set key (players.N.nodes=8000),
// sets the key of every player.
const EverySeat = "N"

// applyEverySeat applies o to each player of doc in turn, as players.0,
// players.1 and so on for rest (the key's segments past players.N).
func (d *decoder) applyEverySeat(doc *yaml.Node, o Override, rest []string, fail func(string, ...any) error) error {
	seats := 2 // the default players: list
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode && !isNull(root) {
		return fail("the variant is not a mapping")
	}
	for j := 0; j+1 < len(root.Content); j += 2 {
		if root.Content[j].Value != "players" {
			continue
		}
		switch players := resolve(root.Content[j+1]); {
		case players.Kind == yaml.SequenceNode:
			seats = len(players.Content)
		case !isNull(players):
			return fail("players is not a list")
		}
	}
	for seat := range seats {
		one := o
		one.Path = strings.Join(append([]string{"players", strconv.Itoa(seat)}, rest...), ".")
		if err := d.apply(doc, one); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) markOrigin(n *yaml.Node, origin string) {
	d.origin[n] = origin
	for _, c := range n.Content {
		d.markOrigin(c, origin)
	}
}

// defaultPlayersNode is the players: list a file without one gets.
func defaultPlayersNode() *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for range 2 {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: DefaultBot})
	}
	return n
}

// ParseBot reads one bot setting as a players: entry is written, from a
// flag: a bot name ("random") or a YAML mapping ("{bot: mcts, iterations:
// 500}"). Errors name the flag.
func ParseBot(flag, text string) (bots.Spec, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) == 0 {
		return bots.Spec{}, &Error{File: flag, Message: fmt.Sprintf("%q is not a bot name or a YAML mapping such as {bot: mcts, iterations: 500}", text)}
	}
	if m := doc.Content[0]; m.Kind == yaml.MappingNode {
		// {bot:mcts} is one key "bot:mcts" in YAML: say so.
		for i := 0; i < len(m.Content); i += 2 {
			if k := m.Content[i].Value; strings.Contains(k, ":") && m.Content[i+1].Tag == "!!null" {
				return bots.Spec{}, &Error{File: flag, Message: fmt.Sprintf("%q: YAML needs a space after each colon, as in {bot: mcts, iterations: 500}", k)}
			}
		}
	}
	d := &decoder{file: flag, origin: map[*yaml.Node]string{}}
	d.markOrigin(doc.Content[0], text)
	return d.decodePlayer(doc.Content[0], "bot")
}
