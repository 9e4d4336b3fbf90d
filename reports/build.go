package reports

import (
	"bytes"
	"fmt"
	"io"

	"playtest/internal/buildinfo"
)

// Footer is the last line of every report page: the build of playtest that
// wrote it (playtest version prints the details), so an archived number can
// be traced to the code that produced it.
func Footer() string { return "Written by " + buildinfo.Get().Short() + "." }

// WriteMarkdownFooter ends a Markdown report with Footer, as a paragraph of
// its own.
func WriteMarkdownFooter(w io.Writer) error {
	_, err := fmt.Fprintf(w, "\n%s\n", MarkdownText(Footer()))
	return err
}

// BeforeFooter returns the Markdown page md with extra inserted before its
// footer (WriteMarkdownFooter), or at its end when it has none.
func BeforeFooter(md []byte, extra string) []byte {
	footer := []byte("\n" + MarkdownText(Footer()) + "\n")
	i := bytes.LastIndex(md, footer)
	if i < 0 {
		return append(bytes.Clone(md), extra...)
	}
	out := append(bytes.Clone(md[:i]), extra...)
	return append(out, md[i:]...)
}
