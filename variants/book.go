package variants

import (
	"errors"

	"playtest/sim"
)

// MaxBook bounds a variant's book: key, in decisions.
const MaxBook = 64

// OpeningBooks builds the opening book of a variant with a book: key. It
// is set by package solve, which owns the proofs a book is drawn from
// (solve.OpeningBook); the variants package only asks for it.
var OpeningBooks func(c *Config) (sim.Book, error)

// DescribeBookBot describes the bot that chooses the variant's book
// (book_bot: with book:), "" where none does.
func (c *Config) DescribeBookBot() string {
	if c.BookBot == nil || c.Book == 0 {
		return ""
	}
	return c.BookBot.Describe()
}

// OpeningBook returns the variant's opening book: nil without a book:
// key; with a book_bot:, the book of c.Book decisions that bot chooses
// (sim.BotBook, unproven); else the book of c.Book decisions that
// OpeningBooks builds from proofs (cached there, so every job of a run
// shares one).
func (c *Config) OpeningBook() (sim.Book, error) {
	if c.Book == 0 {
		return nil, nil
	}
	if c.BookBot != nil {
		g, err := c.NewGame()
		if err != nil {
			return nil, err
		}
		return sim.NewBotBook(g, *c.BookBot, c.Book)
	}
	if OpeningBooks == nil {
		return nil, errors.New("this program has no opening books (package solve is not linked in)")
	}
	return OpeningBooks(c)
}
