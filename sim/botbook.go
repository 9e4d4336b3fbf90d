package sim

import (
	"errors"
	"fmt"
	"sync"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim/bots"
)

// BotBook is an opening book whose moves a bot chooses (a variant's
// book_bot:): over a game's first Plies decisions it plays the move the
// bot chooses there, the bot reset for each decision with the deal's book
// stream. Each deal opens with its own line, the same in both games of a
// pair (the stream is the deal's, and the bot sees only the position),
// and the same for every budget of a skill ladder and every bot family,
// so that their games differ only after the book — the fixed openings of
// engine testers' books, drawn by a bot instead of read from a file.
//
// Unlike a book drawn from a proof, its openings need not keep the
// start's value: the games measure the game after the book's lines, as
// the bot plays them. A bot with noise (noise: and temperature: for
// alphabeta) varies the lines; every book decision is the bot's first
// after its reset, so its noise_moves: does not count.
type BotBook struct {
	// Plies is how many decisions the book makes in each game; Bot the
	// bot that chooses them.
	Plies int
	Bot   bots.Spec
	game  games.Game
	pool  sync.Pool
}

// NewBotBook returns the book of plies decisions that bot chooses in g.
// Its bot sees the whole position, so a game with hidden information is
// refused.
func NewBotBook(g games.Game, bot bots.Spec, plies int) (*BotBook, error) {
	if _, hidden := g.NewState().(games.Determinizer); hidden {
		return nil, errors.New("a book bot sees the whole position, and these rules hide part of it from the seats: use noise: on the players for varied openings")
	}
	if _, err := bot.New(g); err != nil {
		return nil, fmt.Errorf("%s: %w", bot.Describe(), err)
	}
	return &BotBook{Plies: plies, Bot: bot, game: g}, nil
}

// BookMove plays the bot's choice in s within the book's decisions. The
// bots are pooled between calls: each is reset (its tables cleared)
// before it chooses, so the move depends only on s and rng.
func (b *BotBook) BookMove(s games.State, decision int, rng *pcg.Rand) (games.Move, bool) {
	if decision >= b.Plies || s.IsTerminal() {
		return 0, false
	}
	legal := s.LegalMoves(nil)
	if len(legal) == 0 {
		return 0, false
	}
	bot, _ := b.pool.Get().(bots.Bot)
	if bot == nil {
		bot, _ = b.Bot.New(b.game) // checked by NewBotBook
	}
	bot.Reset(s.CurrentPlayer(), rng)
	m := bot.Choose(s, legal)
	b.pool.Put(bot)
	return m, true
}
