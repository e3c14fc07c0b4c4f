package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/hosts/internal/releasewatch"
)

// claudeFixture is the pinned release's tool declarations, as
// releasewatch.Format writes them.
const claudeFixture = "testdata/release/claude-code.txt"

// unlistedClaudeTools are the declared types of f that claudeDeclared does
// not list, each with the fields it takes.
func unlistedClaudeTools(f releasewatch.Fixture) []string {
	var out []string
	for name, fields := range f {
		if _, ok := claudeDeclared[name]; !ok {
			out = append(out, name+" (fields: "+strings.Join(fields, ", ")+")")
		}
	}
	slices.Sort(out)
	return out
}

// TestClaudeReleaseWatch fails on a tool the pinned Claude Code declares
// that the adapter does not list; with the pinned package installed (the
// e2e cache, .ci/e2e), it also holds the fixture to the package, so a
// release bump (hosts/e2e/bump) that adds a tool fails here.
// UPDATE_GOLDEN=1 rewrites the fixture from the installed package.
func TestClaudeReleaseWatch(t *testing.T) {
	src, err := os.ReadFile(claudeFixture)
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := releasewatch.ParseFixture(src)
	if err != nil {
		t.Fatal(err)
	}
	if pkg, version := installedClaude(t); pkg != "" {
		decl, err := os.ReadFile(filepath.Join(pkg, "sdk-tools.d.ts"))
		if err != nil {
			t.Fatal(err)
		}
		live, err := releasewatch.Declarations(decl)
		if err != nil {
			t.Fatal(err)
		}
		want := live.Format("@anthropic-ai/claude-code " + version + " sdk-tools.d.ts (hosts/internal/releasewatch)")
		if os.Getenv("UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(claudeFixture, want, 0o644); err != nil {
				t.Fatal(err)
			}
			fixture = live
		} else if string(want) != string(src) {
			t.Errorf("%s differs from the installed Claude Code %s: run with UPDATE_GOLDEN=1, then review the tools it adds", claudeFixture, version)
		}
	}
	if len(fixture) < 20 {
		t.Fatalf("%s holds %d tools; the fixture is not a release's declarations", claudeFixture, len(fixture))
	}
	for _, u := range unlistedClaudeTools(fixture) {
		t.Errorf("Claude Code declares %s, which hosts/claude_release.go does not list: review what the tool does with its fields, map it, and list it", u)
	}
}

// TestClaudeReleaseWatchNoticesANewTool: a tool added to the declarations
// is reported, with its fields.
func TestClaudeReleaseWatchNoticesANewTool(t *testing.T) {
	src, err := os.ReadFile(claudeFixture)
	if err != nil {
		t.Fatal(err)
	}
	f, err := releasewatch.ParseFixture(append(src, "TeleportInput: destination file_path\n"...))
	if err != nil {
		t.Fatal(err)
	}
	if got := unlistedClaudeTools(f); !slices.Equal(got, []string{"TeleportInput (fields: destination, file_path)"}) {
		t.Fatalf("unlisted: %q", got)
	}
}

// TestDocsNameEveryClaudeTool: docs/hosts.md names every tool the adapter
// lists.
func TestDocsNameEveryClaudeTool(t *testing.T) {
	doc, err := os.ReadFile("../docs/hosts.md")
	if err != nil {
		t.Fatal(err)
	}
	for decl, d := range claudeDeclared {
		if !strings.Contains(string(doc), d.tool) {
			t.Errorf("docs/hosts.md does not name %s (%s)", d.tool, decl)
		}
	}
}

// installedClaude is the folder of the pinned Claude Code package in the
// e2e cache and its version, or "" when it is not installed at the pin.
func installedClaude(t *testing.T) (string, string) {
	return installedPackage(t, "@anthropic-ai/claude-code")
}

// installedPackage is the folder of the pinned npm package name in the e2e
// cache (REGATE_E2E_NPM, else ~/.cache/regate-e2e) and its version, or ""
// when it is not installed at the pin.
func installedPackage(t *testing.T, name string) (string, string) {
	t.Helper()
	var pins struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	raw, err := os.ReadFile("e2e/npm/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &pins); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(e2eCache(), "node_modules", filepath.FromSlash(name))
	var meta struct {
		Version string `json:"version"`
	}
	raw, err = os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil || json.Unmarshal(raw, &meta) != nil || meta.Version != pins.Dependencies[name] {
		return "", ""
	}
	return pkg, meta.Version
}

// e2eCache is the folder the e2e hosts are installed in.
func e2eCache() string {
	if cache := os.Getenv("REGATE_E2E_NPM"); cache != "" {
		return cache
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "regate-e2e")
}
