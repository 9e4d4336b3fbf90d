//go:build race

package gamestest

const raceEnabled = true
