package script

import (
	"fmt"

	"go.starlark.net/starlark"

	"playtest/games/pcg"
)

// random is the host's random stream as a script sees it in
// determinize(state, seat, rng): rng.below(n) draws a whole number from 0
// to n − 1, rng.shuffled(list) returns a shuffled copy. It is the only
// randomness a script has: the run's seed decides it.
type random struct{ rng *pcg.Rand }

func newRandom(rng *pcg.Rand) *random { return &random{rng: rng} }

func (r *random) String() string        { return "<rng>" }
func (r *random) Type() string          { return "rng" }
func (r *random) Freeze()               {}
func (r *random) Truth() starlark.Bool  { return true }
func (r *random) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: rng") }
func (r *random) AttrNames() []string   { return []string{"below", "shuffled"} }

// Attr returns the stream's methods.
func (r *random) Attr(name string) (starlark.Value, error) {
	switch name {
	case "below":
		return starlark.NewBuiltin("below", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var n int
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &n); err != nil {
				return nil, err
			}
			if n < 1 {
				return nil, fmt.Errorf("below(%d): want at least 1", n)
			}
			return starlark.MakeInt(r.rng.IntN(n)), nil
		}), nil
	case "shuffled":
		return starlark.NewBuiltin("shuffled", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var seq starlark.Indexable
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &seq); err != nil {
				return nil, err
			}
			if err := charge(thread, 1+seq.Len()); err != nil {
				return nil, err
			}
			items := make([]starlark.Value, seq.Len())
			for i := range items {
				items[i] = seq.Index(i)
			}
			for i := len(items) - 1; i > 0; i-- {
				j := r.rng.IntN(i + 1)
				items[i], items[j] = items[j], items[i]
			}
			return starlark.NewList(items), nil
		}), nil
	}
	return nil, nil
}
