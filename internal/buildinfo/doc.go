// Package buildinfo says which playtest wrote a result: the module
// version, the commit it was built from (and whether the tree had changes),
// the Go toolchain and the build date. `playtest version` prints it,
// manifest.json records it and every report's footer names it, so a number
// in an archived report can be traced to the code that produced it.
package buildinfo
