// Package configs embeds the preset variant files shipped with playtest:
// configs/<game>/<preset>.yaml, runnable by name as <game>/<preset>.
package configs

import "embed"

// FS holds every preset file.
//
//go:embed */*.yaml
var FS embed.FS
