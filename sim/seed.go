package sim

import "playtest/games/pcg"

// Stream domains keep the chance and bot streams apart.
const (
	domainChance = 0x6368616e6365 // "chance"
	domainBot    = 0x626f74       // "bot"
	domainView   = 0x76696577     // "view"
	domainBook   = 0x626f6f6b     // "book"
)

// mix is the SplitMix64 finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// derive hashes a seed and a path of integers into two 64-bit words.
func derive(seed uint64, parts ...uint64) (uint64, uint64) {
	h := mix(seed)
	for _, p := range parts {
		h = mix(h ^ p)
	}
	return h, mix(h ^ 0x5eed)
}

// ChanceStream returns the random stream of the chance player for one deal.
func ChanceStream(seed uint64, deal int) *pcg.Rand {
	a, b := derive(seed, domainChance, uint64(deal))
	return pcg.New(a, b)
}

// BotStream returns the random stream of the bot in one seat of one game.
func BotStream(seed uint64, game, seat int) *pcg.Rand {
	a, b := derive(seed, domainBot, uint64(game), uint64(seat))
	return pcg.New(a, b)
}

// ViewStream returns the random stream that re-samples, for the seat to
// move, what it cannot see before its bot is asked for a move.
func ViewStream(seed uint64, game, seat int) *pcg.Rand {
	a, b := derive(seed, domainView, uint64(game), uint64(seat))
	return pcg.New(a, b)
}

// BookStream returns the random stream an opening book draws one deal's
// opening from: both games of a seat-swapped pair open alike.
func BookStream(seed uint64, deal int) *pcg.Rand {
	a, b := derive(seed, domainBook, uint64(deal))
	return pcg.New(a, b)
}
