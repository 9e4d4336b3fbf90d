// Package play lets a person play a variant against a bot in the terminal:
// the board as the person's seat sees it, the legal decisions numbered,
// undo, hints and saved games that playtest replay reads.
package play
