// Package linelimit bounds the length of the lines a reader yields, so that
// a file that is not what it claims (/dev/zero, a binary) ends in an error
// instead of filling the memory of a line-by-line reader.
package linelimit
