package prove

import "encoding/binary"

// The transposition table: buckets of two 16-byte entries, each a 64-bit
// check of the position's key and its data. The first slot of a bucket
// keeps the entry that took the most work to find (the larger subtree),
// the second the newest: a deep proof is not pushed out by the leaves
// searched after it (the "two-tier" policy of chess programs).
//
// A game whose exact key packs into 64 bits (games.PackedKeyer) stores the
// key itself: the table is exact. Any other game's key is hashed to 64
// bits: a false match needs two keys with one hash, about one chance in
// 10^19 a probe. The bucket is chosen by a hash of the check, so the table
// can grow: it starts small and doubles while it is half full, up to its
// size, and then replaces.

// entry is one position's bounds. data packs, from the low bits: the
// lower and upper bounds (int16 each, node-relative: a win in d decisions
// from the position scores mate − d), the horizon they hold for (uint16,
// noHorizon for the whole game), the best move + 1 (uint8, 0 for none or
// one too large to keep), the work (log₂ of the positions searched below),
// and a bit saying the entry is used.
type entry struct {
	check uint64
	data  uint64
}

const (
	usedBit   = uint64(1) << 62
	noHorizon = 0xffff
)

func pack(lo, hi int32, rem int, move uint8, work uint8) uint64 {
	return uint64(uint16(int16(lo))) | uint64(uint16(int16(hi)))<<16 | uint64(uint16(rem))<<32 |
		uint64(move)<<48 | uint64(work&63)<<56 | usedBit
}

func unpack(d uint64) (lo, hi int32, rem int, move uint8, work uint8) {
	return int32(int16(d)), int32(int16(d >> 16)), int(uint16(d >> 32)), uint8(d >> 48), uint8(d>>56) & 63
}

// table is an array of buckets.
type table struct {
	slots []entry
	mask  uint64 // buckets − 1
	used  int    // entries in use
	max   int    // the most slots it grows to
	fixed bool   // it starts at max
}

// minEntries is the smallest table, startEntries where it starts.
const (
	minEntries   = 1 << 10
	startEntries = 1 << 16
)

// newTable returns a table that grows to entries (rounded down to a power
// of two, at least minEntries), or with fixed starts there.
func newTable(entries int, fixed bool) *table {
	n := minEntries
	for n*2 <= entries {
		n *= 2
	}
	t := &table{max: n, fixed: fixed}
	t.resize(t.start())
	return t
}

// start is the table's starting size.
func (t *table) start() int {
	if t.fixed {
		return t.max
	}
	return min(t.max, startEntries)
}

func (t *table) resize(n int) {
	old := t.slots
	t.slots, t.mask, t.used = make([]entry, n), uint64(n/2-1), 0
	for _, e := range old {
		if e.data&usedBit != 0 {
			t.put(e.check, e.data)
		}
	}
}

// bucket is the bucket a check picks.
func (t *table) bucket(check uint64) []entry {
	b := (mix(check^0x5851f42d4c957f2d) & t.mask) * 2
	return t.slots[b : b+2 : b+2]
}

func (t *table) probe(check uint64) (uint64, bool) {
	b := t.bucket(check)
	for i := range b {
		if b[i].check == check && b[i].data&usedBit != 0 {
			return b[i].data, true
		}
	}
	return 0, false
}

// store keeps data for a key: over its own entry (merged with it when both
// hold for the same horizon: the tighter bounds of two null-window
// searches), else in the first slot if it took at least that slot's work,
// pushing the first slot's entry to the second, else in the second.
func (t *table) store(check uint64, data uint64) {
	if 2*t.used >= len(t.slots) && len(t.slots) < t.max {
		t.resize(2 * len(t.slots))
	}
	t.put(check, data)
}

func (t *table) put(check uint64, data uint64) {
	b := t.bucket(check)
	for i := range b {
		if b[i].check == check && b[i].data&usedBit != 0 {
			b[i].data = merge(b[i].data, data)
			if i == 1 && work(b[1].data) > work(b[0].data) {
				b[0], b[1] = b[1], b[0]
			}
			return
		}
	}
	if b[0].data&usedBit == 0 || work(data) >= work(b[0].data) {
		switch {
		case b[0].data&usedBit == 0:
			t.used++
		case b[1].data&usedBit == 0:
			t.used++
			b[1] = b[0]
		default:
			b[1] = b[0]
		}
		b[0] = entry{check, data}
		return
	}
	if b[1].data&usedBit == 0 {
		t.used++
	}
	b[1] = entry{check, data}
}

func work(d uint64) uint8 { return uint8(d>>56) & 63 }

// merge combines an entry's old and new data: the tighter bounds when both
// hold for one horizon, else the new.
func merge(old, new uint64) uint64 {
	olo, ohi, orem, _, owork := unpack(old)
	lo, hi, rem, move, w := unpack(new)
	if orem != rem {
		return new
	}
	lo, hi = max(lo, olo), min(hi, ohi)
	if lo > hi {
		return new
	}
	return pack(lo, hi, rem, move, max(w, owork))
}

// hashKey hashes a key's bytes to 64 bits (a splitmix64 finalizer chain
// over its 8-byte words; the same on every run).
func hashKey(key []byte) uint64 {
	h := uint64(0x243f6a8885a308d3)
	for len(key) > 0 {
		var w uint64
		if len(key) >= 8 {
			w = binary.LittleEndian.Uint64(key)
			key = key[8:]
		} else {
			for i, c := range key {
				w |= uint64(c) << (8 * i)
			}
			w ^= uint64(len(key)) << 59
			key = nil
		}
		h = mix(h ^ w)
	}
	return h
}

// mix is splitmix64's finalizer.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
