package rundir

// The presets with a book: key (mnk/5x5x4) load only where package solve,
// which builds the books, is linked in.
import _ "playtest/studies/solve"
