// Package progress shows how a long run is going on stderr: a bar with
// games per second and the time left on a terminal (mpb), periodic plain
// lines when stderr is a file or a pipe (CI logs), or nothing.
package progress
