package solve

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"runtime"
	"runtime/metrics"

	"playtest/games"
	"playtest/sim"
)

// graph is a variant's whole position graph: every position reachable from
// the start, numbered in breadth-first order (0 is the start), with its
// successors. Keys live in one arena, found through an open-addressing
// table; successors in compressed rows. Nothing in it depends on map
// order, so a solve is reproducible.
type graph struct {
	// symmetric files each position under its canonical key
	// (games.Symmetric): one position of each class of images.
	symmetric bool
	keyLen    int
	keys      []byte
	table     []uint32 // position index + 1; 0 is empty
	seed      maphash.Seed
	// mover is the seat to move, or terminalMover; winner is a finished
	// position's winning seat (games.NoPlayer for a draw).
	mover  []int8
	winner []int8
	// depth is the fewest plies from the start.
	depth []int32
	// succ[off[i]:off[i+1]] are position i's successors, in the order of
	// its legal moves.
	off  []uint32
	succ []int32
}

const (
	terminalMover = int8(games.Terminal)
	chanceMover   = int8(games.Chance)
)

// bytesPerPosition is the peak memory of one position besides its key, as
// measured (maximum resident size over positions, with the key's length
// taken off): Stacktics size 2 on 4×4 peaked at 146 bytes a position with
// its 33-byte keys while enumerating 50 million, size 2 on 2×3 at 139 with
// 13-byte keys through the whole solve of 27.4 million. It covers the
// table slots, mover, winner, depth, offset, about 20 successors, the
// retrograde pass's predecessors, counters, values and queue, and the
// slack of growing slices; 130 leaves a margin over both.
const bytesPerPosition = 130

// TooLargeError says the position graph has more positions than allowed.
type TooLargeError struct {
	Max   int
	Depth int
	// BytesPerPos is what a position takes: its key and the graph's share,
	// or more where the positions found were measured to take more (a
	// scripted game's hold script values).
	BytesPerPos int
	// ByMemory says Max is as many positions as fit in the memory
	// playtest may use.
	ByMemory bool
	// Searched says a proof by search (Search) kept Max bounds.
	Searched bool
}

func (e *TooLargeError) Error() string {
	if e.Searched {
		return fmt.Sprintf("the proof by search kept %d positions' bounds, its limit, without an answer: raise --max-states, or prove the forced wins within a horizon with --depth N", e.Max)
	}
	if e.ByMemory {
		return fmt.Sprintf("the position graph has more than %d positions (the enumeration passed them %d plies from the start), as many as fit in the %s playtest may use on this machine (about %d bytes each): prove the forced wins within a horizon with --depth N",
			e.Max, e.Depth, sim.Bytes(sim.Usable()), e.BytesPerPos)
	}
	return fmt.Sprintf("the position graph has more than %d positions (the enumeration passed them %d plies from the start): raise --max-states (about %d bytes each, %s for these), or prove the forced wins within a horizon with --depth N",
		e.Max, e.Depth, e.BytesPerPos, sim.Bytes(int64(e.Max)*int64(e.BytesPerPos)))
}

// MemoryError refuses a --max-states whose graph may not fit in the
// memory playtest may use, before anything is allocated.
type MemoryError struct {
	MaxStates, BytesPerPos int
	Usable                 int64
}

func (e *MemoryError) Error() string {
	fits := e.Usable / int64(e.BytesPerPos)
	return fmt.Sprintf("--max-states %d may take %s (about %d bytes a position), more than the %s playtest may use on this machine (3/4 of its memory; %s sets it): lower --max-states to at most %d, or prove the forced wins within a horizon with --depth N",
		e.MaxStates, sim.Bytes(int64(e.MaxStates)*int64(e.BytesPerPos)), e.BytesPerPos, sim.Bytes(e.Usable), sim.MemoryEnv, fits)
}

// BadInput marks the error as the user's setting.
func (e *MemoryError) BadInput() bool { return true }

// memoryMeter measures what the positions of a graph take: the live heap
// beyond what it was when the enumeration began.
type memoryMeter struct{ base uint64 }

func newMemoryMeter() memoryMeter { return memoryMeter{base: liveHeap(true)} }

// perPosition is the live heap grown since the start over n positions; a
// collection first when exact (at the end), else the last collection's
// count (once a second while enumerating).
func (m memoryMeter) perPosition(n int, exact bool) int {
	live := liveHeap(exact)
	if n == 0 || live <= m.base {
		return 0
	}
	return int((live - m.base) / uint64(n))
}

// liveHeap is the live heap in bytes, after a collection when exact.
func liveHeap(exact bool) uint64 {
	if exact {
		runtime.GC()
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// positionsThatFit is the most positions of keyLen-byte keys whose graph
// fits in the memory playtest may use (0: no limit known).
func positionsThatFit(keyLen int) int {
	usable := sim.Usable()
	if usable <= 0 {
		return 0
	}
	return int(usable / int64(keyLen+bytesPerPosition))
}

// enumerate builds the graph of g from its start, stopping with a
// *TooLargeError past maxStates positions, or with ctx's error within a
// position of its cancellation. progress, if set, is called once a second
// with the positions found.
func enumerate(ctx context.Context, g games.Game, start games.State, maxStates int, symmetric bool, progress func(positions, bytesEach int)) (*graph, error) {
	if err := checkSolvable(start); err != nil {
		return nil, err
	}
	// What a position really costs is measured as the graph grows: a
	// scripted game's positions hold script values beside their keys, many
	// times bytesPerPosition.
	mem := newMemoryMeter()
	_, canSym := start.(games.Symmetric)
	gr := &graph{seed: maphash.MakeSeed(), symmetric: symmetric && canSym}
	key := gr.appendKey(nil, start)
	gr.keyLen = len(key)
	gr.table = make([]uint32, tableSize(1<<16))
	gr.add(key, start, 0)
	s := g.NewState()
	child := g.NewState()
	var moves []games.Move
	buf := make([]byte, 0, gr.keyLen)
	gr.off = append(gr.off, 0)
	pace := newPace(ctx)
	defer pace.done()
	for i := 0; i < len(gr.mover); i++ {
		if pace.stopped() {
			return nil, ctx.Err()
		}
		if pace.due() {
			each := max(gr.keyLen+bytesPerPosition, mem.perPosition(len(gr.mover), false))
			if usable := sim.Usable(); usable > 0 && int64(each)*int64(len(gr.mover)) > usable {
				// The positions so far fill the memory playtest may use.
				return nil, &TooLargeError{Max: len(gr.mover), Depth: int(gr.depth[i]), BytesPerPos: each, ByMemory: true}
			}
			if progress != nil {
				progress(len(gr.mover), each)
			}
		}
		if gr.mover[i] == chanceMover {
			return nil, &UnsolvableError{"the game has chance events (a shuffle, a deal): only games without chance can be solved exactly"}
		}
		if gr.mover[i] != terminalMover {
			s.(games.Keyer).SetKey(gr.key(i))
			moves = s.LegalMoves(moves[:0])
			for _, m := range moves {
				child.CopyFrom(s)
				child.Apply(m)
				buf = gr.appendKey(buf[:0], child)
				if len(buf) != gr.keyLen {
					return nil, fmt.Errorf("the game's keys vary in length (%d and %d bytes)", gr.keyLen, len(buf))
				}
				j, found := gr.find(buf)
				if !found {
					if len(gr.mover) >= maxStates {
						return nil, &TooLargeError{Max: maxStates, Depth: int(gr.depth[i]) + 1,
							BytesPerPos: max(gr.keyLen+bytesPerPosition, mem.perPosition(len(gr.mover), true))}
					}
					j = gr.add(buf, child, gr.depth[i]+1)
				}
				gr.succ = append(gr.succ, int32(j))
			}
		}
		if len(gr.succ) >= 1<<32-1 {
			return nil, fmt.Errorf("the position graph has more than 2³² moves")
		}
		gr.off = append(gr.off, uint32(len(gr.succ)))
	}
	return gr, nil
}

// appendKey appends the key the graph files s under: its canonical key
// when the graph is symmetric, else its key.
func (gr *graph) appendKey(dst []byte, s games.State) []byte {
	if gr.symmetric {
		return s.(games.Symmetric).AppendCanonicalKey(dst)
	}
	return s.(games.Keyer).AppendKey(dst)
}

// index finds s's position in the graph.
func (gr *graph) index(s games.State) (int, bool) { return gr.find(gr.appendKey(nil, s)) }

// checkEvery is how many positions the solver handles between looks at
// its context: a few milliseconds of work.
const checkEvery = 1 << 12

func tableSize(n int) int {
	size := 1
	for size < 2*n {
		size <<= 1
	}
	return size
}

func (gr *graph) key(i int) []byte { return gr.keys[i*gr.keyLen : (i+1)*gr.keyLen] }

// find returns the index of key's position, or false.
func (gr *graph) find(key []byte) (int, bool) {
	mask := uint64(len(gr.table) - 1)
	for h := maphash.Bytes(gr.seed, key) & mask; ; h = (h + 1) & mask {
		slot := gr.table[h]
		if slot == 0 {
			return 0, false
		}
		if bytes.Equal(gr.key(int(slot-1)), key) {
			return int(slot - 1), true
		}
	}
}

// add appends a new position and returns its index.
func (gr *graph) add(key []byte, s games.State, depth int32) int {
	i := len(gr.mover)
	if 2*(i+1) > len(gr.table) {
		gr.grow()
	}
	gr.keys = append(gr.keys, key...)
	mover, winner := int8(s.CurrentPlayer()), int8(games.NoPlayer)
	if mover == int8(games.Chance) {
		mover = chanceMover
	}
	if s.IsTerminal() {
		mover, winner = terminalMover, int8(s.Result().Winner)
	}
	gr.mover = append(gr.mover, mover)
	gr.winner = append(gr.winner, winner)
	gr.depth = append(gr.depth, depth)
	gr.insert(key, i)
	return i
}

func (gr *graph) insert(key []byte, i int) {
	mask := uint64(len(gr.table) - 1)
	h := maphash.Bytes(gr.seed, key) & mask
	for gr.table[h] != 0 {
		h = (h + 1) & mask
	}
	gr.table[h] = uint32(i + 1)
}

// grow doubles the table.
func (gr *graph) grow() {
	gr.table = make([]uint32, 2*len(gr.table))
	for i := range gr.mover {
		gr.insert(gr.key(i), i)
	}
}

func (gr *graph) successors(i int) []int32 { return gr.succ[gr.off[i]:gr.off[i+1]] }
