package configs

import "embed"

// FS holds every preset file, and the models learned for the presets
// (models/GAME/PRESET.json, written by make models; a preset's bots play
// one with model: preset).
//
//go:embed */*.yaml models
var FS embed.FS
