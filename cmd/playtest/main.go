// Command playtest plays bot-vs-bot games of board-game variants and reports
// balance statistics. See the README and `playtest --help`.
package main

import (
	"os"

	"playtest/cmd"
)

func main() {
	os.Exit(cmd.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
