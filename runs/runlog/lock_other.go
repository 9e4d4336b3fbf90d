//go:build !unix

package runlog

import (
	"fmt"
	"os"

	"playtest/reports"
)

// LockFile is the file in a run directory whose lock a writer holds.
const LockFile = ".lock"

// BusyError says another process is writing the directory.
type BusyError struct {
	Dir string
	PID int
}

func (e *BusyError) Error() string { return fmt.Sprintf("%s is in use by process %d", e.Dir, e.PID) }

// BadInput marks a busy directory as bad input (exit 2).
func (e *BusyError) BadInput() bool { return true }

// LinkError refuses to write a run directory's file through a link
// (reports.LinkError).
type LinkError = reports.LinkError

// Lock does nothing where flock is not available.
func Lock(dir string) (unlock func(), err error) { return func() {}, nil }

// openNoFollow opens a file of a run directory for writing with flag,
// refusing a symbolic link.
func openNoFollow(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &reports.LinkError{Path: path}
	}
	return os.OpenFile(path, flag, 0o644)
}
