package stacktics

import (
	"fmt"
	"math/bits"
	"sync"
)

// Slider attacks by magic bitboards, on an 8×8 square space (square =
// row×8 + col). Boards smaller than 8×8 are embedded in it; the squares off
// the board are passed as blockers, and the attacks are masked with the
// board, so one pair of tables serves every board size.
//
// The magic factors below were found by the usual randomised search
// (searchMagic in magic_test.go, exercised by TestMagicSearch); at first use the tables are filled
// from them in a few milliseconds, and any collision would panic, so a wrong
// factor cannot go unnoticed.

type magic struct {
	mask    uint64
	factor  uint64
	shift   uint8
	attacks []uint64
}

var (
	rookMagics, bishopMagics [64]magic
	magicsOnce               sync.Once
)

var (
	rookSteps   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopSteps = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func rookAttacks(sq int, occ uint64) uint64 {
	m := &rookMagics[sq]
	return m.attacks[((occ&m.mask)*m.factor)>>m.shift]
}

func bishopAttacks(sq int, occ uint64) uint64 {
	m := &bishopMagics[sq]
	return m.attacks[((occ&m.mask)*m.factor)>>m.shift]
}

// slowAttacks walks the rays from sq on the full 8×8, stopping at (and
// including) the first occupied square.
func slowAttacks(sq int, occ uint64, steps [4][2]int) uint64 {
	var a uint64
	for _, st := range steps {
		for r, c := sq/8+st[0], sq%8+st[1]; r >= 0 && r < 8 && c >= 0 && c < 8; r, c = r+st[0], c+st[1] {
			a |= 1 << (r*8 + c)
			if occ&(1<<(r*8+c)) != 0 {
				break
			}
		}
	}
	return a
}

// relevantMask is the set of squares whose occupancy can change the attacks
// from sq: every ray square except the last one of each ray.
func relevantMask(sq int, steps [4][2]int) uint64 {
	var m uint64
	for _, st := range steps {
		for r, c := sq/8+st[0], sq%8+st[1]; ; r, c = r+st[0], c+st[1] {
			nr, nc := r+st[0], c+st[1]
			if r < 0 || r >= 8 || c < 0 || c >= 8 || nr < 0 || nr >= 8 || nc < 0 || nc >= 8 {
				break
			}
			m |= 1 << (r*8 + c)
		}
	}
	return m
}

func initMagics() {
	fill(&rookMagics, &rookFactors, rookSteps)
	fill(&bishopMagics, &bishopFactors, bishopSteps)
}

// fill builds the attack tables of every square from its magic factor.
func fill(table *[64]magic, factors *[64]uint64, steps [4][2]int) {
	for sq := range 64 {
		mask := relevantMask(sq, steps)
		n := bits.OnesCount64(mask)
		m := magic{mask: mask, factor: factors[sq], shift: uint8(64 - n), attacks: make([]uint64, 1<<n)}
		filled := make([]bool, 1<<n)
		for sub := uint64(0); ; sub = (sub - mask) & mask { // every subset of mask
			idx := (sub * m.factor) >> m.shift
			a := slowAttacks(sq, sub, steps)
			if filled[idx] && m.attacks[idx] != a {
				panic(fmt.Sprintf("stacktics: magic factor %#x of square %d collides", m.factor, sq))
			}
			m.attacks[idx], filled[idx] = a, true
			if sub == mask {
				break
			}
		}
		table[sq] = m
	}
}

var rookFactors = [64]uint64{
	0x0080032080504008, 0x0140200040021000, 0x1080081000200080, 0x0480048010000800,
	0x0600200200080411, 0x0200100402000801, 0x0480050002001480, 0x82000c0021004092,
	0x0840800040008031, 0x3915004000210482, 0x0001004011002000, 0x0509002008100102,
	0x0200808008000400, 0x0002000802000410, 0x000a000428020001, 0x0840800061000080,
	0x0000410021008000, 0x1040012010002800, 0x0010410020010010, 0x8200808010000800,
	0x1100808008000400, 0x0004808004000200, 0x0c00040008020150, 0x88010200008c2041,
	0x1000800280244000, 0x0100401280200480, 0x0140200080100081, 0x0020100080800800,
	0x8406000600200810, 0x2222000200100804, 0x5000010400100802, 0x0300088a00010044,
	0x0040002040800082, 0x0410002010400040, 0x0000410011002001, 0x00000a0012002040,
	0x0110800800800402, 0x0600020080800400, 0x100a000802000401, 0x0005040042003881,
	0x0114400182648000, 0x2020008040028020, 0x30660040208a0010, 0x2000120020420008,
	0x0809010408010010, 0x4022000400028080, 0x400c8a21108c0008, 0x0046204094120001,
	0x80c4400028800080, 0x1100400020008880, 0x0000420020108200, 0x8004100121000900,
	0x0008040080080080, 0x0002008408900200, 0x0000218208102400, 0x1023105084210200,
	0x0082810048221202, 0x0000162040820102, 0x300c200109014011, 0x01409000a1000409,
	0x0101000402080011, 0x0022005004033802, 0x101010081208c104, 0x0001044904002182,
}

var bishopFactors = [64]uint64{
	0x0290300108022142, 0x8102502105150048, 0x080802004e109008, 0x0204041081004a08,
	0x0004042100000000, 0x00143004300000c2, 0x0041010821040000, 0x00050081d0086410,
	0x0080100408280041, 0x8208080808088821, 0x0000040822004110, 0x4802040410940d88,
	0x0008045040000000, 0x0817020842080802, 0x8100040208050440, 0x0800090852100400,
	0x0850040490100143, 0x530811a00200c200, 0x0290041204011020, 0x8004000811401018,
	0x100100c820081089, 0x0003080a01100200, 0x8002051c01010800, 0x0a22020040420888,
	0x0002080091200820, 0x0001081104500426, 0x0400880010002020, 0x0200802018020020,
	0x4019001011004000, 0x0828002082100400, 0x000204000208a242, 0x2009214040a40c00,
	0x0032206002100280, 0x8994100438820480, 0x3000441000820020, 0x0000208020280201,
	0x0800420400020108, 0x8111080088220200, 0x1104012200004830, 0x8821210110020040,
	0x0101100210002000, 0x1020450430002048, 0x0820610240409800, 0x0300004010400204,
	0x6900280900409402, 0x0044410062000100, 0x0a04010404040102, 0x0202080129000820,
	0x1111013010041021, 0x00010088040230a0, 0x1080004208045008, 0x0150000108480000,
	0x1043019060220004, 0x0010e00810012400, 0x1904105002648000, 0x820c8d0802228000,
	0x0490402401209010, 0x0001210841100920, 0x00020a0200422200, 0x80020f0108208811,
	0x0800400940150112, 0x0011044002044101, 0x8108481031920400, 0x0048102908451200,
}
