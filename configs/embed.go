package configs

import "embed"

// FS holds every preset file.
//
//go:embed */*.yaml
var FS embed.FS
