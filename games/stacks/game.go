package stacks

import (
	"strconv"
	"strings"

	"playtest/games"
	"playtest/games/pcg"
)

// Game is an immutable STACKS variant with its precomputed move paths.
type Game struct {
	rules       Rules
	stock       [MaxValue + 1]uint8 // cards of each value in a full stock
	cards       int                 // cards per player
	hand        int
	maxHeight   int
	blocking    bool
	handScope   bool
	fourCards   bool
	match       bool
	target      int
	loserStarts bool
	maxGames    int
	endNow      bool // match.end immediately
	// paths[seat][v][sq] are the moves of a v-card from sq.
	paths [2][MaxValue + 1][Squares]paths
	// straightDst and backwardDst [seat][v][sq] are those of
	// paths[seat][v][sq], dense.
	straightDst, backwardDst [2][MaxValue + 1][Squares]uint32
	// straightShift[seat][v] is straightDst[seat][v] as a shift.
	straightShift [2][MaxValue + 1]axisShift
	initial       State
}

// New builds a game from validated rules.
func New(r Rules) *Game {
	g := &Game{
		rules: r, cards: r.Cards.Total(), hand: r.HandSize, maxHeight: r.MaxHeight,
		blocking: r.Blocking, handScope: r.MustStackScope == ScopeHand, fourCards: r.FourCardMoves,
	}
	for v := 1; v <= MaxValue; v++ {
		g.stock[v] = uint8(r.Cards.count(v))
	}
	if m := r.Match; m != nil {
		g.match, g.target, g.loserStarts, g.maxGames = true, *m.Target, *m.LoserStarts, *m.MaxGames
		g.endNow = m.End == MatchEndImmediately
	}
	for seat := range 2 {
		for v := 1; v <= MaxValue; v++ {
			for sq := range Squares {
				g.paths[seat][v][sq] = buildPaths(seat, v, sq, r.Diagonal == DiagonalZigzag)
				g.straightDst[seat][v][sq] = g.paths[seat][v][sq].straightDst
				g.backwardDst[seat][v][sq] = g.paths[seat][v][sq].backwardDst
			}
			g.straightShift[seat][v] = newAxisShift(&g.straightDst[seat][v])
		}
	}
	s := &g.initial
	s.g = g
	s.winner = games.NoPlayer
	s.startGame(games.Seat0)
	return g
}

// Name returns "stacks".
func (g *Game) Name() string { return Definition.Name }

// Rules returns the variant's rules.
func (g *Game) Rules() Rules { return g.rules }

// NewState returns a game before the hands are drawn.
func (g *Game) NewState() games.State { s := g.initial; return &s }

// MaxLegalMoves bounds the decisions at any state: every card value from
// every square to every other square, or no move.
func (g *Game) MaxLegalMoves() int { return MaxValue * (Squares*(Squares-1) + 1) }

// Sides names the colours: Red (seat 0, horizontal) and Green (seat 1,
// vertical). Players keep their colour through a match.
func (g *Game) Sides() []string { return []string{"red", "green"} }

// PerftStart returns the position perft starts from: the start of a game
// whose stocks are shuffled from seed's stream and then fixed, so that the
// game has no chance nodes, and the line naming the deal.
func (g *Game) PerftStart(seed uint64) (games.State, string) {
	rng := pcg.New(seed, 0x737461636b73) // "stacks"
	var deal [2][]int
	for seat := range 2 {
		for v := 1; v <= MaxValue; v++ {
			for range g.stock[v] {
				deal[seat] = append(deal[seat], v)
			}
		}
		rng.Shuffle(len(deal[seat]), func(i, j int) { deal[seat][i], deal[seat][j] = deal[seat][j], deal[seat][i] })
	}
	s := g.initial
	if err := s.FixDeal(deal[0], deal[1]); err != nil {
		panic(err) // the deal is a permutation of the stocks
	}
	return &s, DealString(deal[0], deal[1])
}

// DealString writes a deal as the spec's perft output does:
// "deal: red V V … | green V V …", each stock top first.
func DealString(red, green []int) string {
	var b strings.Builder
	b.WriteString("deal: red")
	for _, v := range red {
		b.WriteString(" " + strconv.Itoa(v))
	}
	b.WriteString(" | green")
	for _, v := range green {
		b.WriteString(" " + strconv.Itoa(v))
	}
	return b.String()
}

// Reasons declares how a game or match can end (games.Reasoner): the
// higher score wins a single game (equal scores tie); a match is won by
// reaching the target, and drawn at its game cap.
func (g *Game) Reasons() []games.ReasonDoc {
	return []games.ReasonDoc{
		{Name: ReasonScore, Outcome: games.Decisive},
		{Name: ReasonTie, Outcome: games.Drawn},
		{Name: ReasonMatchTarget, Outcome: games.Decisive},
		{Name: games.ReasonMaxGames, Outcome: games.Drawn},
	}
}
