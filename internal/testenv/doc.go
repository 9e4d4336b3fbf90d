// Package testenv tells tests about the build they run in.
package testenv
