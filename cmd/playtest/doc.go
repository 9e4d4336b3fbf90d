// Command playtest plays bot-vs-bot games of board-game variants and reports
// balance statistics. See the README and `playtest --help`.
package main
