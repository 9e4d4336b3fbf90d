//go:build !race

package gamestest

const raceEnabled = false
