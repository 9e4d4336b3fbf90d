package variants_test

// The presets with a book: key (mnk/5x5x4) load only where package solve,
// which builds the books, is linked in: this external test file links it
// into the package's tests.
import _ "playtest/studies/solve"
