package variants

import (
	"fmt"
	"slices"
	"strings"
)

// Suggest returns the candidate closest to word by edit distance, if it is
// close enough to be a likely typo, or "". A candidate that word begins,
// or whose words (split at underscores and dots) include word, comes
// first: "pie" is pie_rule, not size.
func Suggest(word string, candidates []string) string {
	if len(word) >= 3 {
		part := ""
		for _, c := range candidates {
			if c != word && (strings.HasPrefix(c, word) || slices.Contains(strings.FieldsFunc(c, func(r rune) bool { return r == '_' || r == '.' }), word)) &&
				(part == "" || len(c) < len(part)) {
				part = c
			}
		}
		if part != "" {
			return part
		}
	}
	best, bestDist := "", len(word)/3+2
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Suggestion returns ` (did you mean "x"?)` when a candidate is a likely
// typo of word, or "".
func Suggestion(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}
