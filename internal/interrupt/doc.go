// Package interrupt turns the first SIGINT or SIGTERM into a cancelled
// context, a second one into an exit at once, and lets work that holds
// nothing to clean up be abandoned when the context ends.
package interrupt
