package stats

import (
	"math"
	"slices"
)

// Holm returns Holm's step-down adjusted p-values (R's p.adjust(p,
// "holm")): rejecting each hypothesis whose adjusted p-value is at most α
// controls the family-wise error rate at α.
func Holm(p []float64) []float64 {
	m := len(p)
	order := ascending(p)
	adj := make([]float64, m)
	running := 0.0
	for rank, i := range order {
		running = math.Max(running, math.Min(1, float64(m-rank)*p[i]))
		adj[i] = running
	}
	return adj
}

// BenjaminiHochberg returns the Benjamini–Hochberg adjusted p-values (R's
// p.adjust(p, "BH")): rejecting each hypothesis whose adjusted p-value is
// at most α controls the false discovery rate at α.
func BenjaminiHochberg(p []float64) []float64 {
	m := len(p)
	order := ascending(p)
	adj := make([]float64, m)
	running := 1.0
	for rank := m - 1; rank >= 0; rank-- {
		i := order[rank]
		running = math.Min(running, float64(m)*p[i]/float64(rank+1))
		adj[i] = running
	}
	return adj
}

// ascending returns the indices of p in increasing order of value (ties
// in index order).
func ascending(p []float64) []int {
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	return order
}
