package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"playtest/internal/printable"
)

// LinkError refuses to write a file or directory of a run or study through
// a link: a symbolic link, or a hard link shared with another file, would
// make playtest write (or cut) whatever the link points to.
type LinkError struct{ Path string }

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a link or not a regular file or directory: playtest does not write through it (remove it, then run again)", e.Path)
}

// BadInput marks a link in a run or study directory as bad input (exit 2).
func (e *LinkError) BadInput() bool { return true }

// NoLinksBelow returns a *LinkError for the first of path's components
// below root (root itself is the user's choice and may be a link) that
// is a symbolic link or something other than a directory; components that
// do not exist yet are fine. path must lie inside root.
func NoLinksBelow(root, path string) error {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not inside %s", path, root)
	}
	if rel == "." {
		return nil
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() || fi.Mode()&os.ModeSymlink != 0 {
			return &LinkError{Path: cur}
		}
	}
	return nil
}

// MkdirBelow creates dir and its missing parents below root, refusing a
// link (or a file) anywhere below root on the way (NoLinksBelow).
func MkdirBelow(root, dir string) error {
	if err := NoLinksBelow(root, dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return NoLinksBelow(root, dir)
}

// textExtensions are the files meant to be read by a person or a browser
// (pages, tables, figures, CI reports): WriteFileAtomic shows the control
// characters of their text by stand-ins (internal/printable), so a name
// with an escape sequence or a bidirectional override cannot act on a
// terminal or page. JSON escapes control characters itself; PNG is binary.
var textExtensions = []string{".md", ".html", ".csv", ".svg", ".xml", ".txt"}

// isText reports whether path is a file for people (textExtensions).
func isText(path string) bool {
	return slices.Contains(textExtensions, strings.ToLower(filepath.Ext(path)))
}

// WriteFileAtomic writes a file through a temporary file in the same
// directory and renames it into place, so readers never see half a file.
// A page, table or figure (textExtensions) has its control characters
// shown by stand-ins.
//
// A path that is a link (or not a regular file) is refused with a
// *LinkError: the rename would replace the link, not write through it,
// but a link where playtest writes is a damaged or tampered directory.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return &LinkError{Path: path}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	var out io.Writer = tmp
	var shown *printable.Writer
	if isText(path) {
		shown = printable.NewWriter(tmp)
		out = shown
	}
	if err := write(out); err != nil {
		tmp.Close()
		return err
	}
	if shown != nil {
		if err := shown.Flush(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// CompactJSON is raw without insignificant space (raw itself when it is
// not JSON): for comparing JSON values however they were indented.
func CompactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// WriteJSONFileAtomic writes v to path as playtest's JSON (WriteJSON),
// atomically (WriteFileAtomic).
func WriteJSONFileAtomic(path string, v any) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return WriteJSON(w, v) })
}

// RemoveTemps removes the temporary files WriteFileAtomic leaves behind
// when the process is killed mid-write (".NAME.DIGITS"), in dir and in its
// plots directory.
func RemoveTemps(dir string) error {
	var errs []error
	for _, d := range []string{dir, filepath.Join(dir, "plots")} {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue // no such directory: nothing left behind
		}
		for _, e := range entries {
			if tempName.MatchString(e.Name()) && e.Type().IsRegular() {
				if err := os.Remove(filepath.Join(d, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// tempName matches the names os.CreateTemp gives WriteFileAtomic's files.
var tempName = regexp.MustCompile(`^\.[^/]+\.[0-9]+$`)
