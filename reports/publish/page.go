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
	}{title, template.HTML(body.String())})
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

// escapedPunctuation is a backslash escape MarkdownEscape writes.
var escapedPunctuation = regexp.MustCompile("\\\\([\\\\|*_`\\[\\]])")

// inline escapes text and renders its images, links, bold and code spans.
// Code spans are cut out first, so nothing inside them is rendered.
func inline(text, dir string) string {
	parts := splitUnescaped(text, '`')
	var b strings.Builder
	for i, part := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + template.HTMLEscapeString(part) + "</code>")
			continue
		}
		if i%2 == 1 {
			b.WriteString("`")
		}
		b.WriteString(spans(part, dir))
	}
	return b.String()
}

func spans(text, dir string) string {
	s := template.HTMLEscapeString(text)
	s = imagePattern.ReplaceAllStringFunc(s, func(m string) string {
		g := imagePattern.FindStringSubmatch(m)
		return fmt.Sprintf(`<img alt="%s" src="%s">`, g[1], imageSource(dir, g[2]))
	})
	s = linkPattern.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = boldPattern.ReplaceAllString(s, `<strong>$1</strong>`)
	return escapedPunctuation.ReplaceAllString(s, "$1")
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
