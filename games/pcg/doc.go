// Package pcg is playtest's random stream: the PCG-DXSM generator of
// math/rand/v2 with the methods of its Rand that the project uses (IntN,
// Float64, Shuffle, Uint64), giving exactly the numbers
// rand.New(rand.NewPCG(seed1, seed2)) gives. The hot loops (random moves,
// rollouts, tree selection, chance draws) call it directly, not through
// math/rand/v2's Source interface, and since the project owns it a seed's
// games do not depend on the Go release.
//
// A *Rand is also a rand.Source: rand.New(r) wraps it where a library
// wants a *rand.Rand.
package pcg
