package publish

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"playtest/internal/printable"
	"playtest/reports"
)

// WriteMarkdownPage writes a self-contained HTML page of a Markdown report
// that playtest itself wrote (check, compare, sweep, tournament): headings,
// paragraphs, tables, block quotes, bullet lists, images, **bold** and
// `code`. Images named by a path relative to dir are inlined as data URLs,
// so the page needs no network and no other file. It is not a general
// Markdown converter: it reads what our writers produce.
func WriteMarkdownPage(w io.Writer, title, dir string, md []byte) error {
	var body strings.Builder
	lines := readLines(md)
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case strings.HasPrefix(line, "#"):
			level := len(line) - len(strings.TrimLeft(line, "#"))
			level = min(level, 6)
			fmt.Fprintf(&body, "<h%d>%s</h%d>\n", level, inline(strings.TrimSpace(line[level:]), dir), level)
			i++
		case strings.HasPrefix(line, "|"):
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "|") {
				j++
			}
			writeTable(&body, lines[i:j], dir)
			i = j
		case strings.HasPrefix(line, ">"):
			j := i
			var quote []string
			for j < len(lines) && strings.HasPrefix(lines[j], ">") {
				quote = append(quote, strings.TrimSpace(strings.TrimPrefix(lines[j], ">")))
				j++
			}
			fmt.Fprintf(&body, "<blockquote>%s</blockquote>\n", inline(strings.Join(quote, " "), dir))
			i = j
		case strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* "):
			body.WriteString("<ul>\n")
			for i < len(lines) && (strings.HasPrefix(lines[i], "- ") || strings.HasPrefix(lines[i], "* ")) {
				fmt.Fprintf(&body, "<li>%s</li>\n", inline(lines[i][2:], dir))
				i++
			}
			body.WriteString("</ul>\n")
		default:
			j := i
			var para []string
			for j < len(lines) && strings.TrimSpace(lines[j]) != "" && !startsBlock(lines[j]) {
				para = append(para, strings.TrimSpace(lines[j]))
				j++
			}
			fmt.Fprintf(&body, "<p>%s</p>\n", inline(strings.Join(para, " "), dir))
			i = j
		}
	}
	return markdownPage.Execute(w, struct {
		Title string
		Body  template.HTML
	}{printable.OneLine(title), template.HTML(body.String())})
}

func readLines(md []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func startsBlock(line string) bool {
	return strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") || strings.HasPrefix(line, ">") ||
		strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ")
}

// writeTable writes a Markdown table; its second line is the alignment row.
func writeTable(b *strings.Builder, rows []string, dir string) {
	cells := func(row string) []string {
		row = strings.TrimSpace(row)
		row = strings.TrimPrefix(row, "|")
		if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
			row = row[:len(row)-1]
		}
		parts := splitUnescaped(row, '|')
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	b.WriteString("<table>\n")
	for k, row := range rows {
		if k == 1 && strings.Trim(row, "|-: ") == "" {
			continue // the alignment row
		}
		tag := "td"
		if k == 0 {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range cells(row) {
			fmt.Fprintf(b, "<%s>%s</%s>", tag, inline(c, dir), tag)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

var (
	imagePattern = regexp.MustCompile(`!\[([^\]]*)\]\(([^)\s]+)\)`)
	linkPattern  = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	boldPattern  = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// splitUnescaped splits s at each sep not escaped by a backslash.
func splitUnescaped(s string, sep byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// inline renders a line of Markdown as HTML: its code spans (whose
// content is literal), images, links and bold; everything else is
// escaped, and the backslash escapes reports.MarkdownEscape writes show
// as the characters they escape.
func inline(text, dir string) string {
	var b strings.Builder
	for _, span := range reports.SplitCode(text) {
		if span.Code {
			b.WriteString("<code>" + template.HTMLEscapeString(span.Text) + "</code>")
		} else {
			b.WriteString(spans(span.Text, dir))
		}
	}
	return b.String()
}

// escaped is the private-use rune standing for a backslash-escaped
// character c while the markup patterns run: no pattern matches it.
func escaped(c byte) rune { return 0xE000 + rune(c) }

// protect replaces each backslash escape of text with its private-use rune.
func protect(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+1 < len(text) && isPunct(text[i+1]) {
			b.WriteRune(escaped(text[i+1]))
			i++
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// restore writes each protected character back, escaped for HTML.
func restore(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xE000 && r < 0xE080 {
			b.WriteString(template.HTMLEscapeString(string(r - 0xE000)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isPunct reports whether c is ASCII punctuation, which a backslash may
// escape in Markdown.
func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
}

func spans(text, dir string) string {
	s := template.HTMLEscapeString(protect(text))
	s = imagePattern.ReplaceAllStringFunc(s, func(m string) string {
		g := imagePattern.FindStringSubmatch(m)
		return fmt.Sprintf(`<img alt="%s" src="%s">`, g[1], imageSource(dir, g[2]))
	})
	s = linkPattern.ReplaceAllStringFunc(s, func(m string) string {
		g := linkPattern.FindStringSubmatch(m)
		if !safeLink(html.UnescapeString(g[2])) {
			return m
		}
		// A link to one of our Markdown reports opens its HTML twin.
		return fmt.Sprintf(`<a href="%s">%s</a>`, strings.TrimSuffix(g[2], ".md")+htmlTwin(g[2]), g[1])
	})
	s = boldPattern.ReplaceAllString(s, `<strong>$1</strong>`)
	return restore(s)
}

// htmlTwin is the extension a link to target gets in an HTML page: .html
// for a Markdown file (every report.md, sweep.md ... has a twin), else
// target's own.
func htmlTwin(target string) string {
	if strings.HasSuffix(target, ".md") {
		return ".html"
	}
	return ""
}

// safeLink reports whether a link's target is one of our own files beside
// the page (a relative path) or an anchor: no scheme (javascript:, data:)
// and no other host.
func safeLink(target string) bool {
	return target != "" && !strings.Contains(target, ":") && !strings.HasPrefix(target, "//")
}

// imageTypes are the images a page inlines, by extension.
var imageTypes = map[string]string{".png": "image/png", ".svg": "image/svg+xml"}

// imageSource inlines a PNG or SVG beside the report as a data URL; any
// other image keeps its (escaped) path.
func imageSource(dir, ref string) string {
	path := html.UnescapeString(ref)
	mime, ok := imageTypes[filepath.Ext(path)]
	if dir != "" && ok && !filepath.IsAbs(path) && !strings.Contains(path, "..") {
		if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path))); err == nil {
			return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
		}
	}
	return ref
}

// pageTop opens the self-contained pages (a Markdown report's, the board
// viewer's) up to their own styles.
const pageTop = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #222; }
`

var markdownPage = template.Must(template.New("page").Parse(pageTop + `table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3rem 0.7rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
blockquote { background: #fff7e0; margin: 1rem 0; padding: 0.5rem 1rem; border-left: 4px solid #e0a000; }
</style>
</head>
<body>
{{.Body}}
</body>
</html>
`))
