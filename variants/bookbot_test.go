package variants

import (
	"strings"
	"testing"

	"playtest/sim"
)

// TestBookBot checks the book_bot: key: a bot that chooses the book's
// decisions (an unproven book, sim.BotBook, on a game no solve proves),
// in the config hash, and one message naming the file's line and key for
// a book bot without book:, a bad bot, or hidden information.
func TestBookBot(t *testing.T) {
	const base = "game: stacktics\nrules: {size: 3}\n"
	tests := []struct {
		name string
		yaml string
		want []string // substrings of the error; none: it loads
	}{
		{"alphabeta with noise", base + "book: 6\nbook_bot: {bot: alphabeta, nodes: 500, noise: 0.5, temperature: 0.25}\n", nil},
		{"a bot name", base + "book: 2\nbook_bot: random\n", nil},
		{"learned model", base + "book: 2\nbook_bot: {bot: alphabeta, nodes: 500, eval: learned, model: preset:stacktics/size3}\n", nil},
		{"no book", base + "book_bot: random\n",
			[]string{"bad.yaml:3:", "book_bot: chooses the moves of an opening book: set book:"}},
		{"unknown parameter", base + "book: 2\nbook_bot: {bot: alphabeta, nodse: 500}\n",
			[]string{"bad.yaml:4:", "book_bot.nodse", "is not a parameter of bot alphabeta"}},
		{"unknown bot", base + "book: 2\nbook_bot: alphabta\n",
			[]string{"bad.yaml:4:", "book_bot", `"alphabeta"`}},
		{"hidden goals", "game: capstone\nbook: 2\nbook_bot: random\n",
			[]string{"bad.yaml:3:", "book_bot: a book bot sees the whole position"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("bad.yaml", "bad", []byte(tt.yaml), nil)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				book, err := cfg.OpeningBook()
				if bb, ok := book.(*sim.BotBook); err != nil || !ok || bb.Plies != cfg.Book || bb.Bot.Bot != cfg.BookBot.Bot {
					t.Errorf("book %T %+v, %v", book, book, err)
				}
				return
			}
			wantVariantError(t, err, tt.want)
		})
	}
	parse := func(text string) *Config {
		t.Helper()
		c, err := Parse("a.yaml", "a", []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := parse(base + "book: 2\nbook_bot: {bot: alphabeta, nodes: 500}\n")
	b := parse(base + "book: 2\nbook_bot: {bot: alphabeta, nodes: 600}\n")
	c := parse(base + "book: 2\nbook_bot: {bot: alphabeta, nodes: 500}\n")
	if a.Hash() == b.Hash() || a.Hash() != c.Hash() {
		t.Errorf("the book bot is not in the hash: %s, %s, %s", a.Hash(), b.Hash(), c.Hash())
	}
	if plain := parse(base); strings.Contains(plain.Hash(), "book_bot") || plain.Hash() == a.Hash() {
		t.Error("a variant without a book bot hashes alike")
	}
}
