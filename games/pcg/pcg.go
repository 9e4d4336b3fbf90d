package pcg

import "math/bits"

// Rand is a PCG-DXSM random stream (math/rand/v2's PCG), with the
// methods of math/rand/v2's Rand that the project uses, producing the same
// numbers. The zero value is the stream of New(0, 0).
type Rand struct {
	hi, lo uint64
}

// New returns the stream of rand.New(rand.NewPCG(seed1, seed2)).
func New(seed1, seed2 uint64) *Rand { return &Rand{hi: seed1, lo: seed2} }

// Uint64 returns a uniformly random uint64 (PCG.Uint64).
func (r *Rand) Uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	// state = state × mul + inc (128 bits)
	hi, lo := bits.Mul64(r.lo, mulLo)
	hi += r.hi*mulLo + r.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	r.lo, r.hi = lo, hi
	// DXSM output
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

// IntN returns a uniformly random int in [0, n); it panics if n ≤ 0.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("pcg: invalid argument to IntN")
	}
	return int(r.uint64n(uint64(n)))
}

// uint64n is math/rand/v2's bounded draw on 64-bit machines (Lemire's
// multiply-and-reject).
func (r *Rand) uint64n(n uint64) uint64 {
	if n&(n-1) == 0 { // a power of two: mask
		return r.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		r.reject(&hi, &lo, n)
	}
	return hi
}

// reject redraws while the product falls in the biased low range.
func (r *Rand) reject(hi, lo *uint64, n uint64) {
	thresh := -n % n
	for *lo < thresh {
		*hi, *lo = bits.Mul64(r.Uint64(), n)
	}
}

// Float64 returns a uniformly random float64 in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()<<11>>11) / (1 << 53)
}

// Shuffle permutes n elements with swap (Fisher–Yates, from the end).
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	if n < 0 {
		panic("pcg: invalid argument to Shuffle")
	}
	for i := n - 1; i > 0; i-- {
		swap(i, int(r.uint64n(uint64(i+1))))
	}
}

// Seed resets the stream to that of New(seed1, seed2).
func (r *Rand) Seed(seed1, seed2 uint64) { r.hi, r.lo = seed1, seed2 }
