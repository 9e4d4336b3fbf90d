//go:build !unix

package bounded

// nonBlock is 0 where named pipes do not block an open.
const nonBlock = 0
