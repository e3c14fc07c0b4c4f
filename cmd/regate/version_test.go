package main

import (
	"runtime/debug"
	"testing"
)

// TestFormatVersion: what --version prints for each way a binary is built.
func TestFormatVersion(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "23e193cc781e97cb69229886fc2d8fbaa0bec54a"
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"go build in a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.1"}, Settings: vcs(rev, "2026-12-03T17:43:30Z", "false")}, true,
			"v0.3.1 (commit " + rev + " of 2026-12-03T17:43:30Z), built with go1.26.8"},
		{"go run with edits", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "", "true")}, true,
			"devel (commit " + rev + ", with uncommitted changes), built with go1.26.8"},
		{"go install module@version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.1"}}, true,
			"v0.3.1, built with go1.26.8"},
		{"-buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true,
			"devel (no commit recorded: built outside a git checkout, or with -buildvcs=false), built with go1.26.8"},
		{"no build information", nil, false, "devel (no build information in this binary)"},
	} {
		if got := formatVersion(c.info, c.ok); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
