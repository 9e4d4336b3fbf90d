// Package catalog is the explicit list of the games playtest plays. Adding a
// game means adding its package, its presets under configs/, and one line to
// All.
package catalog
