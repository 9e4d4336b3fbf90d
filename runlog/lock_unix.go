//go:build unix

package runlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockFile is the file in a run directory whose lock a writer holds.
const LockFile = ".lock"

// BusyError says another process is writing the directory.
type BusyError struct {
	Dir string
	PID int
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%s is in use by process %d (a run, resume or merge writing it); wait for it or stop it", e.Dir, e.PID)
	}
	return fmt.Sprintf("%s is in use by another process (a run, resume or merge writing it); wait for it or stop it", e.Dir)
}

// Lock takes the exclusive lock of dir (an flock on dir/.lock, released
// when the process ends however it ends) for a process that writes it,
// and records the process id in the file. A second writer gets a
// *BusyError naming the holder. unlock removes the file and releases the
// lock.
func Lock(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, LockFile)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			b, _ := os.ReadFile(path)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &BusyError{Dir: dir, PID: pid}
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The holder before us removes the file before it unlocks: if
		// the file we locked is no longer the one at path, lock anew.
		held, err1 := f.Stat()
		current, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(held, current) {
			f.Close()
			continue
		}
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return func() {
			_ = os.Remove(path)
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}, nil
	}
}
