// Package internal holds the small helpers every other wing may use:
// bounded writes (bounded), the build's commit and date (buildinfo),
// signals and interruptible input (interrupt), the words for knobs
// (knobs), progress bars (progress), control characters shown by
// stand-ins (printable), shell quoting (shell) and the tests'
// shared settings (testenv).
//
// Layer: the lowest. A helper imports only the standard library, outside
// libraries and other helpers (cmd/layers_test.go).
package internal
