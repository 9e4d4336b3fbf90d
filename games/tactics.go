package games

// Tactics: optional hooks a game gives the prover (games/prove) so that it
// proves faster. None is needed for a proof, none changes its answer, and
// the conformance suite (games/gamestest) checks each against a brute
// force at every decision of its random games: a hook that lies is caught
// there, not trusted.

// WinFinder is implemented by states that find a move winning at once
// without playing every move: WinningMove returns a legal move after which
// the game is over and the mover has won, and true; or false when no legal
// move wins at once. It must not modify the state and must allocate
// nothing.
type WinFinder interface {
	WinningMove() (Move, bool)
}

// SafeMover is implemented by states that tell which moves do not lose at
// once: where no legal move wins at once (WinFinder says so), SafeMoves
// appends, in LegalMoves' order, exactly the legal moves after which the
// game is over, or the same seat decides again, or the seat to decide has
// no move that wins at once; every legal move it leaves out lets the other
// seat win with its next move. An empty answer means every move loses at
// once. Where a move wins at once its answer is unspecified. It must
// allocate nothing when buf has room.
type SafeMover interface {
	SafeMoves(buf []Move) []Move
}

// ThreatOrderer is implemented by states that order moves by the threats
// they make (the cells where the mover would win next, in a k-in-a-row
// game): OrderMoves reorders moves, legal moves of the state, in place,
// the most promising first, keeping the same moves. It must not modify
// the state and must allocate nothing.
type ThreatOrderer interface {
	OrderMoves(moves []Move)
}

// PackedKeyer is implemented by keyed states (Keyer) whose exact key fits
// in 64 bits on some boards: PackedKey returns a number that two positions
// share only when their keys (AppendKey) are equal, and true; or false
// when the board is too large for that. A Symmetric state's
// PackedCanonicalKey does the same for its canonical key
// (AppendCanonicalKey); others return false. A table of 64-bit entries is
// then exact, not hashed.
type PackedKeyer interface {
	PackedKey() (uint64, bool)
	PackedCanonicalKey() (uint64, bool)
}

// SortByKeys sorts moves by keys (keys[i] is moves[i]'s), highest first,
// keeping the order of equal keys: an insertion sort, for the short move
// lists of a search's ordering, allocating nothing.
func SortByKeys[K int | float64](moves []Move, keys []K) {
	for i := 1; i < len(moves); i++ {
		m, k := moves[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			moves[j], keys[j] = moves[j-1], keys[j-1]
		}
		moves[j], keys[j] = m, k
	}
}
