// Package bounded reads input whose size must be bounded: files a user
// names (a variant, a manifest) and line-oriented logs, so that a path that
// is not what it claims (/dev/zero, a binary) ends in an error instead of
// filling the memory.
package bounded
