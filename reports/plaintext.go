package reports

import (
	"io"
	"strings"
)

// WritePlainText writes Markdown as a terminal shows it best: headings
// without their marks, tables drawn as the other commands' tables,
// backslash escapes and code marks taken off (`\[41–61%\]` reads
// [41–61%]). A file or a CI summary gets the Markdown itself.
func WritePlainText(w io.Writer, md []byte) error {
	lines := strings.Split(strings.TrimRight(string(md), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "|") {
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "|") {
				j++
			}
			if err := writeTextTable(w, lines[i:j]); err != nil {
				return err
			}
			i = j - 1
			continue
		}
		if h := strings.TrimLeft(line, "#"); h != line && strings.HasPrefix(h, " ") {
			line = strings.TrimSpace(h)
		}
		if _, err := io.WriteString(w, plainSpan(line)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// writeTextTable draws a Markdown table's rows (its second row the
// alignment row) as a terminal table.
func writeTextTable(w io.Writer, rows []string) error {
	cells := func(row string) []string {
		row = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(row), "|"), "|")
		var out []string
		start := 0
		for k := 0; k < len(row); k++ {
			switch {
			case row[k] == '\\':
				k++
			case row[k] == '|':
				out = append(out, plainSpan(strings.TrimSpace(row[start:k])))
				start = k + 1
			}
		}
		return append(out, plainSpan(strings.TrimSpace(row[start:])))
	}
	t := NewTable(w, Cells(cells(rows[0]))...)
	for k, row := range rows[1:] {
		if k == 0 && strings.Trim(row, "|-: ") == "" {
			continue // the alignment row
		}
		_ = t.Append(Cells(cells(row))...)
	}
	return t.Render()
}

// plainSpan takes a line's Markdown marks off: code spans' backquotes and
// backslash escapes.
func plainSpan(text string) string {
	var b strings.Builder
	for _, s := range SplitCode(text) {
		if s.Code {
			b.WriteString(s.Text)
			continue
		}
		for k := 0; k < len(s.Text); k++ {
			if s.Text[k] == '\\' && k+1 < len(s.Text) && strings.IndexByte(markdownEscapes+"#-+.!(){}", s.Text[k+1]) >= 0 {
				k++
			}
			b.WriteByte(s.Text[k])
		}
	}
	return b.String()
}
