package bots

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"playtest/games"
)

// Restrict holds a player to a restriction (restricted play: what a
// mechanic is worth is what a player restricted from it loses): a regular
// expression over the move notation, or a restriction the game names.
type Restrict struct {
	Forbid string `yaml:"forbid" json:"forbid,omitempty" default:"" doc:"a regular expression (Go's RE2 syntax) over the move notation: the player never plays a move it matches ('x': never capture in Stacktics)"`
	Name   string `yaml:"name" json:"name,omitempty" default:"" doc:"a restriction the game names (playtest games GAME lists them): no-swap, no-capture, no-4-card, fixed-goal-order, no-joker…"`
	re     *regexp.Regexp
}

// String writes the restriction as Describe shows it: "forbid x",
// "no-swap".
func (r Restrict) String() string {
	if r.Name != "" {
		return r.Name
	}
	return "forbid " + r.Forbid
}

// Restricted is embedded in every bot's parameters: the restrict: key of
// a players: entry, part of the run's config hash.
type Restricted struct {
	Restrict *Restrict `yaml:"restrict" json:"restrict,omitempty" default:"none" doc:"hold the player to a restriction, in its moves and inside its own search: {forbid: REGEX} over the move notation, or {name: NAME} a restriction the game names; lifted (and counted) at a decision whose every legal move it forbids"`
}

// Restriction returns the player's restriction, nil for none.
func (r *Restricted) Restriction() *Restrict { return r.Restrict }

// Restrictable is implemented by the parameters of every bot that can be
// restricted (those embedding Restricted).
type Restrictable interface {
	Restriction() *Restrict
}

// validate checks the restriction: exactly one of forbid and name, and a
// regular expression that compiles (kept compiled, for every worker).
func (r *Restricted) validate() error {
	x := r.Restrict
	switch {
	case x == nil:
		return nil
	case x.Forbid == "" && x.Name == "":
		return games.KnobErrorf("restrict", "want forbid: REGEX or name: NAME")
	case x.Forbid != "" && x.Name != "":
		return games.KnobErrorf("restrict", "want forbid: or name:, not both")
	case x.Forbid != "":
		re, err := regexp.Compile(x.Forbid)
		if err != nil {
			return games.KnobErrorf("restrict.forbid", "not a regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
		x.re = re
	}
	return nil
}

// UnknownRestrictionError is a restrict: name the game does not have.
type UnknownRestrictionError struct {
	Name  string
	Known []string
}

func (e *UnknownRestrictionError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("unknown restriction %q: this game names none (restrict with forbid: REGEX over the move notation)", e.Name)
	}
	return fmt.Sprintf("unknown restriction %q; this game names: %s", e.Name, strings.Join(e.Known, ", "))
}

// BadInput marks the error as the user's input (exit 2).
func (e *UnknownRestrictionError) BadInput() bool { return true }

// CheckRestriction checks that the spec's named restriction, if any, is one
// g names (*UnknownRestrictionError otherwise).
func (s Spec) CheckRestriction(g games.Game) error {
	_, err := NewFilter(s, g)
	return err
}

// Filter is a player's restriction compiled for one goroutine: its
// expression (compiled once, shared) and its game's predicate, with the
// notation buffer it reuses, so that filtering allocates nothing.
type Filter struct {
	re      *regexp.Regexp
	allowed func(games.State, games.Move) bool
	buf     []byte
}

// NewFilter returns the filter of the spec's restriction for game g: nil
// for a player without one.
func NewFilter(s Spec, g games.Game) (*Filter, error) {
	rp, ok := s.Params.(Restrictable)
	if !ok || rp.Restriction() == nil {
		return nil, nil
	}
	r := rp.Restriction()
	if r.Forbid != "" {
		re := r.re
		if re == nil { // parameters built without Validate
			var err error
			if re, err = regexp.Compile(r.Forbid); err != nil {
				return nil, err
			}
		}
		return &Filter{re: re, buf: make([]byte, 0, 64)}, nil
	}
	var names []string
	if rs, ok := g.(games.Restricter); ok {
		for _, x := range rs.Restrictions() {
			if x.Name == r.Name {
				return &Filter{allowed: x.Allowed}, nil
			}
			names = append(names, x.Name)
		}
	}
	return nil, &UnknownRestrictionError{Name: r.Name, Known: names}
}

// Allows reports whether the player to move in s may play m.
func (f *Filter) Allows(s games.State, m games.Move) bool {
	if f.allowed != nil {
		return f.allowed(s, m)
	}
	if ma, ok := s.(games.MoveAppender); ok {
		f.buf = ma.AppendMove(f.buf[:0], m)
		return !f.re.Match(f.buf)
	}
	return !f.re.MatchString(s.MoveString(m))
}

// Apply keeps, in place and in order, the moves of the decision in s that
// the restriction allows. When it allows none, the list is returned whole
// and lifted is true: the restriction is lifted for that decision. A nil
// filter allows everything.
func (f *Filter) Apply(s games.State, moves []games.Move) (allowed []games.Move, lifted bool) {
	if f == nil {
		return moves, false
	}
	k := 0
	for _, m := range moves {
		if f.Allows(s, m) {
			moves[k] = m // nothing is written before the first allowed move
			k++
		}
	}
	if k == 0 {
		return moves, len(moves) > 0
	}
	return moves[:k], false
}

// Keep keeps, in place and in order, the moves the restriction allows,
// with no lifting (a subset of the moves, such as the forcing ones, that
// may rightly be left empty).
func (f *Filter) Keep(s games.State, moves []games.Move) []games.Move {
	if f == nil {
		return moves
	}
	return slices.DeleteFunc(moves, func(m games.Move) bool { return !f.Allows(s, m) })
}

// RandomParams are the random bot's parameters: a restriction only.
type RandomParams struct {
	Restricted
}

// Validate checks the restriction.
func (p *RandomParams) Validate() error { return p.Restricted.validate() }

func (b *AlphaBeta) setFilter(f *Filter) { b.filter = f }
func (b *MCTS) setFilter(f *Filter)      { b.filter = f }

// WithRestriction returns the spec with its player held to r (its other
// parameters unchanged, validated); an error for a bot that cannot be
// restricted or a restriction that does not validate.
func (s Spec) WithRestriction(r Restrict) (Spec, error) {
	if _, ok := s.Params.(Restrictable); !ok {
		return s, fmt.Errorf("bot %s cannot be restricted", s.Bot)
	}
	v := reflect.ValueOf(s.Params).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	c.Elem().FieldByName("Restricted").Set(reflect.ValueOf(Restricted{Restrict: &r}))
	params := c.Interface().(Params)
	if err := params.Validate(); err != nil {
		return s, err
	}
	return Spec{Bot: s.Bot, Params: params}, nil
}
