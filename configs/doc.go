// Package configs embeds the files shipped with playtest: the preset
// variants, configs/<game>/<preset>.yaml, runnable by name as
// <game>/<preset>; the sweeps, configs/sweeps/<name>.yaml, runnable as
// playtest sweep <name>; and the spaces tune races,
// configs/tunes/<name>.yaml (sweep files), runnable as playtest tune <name>.
package configs
