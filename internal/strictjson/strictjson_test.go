package strictjson

import (
	"strings"
	"testing"
)

func TestUnmarshal(t *testing.T) {
	var v struct {
		A int            `json:"a"`
		B map[string]int `json:"b"`
		C []struct {
			D int `json:"d"`
		} `json:"c"`
	}
	if err := Unmarshal([]byte(`{"a": 1, "b": {"x": 1, "y": 2}, "c": [{"d": 1}, {"d": 2}]}`), &v); err != nil || v.A != 1 || v.C[1].D != 2 {
		t.Fatalf("%v %+v", err, v)
	}
	for _, c := range []struct{ in, want string }{
		{`{"a": 1, "a": 2}`, `the key "a" is given twice in the top object`},
		{`{"b": {"x": 1, "x": 2}}`, `the key "x" is given twice in b`},
		{`{"c": [{"d": 1}, {"d": 1, "d": 2}]}`, `the key "d" is given twice in c[]`},
		{`{"a": 1} {"a": 2}`, "data after the JSON value"},
		{`{"a": 1} x`, "data after the JSON value"},
		{`{"a": "x"}`, "cannot unmarshal"},
	} {
		if err := Unmarshal([]byte(c.in), &v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": 2}], "c": {"d": {}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		_ = Unmarshal(data, &v) // never a panic
	})
}
