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

	"playtest/reports"
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

// BadInput marks a busy directory as bad input (exit 2).
func (e *BusyError) BadInput() bool { return true }

// LinkError refuses to write a run directory's file through a link
// (reports.LinkError).
type LinkError = reports.LinkError

// openNoFollow opens a file of a run directory for writing with flag,
// refusing a symbolic link, a file with other hard links, and anything
// that is not a regular file.
func openNoFollow(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &LinkError{Path: path}
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !fi.Mode().IsRegular() || ok && st.Nlink > 1 {
		f.Close()
		return nil, &LinkError{Path: path}
	}
	return f, nil
}

// Lock takes the exclusive lock of dir (an flock on dir/.lock, released
// when the process ends however it ends) for a process that writes it,
// and records the process id in the file. A second writer gets a
// *BusyError naming the holder; a .lock that is a link is refused
// (*LinkError) rather than written through. unlock removes the file and
// releases the lock.
func Lock(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, LockFile)
	for {
		f, err := openNoFollow(path, os.O_RDWR|os.O_CREATE)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			b := make([]byte, 32)
			n, _ := f.ReadAt(b, 0)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &BusyError{Dir: dir, PID: pid}
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The holder before us removes the file before it unlocks: if
		// the file we locked is no longer the one at path, lock anew.
		held, err1 := f.Stat()
		current, err2 := os.Lstat(path)
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
