package e2e

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The release watch from the model's side: the tools a host offers the
// model are its own declaration of what it can do, whatever it ships them
// in (a d.ts, a bundle, a native binary). The allowed scenario keeps the
// first request's tools, each with its top-level fields, in
// hosts/testdata/release/HOST-offered.txt; a release that offers a tool
// the fixture lacks (or drops or changes one) fails here, and
// TestOfferedToolsAreMapped (hosts) fails on a fixture tool the adapter
// does not list. UPDATE_GOLDEN=1 rewrites the fixture (hosts/e2e/bump
// does). The fake MCP server's tools are left out: they are the test's.

// offeredFixture is the fixture of host's offered tools.
func offeredFixture(host string) string {
	return filepath.Join("..", "testdata", "release", host+"-offered.txt")
}

// checkOffered holds the tools the host offered to its fixture.
func checkOffered(t *testing.T, h *host, m *fakeModel) {
	t.Helper()
	m.mu.Lock()
	declared := m.declared
	m.mu.Unlock()
	if len(declared) == 0 {
		t.Errorf("%s offered the model no tools", h.name)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s: the tools it offers the model (hosts/e2e, scenario allowed)\n", h.pkg, packageVersion(h.pkg))
	for _, name := range slices.Sorted(maps.Keys(declared)) {
		if strings.Contains(name, "fake") && strings.Contains(name, "touch") {
			continue
		}
		fmt.Fprintf(&b, "%s:", name)
		for _, f := range declared[name] {
			b.WriteString(" " + f)
		}
		b.WriteByte('\n')
	}
	path := offeredFixture(h.name)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil || string(old) != b.String() {
		t.Errorf("%s offers the model other tools than %s records (UPDATE_GOLDEN=1 rewrites it; then map every new tool in the adapter):\n%s", h.name, path, b.String())
	}
}
