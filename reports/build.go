package reports

import (
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
