package publish

import "testing"

func TestCodeSpans(t *testing.T) {
	tests := map[string]string{
		"run `playtest skill a<b>` now": "run <code>playtest skill a&lt;b&gt;</code> now",
		"no code & more":                "no code &amp; more",
		"odd ` quote":                   "odd ` quote",
		"`a` and `b`":                   "<code>a</code> and <code>b</code>",
	}
	for in, want := range tests {
		if got := string(codeSpans(in)); got != want {
			t.Errorf("codeSpans(%q) = %q, want %q", in, got, want)
		}
	}
}
