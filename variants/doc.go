// Package variants reads variant files: YAML documents that name a game,
// set its rules knobs, choose the bots of each seat and the size and seed of
// a run.
//
//	game: stacktics          # catalog name (required)
//	name: size3              # defaults to the file's base name
//	description: ...
//	rules:                   # the game's knobs; unset knobs take defaults
//	  size: 3
//	players:                 # one entry per player: a bot name, or a
//	  - bot: greedy          # mapping with bot: and the bot's parameters
//	    epsilon: 0.1
//	  - random
//	games: 1000              # games to play
//	seed: 1                  # run seed
//	pairs: true              # play each deal twice, players' seats swapped
//	book: 4                  # open each deal with 4 moves that keep the
//	                         # proven value (OpeningBook; small variants)
//
// Decoding is strict: an unknown key (with a did-you-mean suggestion), a
// wrong type, a duplicated key or an impossible value is one *Error naming
// the file, the line and the key. Overrides (--set key=value, or flags such
// as --games) are applied to the YAML tree before decoding, so they are
// checked the same way and their errors name the override.
//
// Presets are the files under configs/, embedded in the binary and named by
// their path without extension (stacktics/size3).
package variants
