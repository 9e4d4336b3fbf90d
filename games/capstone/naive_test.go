package capstone

// A deliberately naive second implementation of Capstone's turns, written
// from capstone.md: stacks are slices, capstones a slice of locations,
// turns are enumerated whole (placement, move or none, capstone step or
// none) and written in the engine's notation. It shares nothing with the
// engine but the rules.

import (
	"fmt"
	"slices"
	"strings"
)

type naiveCapstone struct {
	r      Rules
	n      int
	stacks [][]int // colours, bottom up
	capOn  []int   // capstone on each stack, -1 none
	capAt  []int   // stack of each capstone, -1 stash
	stash  [2][]int
}

func newNaiveCapstone(r Rules) *naiveCapstone {
	nc := &naiveCapstone{r: r, n: r.StacksPerSize}
	nc.stacks = make([][]int, 2*nc.n)
	nc.capOn = make([]int, 2*nc.n)
	for i := range nc.capOn {
		nc.capOn[i] = -1
	}
	caps := r.Colors
	if r.Capstones == CapstonesNeutral {
		caps = r.NeutralCapstones
	}
	nc.capAt = make([]int, caps)
	for i := range nc.capAt {
		nc.capAt[i] = -1
	}
	for size := range 2 {
		nc.stash[size] = make([]int, r.Colors)
		for c := range r.Colors {
			nc.stash[size][c] = r.PiecesPerColor
		}
	}
	return nc
}

func (nc *naiveCapstone) clone() *naiveCapstone {
	c := *nc
	c.stacks = make([][]int, len(nc.stacks))
	for i := range nc.stacks {
		c.stacks[i] = slices.Clone(nc.stacks[i])
	}
	c.capOn, c.capAt = slices.Clone(nc.capOn), slices.Clone(nc.capAt)
	c.stash = [2][]int{slices.Clone(nc.stash[0]), slices.Clone(nc.stash[1])}
	return &c
}

func (nc *naiveCapstone) name(st int) string {
	if st < nc.n {
		return fmt.Sprintf("L%d", st+1)
	}
	return fmt.Sprintf("M%d", st-nc.n+1)
}

func (nc *naiveCapstone) size(st int) int {
	if st < nc.n {
		return 0
	}
	return 1
}

// placements lists the legal placements as (colour, stack).
func (nc *naiveCapstone) placements() [][2]int {
	var out [][2]int
	for st := range nc.stacks {
		if len(nc.stacks[st]) >= nc.r.StackHeight || nc.capOn[st] >= 0 {
			continue
		}
		for c := range nc.r.Colors {
			if nc.stash[nc.size(st)][c] > 0 {
				out = append(out, [2]int{c, st})
			}
		}
	}
	return out
}

// moves lists the step-2 moves after a placement on placed.
func (nc *naiveCapstone) moves(placed int) [][2]int {
	var out [][2]int
	for src := range nc.stacks {
		if src == placed || len(nc.stacks[src]) == 0 || nc.capOn[src] >= 0 {
			continue
		}
		for dst := range nc.stacks {
			if dst != src && nc.size(dst) == nc.size(src) && len(nc.stacks[dst]) < nc.r.StackHeight && nc.capOn[dst] < 0 {
				out = append(out, [2]int{src, dst})
			}
		}
	}
	return out
}

// capSteps lists the capstone steps after moving a piece of colour moved,
// as (capstone, destination), one per distinct (origin, destination).
func (nc *naiveCapstone) capSteps(moved int) [][2]int {
	var candidates []int
	if nc.r.Capstones == CapstonesPerColor {
		candidates = []int{moved}
	} else {
		seenStash := false
		for k, at := range nc.capAt {
			if at < 0 {
				if seenStash {
					continue
				}
				seenStash = true
			}
			candidates = append(candidates, k)
		}
	}
	var out [][2]int
	for _, k := range candidates {
		for dst := range nc.stacks {
			if nc.capOn[dst] < 0 && dst != nc.capAt[k] {
				out = append(out, [2]int{k, dst})
			}
		}
	}
	return out
}

func (nc *naiveCapstone) place(c, st int) {
	nc.stacks[st] = append(nc.stacks[st], c)
	nc.stash[nc.size(st)][c]--
}

func (nc *naiveCapstone) move(src, dst int) int {
	top := nc.stacks[src][len(nc.stacks[src])-1]
	nc.stacks[src] = nc.stacks[src][:len(nc.stacks[src])-1]
	nc.stacks[dst] = append(nc.stacks[dst], top)
	return top
}

func (nc *naiveCapstone) capstone(k, dst int) {
	if at := nc.capAt[k]; at >= 0 {
		nc.capOn[at] = -1
	}
	nc.capOn[dst] = k
	nc.capAt[k] = dst
}

// turns calls f with every complete turn (written in notation) and the
// position after it.
func (nc *naiveCapstone) turns(f func(text string, after *naiveCapstone)) {
	for _, p := range nc.placements() {
		placed := nc.clone()
		placed.place(p[0], p[1])
		text := fmt.Sprintf("%c@%s", colorLetters[p[0]], nc.name(p[1]))
		ms := placed.moves(p[1])
		if len(ms) == 0 {
			f(text, placed)
			continue
		}
		f(text+" stop", placed)
		for _, m := range ms {
			moved := placed.clone()
			color := moved.move(m[0], m[1])
			mtext := text + " " + nc.name(m[0]) + ">" + nc.name(m[1])
			for _, cs := range moved.capSteps(color) {
				done := moved.clone()
				ctext := "^" + nc.name(cs[1])
				if at := done.capAt[cs[0]]; at >= 0 {
					ctext = "^" + nc.name(at) + ">" + nc.name(cs[1])
				}
				done.capstone(cs[0], cs[1])
				f(mtext+" "+ctext, done)
			}
		}
	}
}

// countTurns counts the turns without building the final positions.
func (nc *naiveCapstone) countTurns() uint64 {
	var n uint64
	for _, p := range nc.placements() {
		placed := nc.clone()
		placed.place(p[0], p[1])
		ms := placed.moves(p[1])
		n++ // no move, or stop
		for _, m := range ms {
			moved := placed.clone()
			color := moved.move(m[0], m[1])
			n += uint64(len(moved.capSteps(color)))
		}
	}
	return n
}

func (nc *naiveCapstone) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 {
		return nc.countTurns()
	}
	var n uint64
	nc.turns(func(_ string, after *naiveCapstone) { n += after.perft(depth - 1) })
	return n
}

// turnTexts lists every turn's notation, sorted.
func (nc *naiveCapstone) turnTexts() []string {
	var out []string
	nc.turns(func(text string, _ *naiveCapstone) { out = append(out, text) })
	slices.Sort(out)
	return out
}

// applyTurn plays a turn written in notation.
func (nc *naiveCapstone) applyTurn(text string) {
	var found *naiveCapstone
	nc.turns(func(t string, after *naiveCapstone) {
		if t == text {
			found = after
		}
	})
	if found == nil {
		panic("naive: no turn " + text + " in " + strings.Join(nc.turnTexts(), ","))
	}
	*nc = *found
}
