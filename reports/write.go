package reports

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// WriteFileAtomic writes a file through a temporary file in the same
// directory and renames it into place, so readers never see half a file.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
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
