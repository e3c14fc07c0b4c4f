package hosts

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/hosts/internal/releasewatch"
)

// knownTools are the tool names host's adapter lists: mapped to a regate
// tool, or kept under their own name on purpose.
func knownTools(t *testing.T, host string) []string {
	t.Helper()
	resources := slices.Collect(maps.Keys(resourceMethods))
	switch host {
	case "claude":
		names := slices.Concat(slices.Collect(maps.Keys(claudeTools)), resources, claudeUndeclared)
		for _, d := range claudeDeclared {
			names = append(names, d.tool)
		}
		return names
	case "codex":
		return slices.Concat(slices.Collect(maps.Keys(codexTools)), resources, codexOwnName, []string{"apply_patch"})
	case "gemini":
		return slices.Concat(slices.Collect(maps.Keys(geminiTools)), resources, geminiOwnName)
	case "copilot":
		return slices.Concat(slices.Collect(maps.Keys(copilotTools)), copilotOwnName, []string{"apply_patch"})
	case "opencode":
		return slices.Concat(slices.Collect(maps.Keys(opencodeTools)), opencodeOwnName)
	case "pi":
		return piTable(t)
	}
	t.Fatalf("no adapter table for %q", host)
	return nil
}

// offeredFixtures are the tools each pinned host offered its model in the
// end-to-end run (hosts/e2e/offered_test.go), by host.
func offeredFixtures(t *testing.T) map[string]releasewatch.Fixture {
	t.Helper()
	files, err := filepath.Glob("testdata/release/*-offered.txt")
	if err != nil || len(files) < 6 {
		t.Fatalf("offered-tool fixtures: %v (%d files; want one per host)", err, len(files))
	}
	out := map[string]releasewatch.Fixture{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fx, err := releasewatch.ParseFixture(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), "-offered.txt")] = fx
	}
	return out
}

// unlistedOffered are the tools of f that known does not list, each with
// its fields (the offered-tool and the Pi release watches).
func unlistedOffered(f releasewatch.Fixture, known []string) []string {
	var out []string
	for name, fields := range f {
		if !slices.Contains(known, name) {
			out = append(out, name+" (fields: "+strings.Join(fields, ", ")+")")
		}
	}
	slices.Sort(out)
	return out
}

// TestOfferedToolsAreMapped: every tool a pinned host offers its model is
// one its adapter lists, mapped or kept under its own name on purpose. A
// release that adds a tool fails the end-to-end run first (its fixture
// changes), then here until the tool is reviewed and listed.
func TestOfferedToolsAreMapped(t *testing.T) {
	for host, f := range offeredFixtures(t) {
		if len(f) < 4 {
			t.Errorf("%s: %d tools offered; the fixture is not a real run's", host, len(f))
		}
		for _, u := range unlistedOffered(f, knownTools(t, host)) {
			t.Errorf("%s offers %s, which its adapter does not list: review what the tool does with its fields, map it or keep its own name, and document it", host, u)
		}
	}
}

// TestOfferedToolsNoticeANewTool: a tool added to a host's offer is
// reported, with its fields.
func TestOfferedToolsNoticeANewTool(t *testing.T) {
	f := offeredFixtures(t)["gemini"]
	f["teleport_file"] = []string{"destination", "file_path"}
	if got := unlistedOffered(f, knownTools(t, "gemini")); !slices.Equal(got, []string{"teleport_file (fields: destination, file_path)"}) {
		t.Fatalf("unlisted: %q", got)
	}
}

// TestDocsNameEveryOfferedTool: docs/hosts.md names every tool a pinned
// host offers.
func TestDocsNameEveryOfferedTool(t *testing.T) {
	doc, err := os.ReadFile("../docs/hosts.md")
	if err != nil {
		t.Fatal(err)
	}
	for host, f := range offeredFixtures(t) {
		for name := range f {
			if !strings.Contains(string(doc), name) {
				t.Errorf("docs/hosts.md does not name %s's %s", host, name)
			}
		}
	}
}
