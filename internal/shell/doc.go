// Package shell quotes the commands playtest suggests (continue a run,
// climb a skill ladder) so that they can be pasted into a POSIX shell as
// they are, whatever spaces or quotes a path or a value holds.
package shell
