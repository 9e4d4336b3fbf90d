package stacktics

import (
	"math/bits"
	"testing"

	"playtest/games/pcg"
)

// TestMagicAttacks compares the magic tables with a plain ray walk on random
// occupancies of every square.
func TestMagicAttacks(t *testing.T) {
	magicsOnce.Do(initMagics)
	rng := pcg.New(1, 2)
	for sq := range 64 {
		for range 200 {
			occ := rng.Uint64() & rng.Uint64()
			if got, want := rookAttacks(sq, occ), slowAttacks(sq, occ, rookSteps); got != want {
				t.Fatalf("rook on %d, occupancy %#x: %#x, want %#x", sq, occ, got, want)
			}
			if got, want := bishopAttacks(sq, occ), slowAttacks(sq, occ, bishopSteps); got != want {
				t.Fatalf("bishop on %d, occupancy %#x: %#x, want %#x", sq, occ, got, want)
			}
		}
	}
}

// TestMagicSearch checks that the search that produced the factors works:
// the factor it finds for a few squares fills a table without collisions.
func TestMagicSearch(t *testing.T) {
	seed := uint64(0x5ac71c5)
	next := func() uint64 { // xorshift64*
		seed ^= seed >> 12
		seed ^= seed << 25
		seed ^= seed >> 27
		return seed * 0x2545f4914f6cdd1d
	}
	var rooks, bishops [64]uint64
	for _, sq := range []int{0, 9, 27, 63} {
		rooks[sq] = searchMagic(sq, rookSteps, next)
		bishops[sq] = searchMagic(sq, bishopSteps, next)
	}
	defer func() {
		if p := recover(); p != nil {
			t.Fatal(p)
		}
	}()
	var tr, tb [64]magic
	// fill panics on a collision; squares without a found factor are skipped
	// by giving them a verified one.
	for sq := range 64 {
		if rooks[sq] == 0 {
			rooks[sq], bishops[sq] = rookFactors[sq], bishopFactors[sq]
		}
	}
	fill(&tr, &rooks, rookSteps)
	fill(&tb, &bishops, bishopSteps)
}

// searchMagic finds a magic factor for one square by trying sparse random
// numbers (next draws them) until no two relevant occupancies with different
// attacks share an index.
func searchMagic(sq int, steps [4][2]int, next func() uint64) uint64 {
	mask := relevantMask(sq, steps)
	n := bits.OnesCount64(mask)
	var occs, refs []uint64
	for sub := uint64(0); ; sub = (sub - mask) & mask {
		occs = append(occs, sub)
		refs = append(refs, slowAttacks(sq, sub, steps))
		if sub == mask {
			break
		}
	}
	attacks := make([]uint64, 1<<n)
	used := make([]int, 1<<n) // the trial that last wrote each entry
	for trial := 1; ; trial++ {
		factor := next() & next() & next()
		if bits.OnesCount64((mask*factor)>>56) < 6 {
			continue
		}
		ok := true
		for i, o := range occs {
			idx := (o * factor) >> (64 - n)
			if used[idx] != trial {
				used[idx], attacks[idx] = trial, refs[i]
			} else if attacks[idx] != refs[i] {
				ok = false
				break
			}
		}
		if ok {
			return factor
		}
	}
}
