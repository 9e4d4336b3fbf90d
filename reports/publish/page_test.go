package publish

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
