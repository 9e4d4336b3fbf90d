// Package howplays says how a game plays, beyond who wins: it maps the
// traced games' leads (sim.Record.Trace) to win probabilities, with the
// variant's learned model or a logistic fitted over the traced games
// themselves, and measures from them and from what the games recorded
// (sim.Play) the figures designers read after balance — lead changes,
// drama, decisiveness, uncertainty, stability, comebacks, turning points,
// clarity, decision moves, game-tree complexity, board coverage,
// positional repetition, outcome uniformity and the spread of game
// length — each over games (or seat-swapped pairs) with a 95% interval.
// Figures follow Browne (2008) and Ludii's evaluation metrics; their
// definitions are Glossary's.
package howplays
