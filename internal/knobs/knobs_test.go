package knobs

import (
	"encoding/json"
	"reflect"
	"testing"
)

type board struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
}

type rules struct {
	Size         int            `json:"size"`
	Board        board          `json:"board"`
	StartColumns []int          `json:"start_columns"`
	PieRule      *bool          `json:"pie_rule"`
	Name         string         `json:"name"`
	Cards        map[string]int `json:"cards,omitempty"`
}

func TestDiffAndLabel(t *testing.T) {
	yes, no := true, false
	a := &rules{Size: 2, Board: board{4, 4}, StartColumns: []int{0, 3}, PieRule: &yes, Name: "x"}
	b := &rules{Size: 2, Board: board{5, 3}, StartColumns: []int{0, 2}, PieRule: &no, Name: "x", Cards: map[string]int{"4": 2}}
	got, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{"board", "{rows: 4, cols: 4}", "{rows: 5, cols: 3}"},
		{"start_columns", "[0, 3]", "[0, 2]"},
		{"pie_rule", "true", "false"},
		{"cards", "", `{"4": 2}`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Diff = %q\nwant %q", got, want)
	}
	if l := Label(got); l != `board {rows: 5, cols: 3}, start_columns [0, 2], pie_rule false, cards {"4": 2}` {
		t.Errorf("Label = %s", l)
	}
	// The same rules read back from JSON (a saved summary) compare equal,
	// and in either direction the knobs keep their order.
	raw, _ := json.Marshal(a)
	var decoded any
	json.Unmarshal(raw, &decoded)
	for _, other := range []any{json.RawMessage(raw), raw} {
		if d, err := Diff(a, other); err != nil || len(d) != 0 {
			t.Errorf("a against its JSON: %v, %v", d, err)
		}
	}
	if d, err := Diff(decoded, b); err != nil || len(d) != 4 {
		t.Errorf("decoded JSON against b: %v, %v", d, err)
	}
	if back, _ := Diff(b, a); back[0].Knob != "board" || back[3] != (Change{"cards", `{"4": 2}`, ""}) || Label(back[3:]) != "cards (none)" {
		t.Errorf("b against a: %q", back)
	}
}

func TestList(t *testing.T) {
	got, err := List(&rules{Size: 3, Board: board{5, 5}, Name: "a: b"})
	want := []Knob{{"size", "3"}, {"board", "{rows: 5, cols: 5}"}, {"start_columns", "null"}, {"pie_rule", "null"}, {"name", `'a: b'`}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("List = %q, %v\nwant %q", got, err, want)
	}
	if k, err := List(nil); k != nil || err != nil {
		t.Errorf("List(nil) = %v, %v", k, err)
	}
	if _, err := List(3); err == nil {
		t.Error("List(3): no error")
	}
}
