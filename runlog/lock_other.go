//go:build !unix

package runlog

import "fmt"

// LockFile is the file in a run directory whose lock a writer holds.
const LockFile = ".lock"

// BusyError says another process is writing the directory.
type BusyError struct {
	Dir string
	PID int
}

func (e *BusyError) Error() string { return fmt.Sprintf("%s is in use by process %d", e.Dir, e.PID) }

// Lock does nothing where flock is not available.
func Lock(dir string) (unlock func(), err error) { return func() {}, nil }
