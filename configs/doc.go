// Package configs embeds the preset variant files shipped with playtest:
// configs/<game>/<preset>.yaml, runnable by name as <game>/<preset>.
package configs
