package pcg

import (
	"math/rand/v2"
	"testing"
)

// TestSameAsMathRand checks that every method gives the numbers of
// math/rand/v2's Rand over a PCG with the same seeds, call for call, on
// bounds of every size: small, powers of two, and near 2⁶³ where the
// rejection loop runs often.
func TestSameAsMathRand(t *testing.T) {
	bounds := []int{1, 2, 3, 5, 7, 16, 33, 100, 1 << 20, 1<<20 + 1, 1<<62 + 1, 3 << 61, 1<<63 - 1}
	pick := rand.New(rand.NewPCG(11, 12))
	for seed := range uint64(200) {
		want := rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15))
		got := New(seed, seed*0x9e3779b97f4a7c15)
		for i := range 2000 {
			switch op := pick.IntN(5); op {
			case 0:
				if g, w := got.Uint64(), want.Uint64(); g != w {
					t.Fatalf("seed %d call %d: Uint64 %d, want %d", seed, i, g, w)
				}
			case 1, 2:
				n := bounds[pick.IntN(len(bounds))]
				if op == 2 {
					n = 1 + pick.IntN(1000)
				}
				if g, w := got.IntN(n), want.IntN(n); g != w {
					t.Fatalf("seed %d call %d: IntN(%d) %d, want %d", seed, i, n, g, w)
				}
			case 3:
				if g, w := got.Float64(), want.Float64(); g != w {
					t.Fatalf("seed %d call %d: Float64 %v, want %v", seed, i, g, w)
				}
			case 4:
				n := pick.IntN(12)
				a, b := make([]int, n), make([]int, n)
				for j := range n {
					a[j], b[j] = j, j
				}
				got.Shuffle(n, func(i, j int) { a[i], a[j] = a[j], a[i] })
				want.Shuffle(n, func(i, j int) { b[i], b[j] = b[j], b[i] })
				for j := range n {
					if a[j] != b[j] {
						t.Fatalf("seed %d call %d: Shuffle(%d) %v, want %v", seed, i, n, a, b)
					}
				}
			}
		}
	}
}

// TestSource checks that a *Rand serves as math/rand/v2's Source.
func TestSource(t *testing.T) {
	want := rand.New(rand.NewPCG(3, 4))
	got := rand.New(New(3, 4))
	for i := range 1000 {
		if g, w := got.NormFloat64(), want.NormFloat64(); g != w {
			t.Fatalf("call %d: NormFloat64 %v, want %v", i, g, w)
		}
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(r *Rand){
		"IntN(0)":     func(r *Rand) { r.IntN(0) },
		"Shuffle(-1)": func(r *Rand) { r.Shuffle(-1, func(int, int) {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f(New(1, 2))
		}()
	}
}

func BenchmarkIntN(b *testing.B) {
	b.Run("rng", func(b *testing.B) {
		r := New(1, 2)
		s := 0
		for i := 0; b.Loop(); i++ {
			s += r.IntN(30 + i&7)
		}
		_ = s
	})
	b.Run("math-rand", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 2))
		s := 0
		for i := 0; b.Loop(); i++ {
			s += r.IntN(30 + i&7)
		}
		_ = s
	})
}
