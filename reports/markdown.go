package reports

import (
	"strings"
)

// The one escaping rule of every page playtest writes. Markdown (report.md,
// check.md, compare.md, sweep.md, skill.md, tournament.md, diff.md) holds
// three kinds of text:
//
//   - our own markup (headings, tables, **bold**, links to our own files),
//     written as literals;
//   - plain text that came from outside (a variant's name, a metric, a bot's
//     label, a file's path, a message): MarkdownEscape, which
//     backslash-escapes every character that could start markup or HTML,
//     so it reads as itself in any CommonMark viewer;
//   - annotated text, our sentences with `code` spans (headlines, warnings,
//     verdicts): MarkdownText, which escapes the plain parts and writes each
//     code span with MarkdownCode.
//
// HTML pages escape every string (html/template), and a page made from
// Markdown (publish.WriteMarkdownPage) HTML-escapes the text, then undoes
// exactly the backslash escapes MarkdownEscape writes: the name shows as
// itself, never as markup and never escaped twice.

// markdownEscapes are the characters MarkdownEscape escapes anywhere;
// lineStarts those it escapes at the start before a space (where they
// would open a heading or a list).
const (
	markdownEscapes = "\\`*_[]<>&|"
	lineStarts      = "#-+"
)

// MarkdownEscape escapes plain text for Markdown: a backslash before every
// character that could start markup or HTML, and a line break as a space
// (a table cell or heading is one line).
func MarkdownEscape(s string) string { return escapeMarkdown(s, true) }

// escapeMarkdown is MarkdownEscape; a table cell (lineStart false) never
// starts a line, so its first character opens no heading or list.
func escapeMarkdown(s string, lineStart bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\n' || r == '\r':
			b.WriteByte(' ')
		case r < 0x80 && (strings.ContainsRune(markdownEscapes, r) || lineStart && i == 0 && strings.ContainsRune(lineStarts, r) && (len(s) == 1 || s[1] == ' ')):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MarkdownCode writes s as a Markdown code span, its content literal: the
// fence is one backquote longer than the longest run of backquotes in s,
// and a space pads content that starts or ends with one (CommonMark).
func MarkdownCode(s string) string {
	s = strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.Trim(s, " ") != "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// Span is a piece of annotated text: plain, or a code span's content.
type Span struct {
	Text string
	Code bool
}

// SplitCode splits annotated text or Markdown into plain parts and code
// spans by CommonMark's rule: a run of n backquotes opens a span that the
// next run of exactly n closes (an unclosed run is plain text); one space
// is stripped from each end of a span whose content has both and is not
// all spaces. In plain text a backslash escapes the character after it
// (both are kept in the plain part); in a span it is literal.
func SplitCode(text string) []Span {
	var out []Span
	plain := strings.Builder{}
	for i := 0; i < len(text); {
		if text[i] == '\\' && i+1 < len(text) {
			plain.WriteString(text[i : i+2])
			i += 2
			continue
		}
		if text[i] != '`' {
			plain.WriteByte(text[i])
			i++
			continue
		}
		n := runAt(text, i)
		end := -1
		for j := i + n; j < len(text); {
			if text[j] != '`' {
				j++
				continue
			}
			m := runAt(text, j)
			if m == n {
				end = j
				break
			}
			j += m
		}
		if end < 0 {
			plain.WriteString(text[i : i+n])
			i += n
			continue
		}
		if plain.Len() > 0 {
			out = append(out, Span{Text: plain.String()})
			plain.Reset()
		}
		code := text[i+n : end]
		if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
			code = code[1 : len(code)-1]
		}
		out = append(out, Span{Text: code, Code: true})
		i = end + n
	}
	if plain.Len() > 0 {
		out = append(out, Span{Text: plain.String()})
	}
	return out
}

// runAt is the length of the run of backquotes at text[i].
func runAt(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// MarkdownText writes annotated text (our sentences with `code` spans,
// such as a headline) as Markdown: the plain parts escaped, each code span
// fenced by MarkdownCode.
func MarkdownText(text string) string {
	var b strings.Builder
	for _, s := range SplitCode(text) {
		if s.Code {
			b.WriteString(MarkdownCode(s.Text))
		} else {
			b.WriteString(MarkdownEscape(s.Text))
		}
	}
	return b.String()
}
