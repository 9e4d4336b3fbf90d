package publish

import (
	"bytes"
	"html"
	"html/template"
	"os"
	"path/filepath"
	"playtest/reports"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWriteMarkdownPage(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "plots"), 0o755)
	os.WriteFile(filepath.Join(dir, "plots", "p.png"), []byte("PNGDATA"), 0o644)
	md := "### Title <b>\n\nSome **bold** text with `a <b> c` and\na second line.\n\n" +
		"| a | b |\n|---|---:|\n| 1 | `x` |\n\n> ⚠ **warn**: careful\n\n- one\n- two\n\n![plot](plots/p.png)\n"
	var b bytes.Buffer
	if err := WriteMarkdownPage(&b, "t & u", dir, []byte(md)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<title>t &amp; u</title>", "<h3>Title &lt;b&gt;</h3>",
		"<p>Some <strong>bold</strong> text with <code>a &lt;b&gt; c</code> and a second line.</p>",
		"<tr><th>a</th><th>b</th></tr>", "<tr><td>1</td><td><code>x</code></td></tr>",
		"<blockquote>⚠ <strong>warn</strong>: careful</blockquote>", "<li>one</li>\n<li>two</li>",
		`<img alt="plot" src="data:image/png;base64,UE5HREFUQQ==">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	WriteMarkdownPage(&b, "t", "", []byte("| a \\| b | c\\_d |\n|---|---:|\n| x |\n"))
	if !strings.Contains(b.String(), "<th>a | b</th><th>c_d</th>") {
		t.Errorf("escaped bars and underscores:\n%s", b.String())
	}
	if strings.Contains(out, "|---") || strings.Contains(out, "<b>") {
		t.Errorf("alignment row or raw HTML left in:\n%s", out)
	}
}

// FuzzEscapeRoundTrip: any text written into Markdown with
// reports.MarkdownEscape shows as itself on a page made from that
// Markdown (no markup, no double escape), and as a code span with
// reports.MarkdownCode; annotated text keeps its code spans as code.
func FuzzEscapeRoundTrip(f *testing.F) {
	for _, s := range []string{"<script>alert(1)</script>", "[x](javascript:alert(1))", "a | b", "**b** _i_ `c` ``d``", `\<x\>`, "&amp; &lt;", "# head", "- item", "x\\", "`", " ` "} {
		f.Add(s)
	}
	tags := regexp.MustCompile(`<[^>]*>`)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r") || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r >= 0xE000 && r < 0xE080 }) {
			return
		}
		got := inline(reports.MarkdownEscape(s), "")
		if strings.Contains(got, "<") && tags.ReplaceAllString(got, "") != got {
			t.Fatalf("%q: the page gained markup: %s", s, got)
		}
		if html.UnescapeString(got) != s {
			t.Fatalf("%q: the page shows %q", s, html.UnescapeString(got))
		}
		code := inline(reports.MarkdownCode(s), "")
		if want := "<code>" + template.HTMLEscapeString(strings.TrimSpace(s)) + "</code>"; strings.TrimSpace(s) == s && s != "" && code != want {
			t.Fatalf("%q as code: %s, want %s", s, code, want)
		}
		if text := inline(reports.MarkdownText("run "+reports.MarkdownCode(s)+" now"), ""); s != "" && strings.TrimSpace(s) == s && !strings.Contains(text, "<code>"+template.HTMLEscapeString(s)+"</code>") {
			t.Fatalf("%q in annotated text: %s", s, text)
		}
	})
}

// A page's title shows a name's control characters by their stand-ins:
// no carriage return or line break reaches a browser's title bar (issue
// 53).
func TestPageTitleHasNoControls(t *testing.T) {
	var b strings.Builder
	if err := WriteMarkdownPage(&b, "playtest learn: odd\rname\nhere", "", []byte("# x\n")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<title>playtest learn: odd␍name here</title>") {
		t.Errorf("title: %.300s", b.String())
	}
}
