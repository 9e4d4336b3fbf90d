package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// buildDate is set by the Makefile's build target
// (-ldflags "-X playtest/internal/buildinfo.buildDate=..."); a plain
// `go build` leaves it empty.
var buildDate string

// Info describes the running binary.
type Info struct {
	// Version is the module version: a tag, a pseudo-version derived from
	// the commit, or "(devel)" when the build had no VCS information.
	Version string `json:"version"`
	// Commit is the VCS revision, empty when unknown.
	Commit string `json:"commit,omitempty"`
	// CommitTime is the revision's commit time (RFC 3339), empty when unknown.
	CommitTime string `json:"commit_time,omitempty"`
	// Modified reports uncommitted changes in the tree that was built.
	Modified bool `json:"modified,omitempty"`
	// Go is the toolchain that built the binary.
	Go string `json:"go"`
	// BuildDate is when `make build` built the binary, empty when unknown.
	BuildDate string `json:"build_date,omitempty"`
}

// Get reads the running binary's build information.
func Get() Info {
	info := Info{Version: "(devel)", Go: runtime.Version(), BuildDate: buildDate}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	if v := bi.Main.Version; v != "" {
		info.Version = v
	}
	if bi.GoVersion != "" {
		info.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Commit = s.Value
		case "vcs.time":
			info.CommitTime = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// Short is the one-line name of a build for manifests and report footers:
// "playtest VERSION (commit 0123456789ab, modified), go1.26.1". The
// commit is left out when the version already ends with it.
func (i Info) Short() string {
	var b strings.Builder
	b.WriteString("playtest ")
	b.WriteString(i.Version)
	var notes []string
	if c := i.shortCommit(); c != "" && !strings.Contains(i.Version, c) {
		notes = append(notes, "commit "+c)
	}
	if i.Modified && !strings.HasSuffix(i.Version, "+dirty") {
		notes = append(notes, "modified")
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, ", ") + ")")
	}
	b.WriteString(", " + i.Go)
	return b.String()
}

// Long is what `playtest version` prints: one fact a line.
func (i Info) Long() string {
	unknown := func(s, why string) string {
		if s == "" {
			return "unknown (" + why + ")"
		}
		return s
	}
	commit := unknown(i.Commit, "built without VCS information")
	if i.Commit != "" && i.Modified {
		commit += " (with uncommitted changes)"
	}
	if i.CommitTime != "" {
		commit += ", committed " + i.CommitTime
	}
	return "playtest " + i.Version + "\n" +
		"commit:     " + commit + "\n" +
		"go:         " + i.Go + "\n" +
		"built:      " + unknown(i.BuildDate, "make build records it") + "\n" +
		"platform:   " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
}

// shortCommit is the first 12 hex digits of the commit.
func (i Info) shortCommit() string {
	if len(i.Commit) > 12 {
		return i.Commit[:12]
	}
	return i.Commit
}
