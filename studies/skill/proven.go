package skill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"playtest/reports"
	"playtest/sim/bots"
	"playtest/studies/solve"
	"playtest/variants"
)

// ProofStates bounds the positions a ladder's proof enumerates: a small
// game is solved beside its ladder in about a second, a larger one is not
// tried further. An opening book solves as far.
const ProofStates = solve.BookStates

// ProofSearchNodes bounds the positions a proof by search visits for a
// ladder: ten seconds at most (5,5,4's draw takes about one).
const ProofSearchNodes = 5 * ProofStates

// BookPlies is how many decisions of each deal a ladder's opening book
// makes where the variant is proven: enough for bots that always answer
// alike to play many different games, each from an opening whose value
// is the proven one.
const BookPlies = 4

// withBook returns the variant with an opening book of BookPlies
// decisions where it is proven and has none of its own (and opts allow
// it): near-perfect bots then vary without a different answer to find.
func withBook(cfg *variants.Config, proven *Proven, opts Options) (*variants.Config, error) {
	if proven == nil || opts.NoBook || cfg.Book > 0 {
		return cfg, nil
	}
	if cfg.Text == nil {
		c := *cfg
		c.Book = BookPlies
		return &c, nil
	}
	n, err := cfg.With(variants.Override{Path: "book", Value: fmt.Sprint(BookPlies), Origin: origin})
	if err != nil {
		return nil, err
	}
	n.Source, n.Name = cfg.Source, cfg.Name
	return n, nil
}

// bookLine says where the ladder's games opened from a book.
func (r *Result) bookLine() string {
	if r.Book == 0 {
		return ""
	}
	if r.BookBot != "" {
		return fmt.Sprintf("Openings: each deal's first %d decisions were chosen by %s (the variant's book_bot:), the same at every rung and in both games of a pair. Such a book is not proven: the ladder measures the game after its openings.", r.Book, r.BookBot)
	}
	if r.Proven == nil {
		return fmt.Sprintf("Openings: each deal's first %d decisions came from the variant's opening book (book: %d).", r.Book, r.Book)
	}
	source := "an opening book from playtest solve"
	if r.Proven.Searched {
		source = "an opening book whose every move is proven by search to keep it"
	}
	return fmt.Sprintf("Openings: each deal's first %d decisions are drawn at random among the moves that keep the proven value (%s, the same for both games of a pair), so bots that always answer alike still play different games, each from a position perfect play scores as it scores the start (--no-book plays from the start).", r.Book, source)
}

// Proven is the variant's value with perfect play, where playtest solve
// finishes within ProofStates: the answer the ladder should approach.
type Proven struct {
	Value     string `json:"value"`
	Positions int    `json:"positions"`
	// UpToSymmetry says Positions counts each with its reflections and
	// rotations once (solve.Result.UpToSymmetry).
	UpToSymmetry bool `json:"up_to_symmetry,omitempty"`
	// Searched says the value was proven by search (solve.Search, where
	// the graph is too large to enumerate): Positions then counts the
	// bounds it kept, and its opening book proves each move it plays by
	// search (solve.SearchBook).
	Searched bool `json:"searched,omitempty"`
	// Seat0Score is seat 0's score with perfect play: 1, ½ or 0.
	Seat0Score float64 `json:"seat0_score"`
}

// proofs caches the proofs tried in this process, by game and rules (a
// proof depends on nothing else): the ladders of skill --families, and
// every ladder after the first on the same rules, try it once.
var proofs struct {
	sync.Mutex
	tried map[string]*Proven
}

// prove solves the variant when it is small enough; nil otherwise (too
// large, chance or hidden information, or no exact keys), and nil for a
// variant whose games open with a book bot's lines (book_bot:): those
// openings need not keep the start's value, so the start's proof would
// not be the answer the ladder approaches. An attempt cut short by ctx
// is not remembered.
func prove(ctx context.Context, cfg *variants.Config) *Proven {
	if cfg.DescribeBookBot() != "" {
		return nil
	}
	rules, err := json.Marshal(cfg.Rules)
	if err != nil {
		return tryProof(ctx, cfg)
	}
	key := cfg.Definition.Name + "\n" + string(rules) + "\n" + strings.Join(cfg.Opening, " ")
	proofs.Lock()
	defer proofs.Unlock()
	if p, ok := proofs.tried[key]; ok {
		return p
	}
	p := tryProof(ctx, cfg)
	if ctx.Err() == nil {
		if proofs.tried == nil {
			proofs.tried = map[string]*Proven{}
		}
		proofs.tried[key] = p
	}
	return p
}

// tryProof solves the variant within ProofStates positions, or proves its
// value by search within as many bounds.
func tryProof(ctx context.Context, cfg *variants.Config) *Proven {
	limit := ProofStates
	if cfg.ScriptOf() != nil {
		// A scripted game's positions are script values, held within the
		// scripts' memory bound: only a small game is tried.
		limit = solve.ScriptStates
	}
	res, err := solve.Run(ctx, cfg, solve.Options{MaxStates: limit})
	var tooLarge *solve.TooLargeError
	if errors.As(err, &tooLarge) && cfg.ScriptOf() == nil {
		// Too large to enumerate: a proof by search may still settle the
		// value (5,5,4's draw), within as many bounds kept and a few times
		// as many positions searched.
		res, err = solve.Search(ctx, cfg, solve.SearchOptions{MaxEntries: ProofStates, MaxNodes: ProofSearchNodes, NoOpenings: true})
	}
	if err != nil {
		return nil
	}
	p := &Proven{Value: res.Value, Positions: res.Positions, UpToSymmetry: res.UpToSymmetry, Searched: res.Searched, Seat0Score: 0.5}
	switch res.Value {
	case "seat 0 wins":
		p.Seat0Score = 1
	case "seat 1 wins":
		p.Seat0Score = 0
	case "draw":
	default:
		return nil
	}
	return p
}

// provenLine says the proven value beside the ladder, and where the top
// rung stands against it.
func (r *Result) provenLine() string {
	p := r.Proven
	if p == nil || len(r.Rungs) == 0 {
		return ""
	}
	top := r.Rungs[len(r.Rungs)-1]
	h := top.Headline
	sym := ""
	if p.UpToSymmetry {
		sym = " up to symmetry"
	}
	how := "playtest solve"
	if p.Searched {
		how = "playtest solve --search"
	}
	return fmt.Sprintf("Proven value (%s, %s positions%s): %s — seat 0 scores %s with perfect play; at %s %s the bots' %s is %s [%s], with %s draws.",
		how, bots.Thousands(p.Positions), sym, p.Value, reports.FormatPercent(p.Seat0Score), bots.Thousands(top.Budget), r.Param,
		h.Measure, reports.FormatPercent(h.Value), reports.FormatInterval(h.Low, h.High), reports.FormatPercent(top.Draws.Rate))
}

// agreeWithProof settles an undecided ladder when every game of its top
// two rungs ended in the proven result: no interval is read then (repeated
// games make intervals too narrow, and few games wide, but neither
// matters to a result every game shares and the proof says perfect play
// gives), so the ladder has converged on the proof.
func (r *Result) agreeWithProof() {
	if r.Verdict != Undecided || !r.topEndsInProof() {
		return
	}
	top, prev := r.Rungs[len(r.Rungs)-1], r.Rungs[len(r.Rungs)-2]
	r.Verdict, r.Direction, r.Missing = Converged, "", ""
	r.Text = fmt.Sprintf("Converged on the proven value: every game of the top two rungs (%s and %s %s, %d and %d games) ended in the %s playtest solve proves with perfect play; whatever the intervals, stronger play cannot improve on a result that is already perfect play's.",
		bots.Thousands(prev.Budget), bots.Thousands(top.Budget), r.Param, prev.Draws.N, top.Draws.N, r.Proven.Value)
}

// topEndsInProof reports whether every game of the ladder's top two rungs
// ended in the proven value.
func (r *Result) topEndsInProof() bool {
	p := r.Proven
	if p == nil || len(r.Rungs) < 2 {
		return false
	}
	all := func(g Rung) bool {
		switch p.Seat0Score {
		case 1:
			return g.Seat0.Count == g.Seat0.N
		case 0:
			return g.Seat1.Count == g.Seat1.N
		}
		return g.Draws.Count == g.Draws.N
	}
	top, prev := r.Rungs[len(r.Rungs)-1], r.Rungs[len(r.Rungs)-2]
	return top.Draws.N > 0 && all(top) && all(prev)
}
