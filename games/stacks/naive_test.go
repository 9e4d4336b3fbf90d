package stacks

import (
	"fmt"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// A second, naive implementation of the rules, written from the spec
// without the engine's bitboards or path tables: it walks every move square
// by square on a 7×7 grid. The tests compare the two move by move and by
// perft.

type naive struct {
	r       Rules
	h       [Size][Size]int
	hand    [2][]int // card values
	stock   [2][]int // top first
	played4 [2]bool
	toMove  int
	score   [2]int
}

// naiveMove is a decision with the points it scores.
type naiveMove struct {
	text   string
	v      int
	from   [2]int // row, col; from[0] = -1 for a pass
	to     [2]int
	points int
}

func newNaive(r Rules, red, green []int) *naive {
	n := &naive{r: r}
	for row := range Size {
		for col := range Size {
			if (row+col)%2 == 1 {
				n.h[row][col] = 1
			}
		}
	}
	for seat, deal := range [2][]int{red, green} {
		n.stock[seat] = slices.Clone(deal)
		n.hand[seat] = slices.Clone(n.stock[seat][:r.HandSize])
		n.stock[seat] = n.stock[seat][r.HandSize:]
	}
	return n
}

func (n *naive) clone() *naive {
	c := *n
	for seat := range 2 {
		c.hand[seat] = slices.Clone(n.hand[seat])
		c.stock[seat] = slices.Clone(n.stock[seat])
	}
	return &c
}

func (n *naive) over() bool { return len(n.hand[0]) == 0 && len(n.hand[1]) == 0 }

func (n *naive) name(rc [2]int) string {
	return string(rune('a'+rc[1])) + string(rune('1'+rc[0]))
}

// cell turns a player's (axis, cross) coordinates into (row, col).
func cell(seat, axis, cross int) [2]int {
	if seat == 0 {
		return [2]int{cross, axis}
	}
	return [2]int{axis, cross}
}

func in(rc [2]int) bool { return rc[0] >= 0 && rc[0] < Size && rc[1] >= 0 && rc[1] < Size }

// movesOf returns the v-card's stacking moves, empty straight moves and
// empty backward moves, as destinations keyed by "src-dst".
func (n *naive) movesOf(seat, v int) (stack, straight, backward map[string]naiveMove) {
	stack, straight, backward = map[string]naiveMove{}, map[string]naiveMove{}, map[string]naiveMove{}
	r := n.r
	four := r.FourCardMoves
	back := four && (v == 4 || (v >= 2 && n.played4[seat]))
	for row := range Size {
		for col := range Size {
			h := n.h[row][col]
			if (row+col)%2 == 0 || h == 0 || h >= r.MaxHeight {
				continue
			}
			src := [2]int{row, col}
			var axis, cross int
			if seat == 0 {
				axis, cross = col, row
			} else {
				axis, cross = row, col
			}
			empty := func(rc [2]int) bool { return rc == src || n.h[rc[0]][rc[1]] == 0 }
			land := func(path [][2]int, isBack bool) {
				dst := path[len(path)-1]
				if dst == src {
					return
				}
				if r.Blocking {
					for _, q := range path[:len(path)-1] {
						if !empty(q) {
							return
						}
					}
				}
				key := n.name(src) + "-" + n.name(dst)
				m := naiveMove{text: fmt.Sprintf("%d:%s", v, key), v: v, from: src, to: dst}
				hd := n.h[dst[0]][dst[1]]
				switch {
				case hd > 0 && h+hd <= r.MaxHeight:
					m.points = h + hd
					stack[key] = m
				case hd > 0:
				case !isBack && h == 1:
					m.points = -1
					straight[key] = m
				case !isBack:
					m.points = -2
					straight[key] = m
				default:
					m.points = -3
					backward[key] = m
				}
			}
			for _, dir := range []int{1, -1} {
				var forward [][2]int
				for i := 1; i <= v; i++ {
					q := cell(seat, axis+2*dir*i, cross)
					if !in(q) {
						break
					}
					forward = append(forward, q)
				}
				if !(four && v == 4) && len(forward) == v {
					land(forward, false)
				}
				if !back {
					continue
				}
				var diag func(path [][2]int, a, x, left, side int)
				diag = func(path [][2]int, a, x, left, side int) {
					if left == 0 {
						land(path, true)
						return
					}
					for _, s := range []int{-1, 1} {
						if side != 0 && s != side {
							continue
						}
						q := cell(seat, a-dir, x+s)
						if !in(q) {
							continue
						}
						next := side
						if r.Diagonal == DiagonalStraight {
							next = s
						}
						diag(append(slices.Clone(path), q), a-dir, x+s, left-1, next)
					}
				}
				for k := 1; k < v && k <= len(forward); k++ {
					diag(slices.Clone(forward[:k]), axis+2*dir*k, cross, v-k, 0)
				}
			}
		}
	}
	// A straight and a backward move to the same square are one decision:
	// the straight one (it comes first in the penalty order).
	for key := range straight {
		delete(backward, key)
	}
	return stack, straight, backward
}

// legal lists the decisions of the player to move, sorted by text.
func (n *naive) legal() []naiveMove {
	seat := n.toMove
	values := slices.Clone(n.hand[seat])
	slices.Sort(values)
	values = slices.Compact(values)
	type sets struct{ stack, straight, backward map[string]naiveMove }
	all := map[int]sets{}
	anyStack := false
	for _, v := range values {
		st, sa, bk := n.movesOf(seat, v)
		all[v] = sets{st, sa, bk}
		anyStack = anyStack || len(st) > 0
	}
	var out []naiveMove
	for _, v := range values {
		s := all[v]
		var chosen map[string]naiveMove
		switch {
		case len(s.stack) > 0:
			chosen = s.stack
		case anyStack && n.r.MustStackScope == ScopeHand:
			continue
		case len(s.straight) > 0:
			chosen = s.straight
		case len(s.backward) > 0:
			chosen = s.backward
		default:
			p := -4
			if n.r.FourCardMoves && v == 4 {
				p = -5
			}
			out = append(out, naiveMove{text: fmt.Sprintf("%d:pass", v), v: v, from: [2]int{-1}, points: p})
			continue
		}
		for _, m := range chosen {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b naiveMove) int {
		if a.text < b.text {
			return -1
		}
		if a.text > b.text {
			return 1
		}
		return 0
	})
	return out
}

func (n *naive) apply(m naiveMove) {
	seat := n.toMove
	if m.from[0] >= 0 {
		n.h[m.to[0]][m.to[1]] += n.h[m.from[0]][m.from[1]]
		n.h[m.from[0]][m.from[1]] = 0
	}
	n.score[seat] += m.points
	if n.r.FourCardMoves && m.v == 4 {
		n.played4[seat] = true
	}
	i := slices.Index(n.hand[seat], m.v)
	n.hand[seat] = slices.Delete(n.hand[seat], i, i+1)
	if len(n.stock[seat]) > 0 {
		n.hand[seat] = append(n.hand[seat], n.stock[seat][0])
		n.stock[seat] = n.stock[seat][1:]
	}
	n.toMove ^= 1
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if n.over() {
		return 0
	}
	moves := n.legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var total uint64
	for _, m := range moves {
		c := n.clone()
		c.apply(m)
		total += c.perft(depth - 1)
	}
	return total
}

// naiveVariants are the rule sets the naive comparison covers.
func naiveVariants() map[string]func(*Rules) {
	v := variants()
	for name, set := range v {
		r := DefaultRules()
		if set(r); r.Match != nil {
			delete(v, name) // the naive generator plays single games
		}
	}
	v["fourcards-zigzag"] = func(r *Rules) { fourCards(r); r.Diagonal = DiagonalZigzag }
	v["fourcards-blocking-hand-scope"] = func(r *Rules) {
		fourCards(r)
		r.Blocking, r.MustStackScope = true, ScopeHand
	}
	return v
}

func shuffledDeal(g *Game, rng *pcg.Rand) (red, green []int) {
	var deal [2][]int
	for seat := range 2 {
		for v := 1; v <= MaxValue; v++ {
			for range g.stock[v] {
				deal[seat] = append(deal[seat], v)
			}
		}
		rng.Shuffle(len(deal[seat]), func(i, j int) { deal[seat][i], deal[seat][j] = deal[seat][j], deal[seat][i] })
	}
	return deal[0], deal[1]
}

func engineMoves(s *State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, s.MoveString(m))
	}
	slices.Sort(out)
	return out
}

func naiveTexts(ms []naiveMove) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.text
	}
	return out
}

// TestPerftMatchesNaive compares perft with the naive generator's, from
// the deals of successive seeds of every variant: to depth 4 for the first
// three deals whose depth-4 count is at most 600,000 (some deals of the
// 4-card variants reach 10⁸, too many for the naive generator), and to
// depth 3 for the first two deals too large for that (all of them with
// hands of three). Under -race or -short, two deals to depth 3.
func TestPerftMatchesNaive(t *testing.T) {
	deep := !testenv.RaceEnabled && !testing.Short()
	const limit = 600000
	for name, set := range naiveVariants() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := DefaultRules()
			set(r)
			g := newGame(t, r)
			var checked []string
			deepDeals, shallowDeals := 0, 0
			for seed := uint64(0); seed < 40 && deepDeals < 3; seed++ {
				start, header := g.PerftStart(seed)
				depth := 0
				switch p3 := games.Perft(start, 3); {
				case !deep:
					depth = 3
					deepDeals++ // two deals suffice
					if seed == 1 {
						deepDeals = 3
					}
				case p3 < limit/10 && games.Perft(start, 4) <= limit:
					depth = 4
					deepDeals++
				case shallowDeals < 2 && p3 <= limit:
					depth = 3
					shallowDeals++
				default:
					continue
				}
				red, green := start.(*State).dealOf()
				n := newNaive(g.rules, red, green)
				for d := 1; d <= depth; d++ {
					if got, want := games.Perft(start, d), n.perft(d); got != want {
						t.Fatalf("%s: perft(%d) = %d, naive %d", header, d, got, want)
					}
				}
				checked = append(checked, fmt.Sprintf("seed %d to depth %d", seed, depth))
			}
			// Hands of three branch too much for depth 4 (about 10⁷).
			if deepDeals < 3 && g.hand == 2 {
				t.Errorf("only %d deals checked to depth 4: %v", deepDeals, checked)
			}
			t.Logf("checked %v", checked)
		})
	}
}

// dealOf returns a fixed deal's stocks, top first.
func (s *State) dealOf() (red, green []int) {
	var out [2][]int
	for seat := range 2 {
		for i := range s.g.cards {
			out[seat] = append(out[seat], int(s.deal[seat][i]))
		}
	}
	return out[0], out[1]
}

// TestRandomGamesMatchNaive plays random games from random deals on both
// implementations and compares the legal decisions, the board and the
// scores after every move, to the end of each game.
func TestRandomGamesMatchNaive(t *testing.T) {
	games := testenv.Scale(300)
	for name, set := range naiveVariants() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := DefaultRules()
			set(r)
			g := newGame(t, r)
			rng := pcg.New(7, 7)
			for game := range games {
				red, green := shuffledDeal(g, rng)
				s := g.NewState().(*State)
				if err := s.FixDeal(red, green); err != nil {
					t.Fatal(err)
				}
				n := newNaive(g.rules, red, green)
				for ply := 0; !s.IsTerminal(); ply++ {
					want := n.legal()
					if got := engineMoves(s); !slices.Equal(got, naiveTexts(want)) {
						t.Fatalf("game %d ply %d:\n%s\nengine %v\nnaive  %v", game, ply, s, got, naiveTexts(want))
					}
					m := want[rng.IntN(len(want))]
					em, err := s.ParseMove(m.text)
					if err != nil {
						t.Fatal(err)
					}
					s.Apply(em)
					n.apply(m)
					for sq := range Squares {
						if s.Height(sq) != n.h[rowOf[sq]][colOf[sq]] {
							t.Fatalf("game %d ply %d: boards differ after %s", game, ply, m.text)
						}
					}
					if s.Scores() != n.score {
						t.Fatalf("game %d ply %d: scores %v, naive %v after %s", game, ply, s.Scores(), n.score, m.text)
					}
				}
				if !n.over() {
					t.Fatalf("game %d: the engine ended before the naive game", game)
				}
			}
		})
	}
}
