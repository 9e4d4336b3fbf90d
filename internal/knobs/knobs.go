package knobs

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Knob is a rule knob and its value in YAML flow style.
type Knob struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Change is a rule knob whose value differs between two variants. An empty
// From or To is a knob one side does not have.
type Change struct {
	Knob string `json:"knob"`
	From string `json:"from"`
	To   string `json:"to"`
}

// List returns the knobs of rules (a rules struct, or its JSON decoded or
// raw) in their order, each value in flow style.
func List(rules any) ([]Knob, error) {
	m, err := mapping(rules)
	if err != nil || m == nil {
		return nil, err
	}
	out := make([]Knob, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		v, err := flow(m.Content[i+1])
		if err != nil {
			return nil, err
		}
		out = append(out, Knob{Name: m.Content[i].Value, Value: v})
	}
	return out, nil
}

// Diff lists the knobs whose values differ from a to b: a's knobs in a's
// order, then the knobs only b has.
func Diff(a, b any) ([]Change, error) {
	ka, err := List(a)
	if err != nil {
		return nil, err
	}
	kb, err := List(b)
	if err != nil {
		return nil, err
	}
	inB := make(map[string]string, len(kb))
	for _, k := range kb {
		inB[k.Name] = k.Value
	}
	var out []Change
	seen := make(map[string]bool, len(ka))
	for _, k := range ka {
		seen[k.Name] = true
		if to, ok := inB[k.Name]; !ok || to != k.Value {
			out = append(out, Change{Knob: k.Name, From: k.Value, To: to})
		}
	}
	for _, k := range kb {
		if !seen[k.Name] {
			out = append(out, Change{Knob: k.Name, To: k.Value})
		}
	}
	return out, nil
}

// Label writes changes as a variant name's suffix: "board {rows: 5,
// cols: 3}, start_columns [0, 2]".
func Label(changes []Change) string {
	parts := make([]string, len(changes))
	for i, c := range changes {
		to := c.To
		if to == "" {
			to = "(none)"
		}
		parts[i] = c.Knob + " " + to
	}
	return strings.Join(parts, ", ")
}

// mapping reads rules into a YAML mapping node that keeps the knobs'
// order: JSON is YAML, and a struct marshals its fields in order.
func mapping(rules any) (*yaml.Node, error) {
	var text []byte
	switch r := rules.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		text = r
	case []byte:
		text = r
	default:
		b, err := json.Marshal(rules)
		if err != nil {
			return nil, err
		}
		text = b
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		if len(doc.Content) == 1 && doc.Content[0].Tag == "!!null" {
			return nil, nil
		}
		return nil, fmt.Errorf("rules are not a mapping of knobs")
	}
	return doc.Content[0], nil
}

// flow writes a value in YAML flow style on one line.
func flow(n *yaml.Node) (string, error) {
	setFlow(n)
	b, err := yaml.Marshal(n)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	if n.Kind == yaml.ScalarNode && n.Style == yaml.DoubleQuotedStyle {
		n.Style = 0 // JSON quotes every string; YAML needs quotes only where plain text would mislead
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}
