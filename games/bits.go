package games

import "math/bits"

// NthBit returns the index of the k-th set bit of x (from 0, lowest
// first); k must be below the number of set bits. It finds k's byte by
// comparing k with the running popcounts of all the bytes at once, then the
// bit in a table: no loop and no branch for a random k to mispredict. Move
// pickers use it to turn a drawn index into a square.
func NthBit(x uint64, k int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	// The popcount of each byte, then running sums: byte i counts the set
	// bits of bytes 0 to i (at most 64, so no byte overflows).
	c := x - x>>1&0x5555555555555555
	c = c&0x3333333333333333 + c>>2&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	sums := c * ones
	// In each byte, k + 128 − sum keeps its top bit exactly when sum ≤ k
	// (and never borrows from the next): those bytes come before k's.
	kPlus128 := uint64(k)*ones | highs
	shift := 8 * bits.OnesCount64((kPlus128-sums)&highs)
	before := int(sums << 8 >> shift & 0xff) // set bits below k's byte
	return shift + int(bitInByte[int(x>>shift&0xff)<<3|(k-before)])
}

// bitInByte[b<<3|r] is the index of the r-th set bit of the byte b.
var bitInByte = func() (t [256 * 8]uint8) {
	for b := range 256 {
		r := 0
		for i := range 8 {
			if b>>i&1 == 1 {
				t[b<<3|r] = uint8(i)
				r++
			}
		}
	}
	return t
}()
