// Package viewers is the wing of what shows games to a person: play (a
// person against a bot in the terminal) and replay (one game of a run
// re-played move by move). The HTML board viewer of a run's report is part
// of reports/publish, since every report carries it.
//
// Layer: a viewer may import internal, games, sim, variants, configs,
// reports and runs; it does not import studies, and only cmd imports it
// (cmd/layers_test.go).
package viewers
