// Package accuracy measures bots against perfect play: it plays a
// variant's games (chosen by index, so the sample is deterministic and a
// study resumes where it stopped), proves the value of every position a
// seat decided in with the prover (games/prove), and reports each
// player's share of decisions that keep the proven value, its blunders (a
// win given away, a draw turned into a loss) per game and by phase of the
// game, with intervals over games, the decisions its variety settings
// made apart, and the positions left unproven.
package accuracy
