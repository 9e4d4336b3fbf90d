// Package configs embeds the files shipped with playtest: the preset
// variants, configs/<game>/<preset>.yaml, runnable by name as
// <game>/<preset>; and the sweeps, configs/sweeps/<name>.yaml, runnable as
// playtest sweep <name>.
package configs
