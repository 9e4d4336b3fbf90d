package reports

import (
	"strings"
	"testing"
)

// TestWritePlainText (issue 53): check's Markdown, as a terminal gets it:
// no escapes, no heading marks or code quotes, the table drawn.
func TestWritePlainText(t *testing.T) {
	md := "### playtest check: a\\_b, 100 games: pass\n\nSeat 0 scores 51% \\[41–61%\\] (p \\< 0.0001); run `playtest skill a_b`.\n\n| metric | bound |\n|---|---:|\n| min of full\\_stacks | ≥ 6 \\| 7 |\n\nA line.\n"
	var b strings.Builder
	if err := WritePlainText(&b, []byte(md)); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"playtest check: a_b, 100 games: pass\n", "51% [41–61%] (p < 0.0001); run playtest skill a_b.", "│ min of full_stacks │ ≥ 6 | 7 │", "A line."} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\\") || strings.Contains(got, "###") || strings.Contains(got, "`") || strings.Contains(got, "|---") {
		t.Errorf("Markdown left:\n%s", got)
	}
}
