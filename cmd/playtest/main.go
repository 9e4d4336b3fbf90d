package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"playtest/cmd"
)

func main() {
	stop := startProfile(os.Getenv("PLAYTEST_CPUPROFILE"))
	code := cmd.Execute(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole command to path, when set
// (see docs/performance.md), and returns what ends it.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "playtest: PLAYTEST_CPUPROFILE: %v\n", err)
		os.Exit(cmd.ExitBadInput)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
