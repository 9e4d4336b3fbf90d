package games

// ProofNodes bounds the positions a broken-rules proof (prove.Within)
// searches: a shallow proof for a report, never a solve. An interpreted game's (a rules script's)
// take a thousand times longer each: InterpretedProofNodes, about a
// second of them.
const (
	ProofNodes            = 2_000_000
	InterpretedProofNodes = 20_000
)

// Interpreted is implemented by states whose rules are interpreted (a
// rules script's): each position costs about a thousand times a built-in
// game's, so searches that are short on the built-in games search fewer.
type Interpreted interface {
	Interpreted()
}

// Proof is a forced result found by a broken-rules proof (prove.Within):
// Winner wins however the other seat plays, the game ending within Plies decisions (the winner
// ending as fast as it can, the loser holding out as long as it can);
// Line is such a game, each decision in the game's notation.
type Proof struct {
	Winner Player   `json:"winner"`
	Plies  int      `json:"plies"`
	Line   []string `json:"line"`
}

// Provable reports whether the prover (games/prove) can search s's game:
// perfect information with exact position keys, as playtest solve needs
// (a Keyer and not a Determinizer).
func Provable(s State) bool {
	_, keyed := s.(Keyer)
	_, hidden := s.(Determinizer)
	return keyed && !hidden
}
