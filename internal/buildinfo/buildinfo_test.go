package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

func TestShortAndLong(t *testing.T) {
	tests := []struct {
		info  Info
		short string
	}{
		{Info{Version: "(devel)", Go: "go1.26.1"}, "playtest (devel), go1.26.1"},
		{Info{Version: "v1.2.0", Commit: "0123456789abcdef0123", Go: "go1.26.1"}, "playtest v1.2.0 (commit 0123456789ab), go1.26.1"},
		// A pseudo-version already names the commit and the dirty tree.
		{Info{Version: "v0.0.0-20261125133331-0123456789ab+dirty", Commit: "0123456789abcdef0123", Modified: true, Go: "go1.26.1"},
			"playtest v0.0.0-20261125133331-0123456789ab+dirty, go1.26.1"},
		{Info{Version: "(devel)", Commit: "0123456789abcdef0123", Modified: true, Go: "go1.26.1"}, "playtest (devel) (commit 0123456789ab, modified), go1.26.1"},
	}
	for _, tt := range tests {
		if got := tt.info.Short(); got != tt.short {
			t.Errorf("Short() = %q, want %q", got, tt.short)
		}
	}
	long := Info{Version: "v1.2.0", Commit: "abc", Modified: true, CommitTime: "2026-11-25T10:00:00Z", Go: "go1.26.1"}.Long()
	for _, want := range []string{"playtest v1.2.0\n", "commit:     abc (with uncommitted changes), committed 2026-11-25T10:00:00Z\n", "built:      unknown (make build records it)\n", "platform:   " + runtime.GOOS} {
		if !strings.Contains(long, want) {
			t.Errorf("Long() lacks %q:\n%s", want, long)
		}
	}
}

func TestGet(t *testing.T) {
	i := Get()
	if i.Version == "" || i.Go != runtime.Version() {
		t.Errorf("Get() = %+v", i)
	}
}
