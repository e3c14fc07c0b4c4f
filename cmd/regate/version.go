package main

import (
	"runtime/debug"
	"strings"
)

// version is what regate --version prints after "regate ": the module
// version and the commit it was built from, as the Go toolchain recorded
// them in the binary.
func version() string {
	info, ok := debug.ReadBuildInfo()
	return formatVersion(info, ok)
}

// formatVersion words build information. go build and go run in a git
// checkout record vcs.revision, vcs.time and vcs.modified; go install
// module@version records the module version and no VCS settings; a test
// binary records neither (its version is "(devel)" or empty).
func formatVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "devel (no build information in this binary)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var b strings.Builder
	b.WriteString(v)
	switch {
	case rev != "":
		b.WriteString(" (commit ")
		b.WriteString(rev)
		if at != "" {
			b.WriteString(" of " + at)
		}
		if modified {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString(")")
	case v == "devel":
		b.WriteString(" (no commit recorded: built outside a git checkout, or with -buildvcs=false)")
	}
	if info.GoVersion != "" {
		b.WriteString(", built with " + info.GoVersion)
	}
	return b.String()
}
