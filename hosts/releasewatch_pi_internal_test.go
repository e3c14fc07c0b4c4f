package hosts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/hosts/internal/releasewatch"
)

// piFixture is the tools the pinned Pi registers, as
// testdata/release/pi-tools.ts lists them from Pi itself (getAllTools: the
// built-ins and the tools of Pi's own extensions, codemode and
// tool_search), in releasewatch.Format.
const piFixture = "testdata/release/pi.txt"

// piTable is the names of the Pi extension's tool table (TOOLS in
// hosts/pi/src/index.ts), read from its source: one "name: …," line each.
func piTable(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("pi/src/index.ts")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "export const TOOLS")
	end := strings.Index(string(src)[max(start, 0):], "\n};")
	if start < 0 || end < 0 {
		t.Fatal("hosts/pi/src/index.ts: no TOOLS table")
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  ([A-Za-z_]\w*):`).FindAllStringSubmatch(string(src)[start:start+end], -1) {
		names = append(names, m[1])
	}
	return names
}

// TestPiReleaseWatch fails on a tool the pinned Pi registers that the
// extension's table does not map. With the pinned Pi installed (the e2e
// cache, with the Node it needs) it runs Pi, headless and offline, with
// testdata/release/pi-tools.ts loaded, and holds the fixture to what Pi
// lists, so a release bump (hosts/e2e/bump) that adds a tool fails here.
// UPDATE_GOLDEN=1 rewrites the fixture from the installed Pi.
func TestPiReleaseWatch(t *testing.T) {
	src, err := os.ReadFile(piFixture)
	if err != nil && os.Getenv("UPDATE_GOLDEN") != "1" {
		t.Fatal(err)
	}
	fixture, err := releasewatch.ParseFixture(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, version := installedPackage(t, "@earendil-works/pi-coding-agent"); version != "" {
		live := runPiToolList(t)
		want := live.Format("@earendil-works/pi-coding-agent " + version + " getAllTools (testdata/release/pi-tools.ts)")
		if os.Getenv("UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(piFixture, want, 0o644); err != nil {
				t.Fatal(err)
			}
			fixture = live
		} else if string(want) != string(src) {
			t.Errorf("%s differs from the installed Pi %s: run with UPDATE_GOLDEN=1, then review the tools it adds:\n%s", piFixture, version, want)
		}
	}
	if len(fixture) < 8 {
		t.Fatalf("%s holds %d tools; the fixture is not a release's registry", piFixture, len(fixture))
	}
	for _, u := range unlistedOffered(fixture, piTable(t)) {
		t.Errorf("Pi registers %s, which the extension's TOOLS table (hosts/pi/src/index.ts) does not map: review what the tool does with its fields, map it, and document it", u)
	}
}

// runPiToolList runs the installed Pi with the listing extension and
// returns what it lists.
func runPiToolList(t *testing.T) releasewatch.Fixture {
	t.Helper()
	bin := filepath.Join(e2eCache(), "node_modules", ".bin")
	home := t.TempDir()
	models := `{"providers": {"list": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "none",
	  "models": [{"id": "m", "name": "m", "reasoning": false, "input": ["text"], "contextWindow": 1000, "maxTokens": 100,
	  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}]}}}`
	if err := os.MkdirAll(filepath.Join(home, ".pi", "agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".pi", "agent", "models.json"), []byte(models), 0o600); err != nil {
		t.Fatal(err)
	}
	ext, err := filepath.Abs("testdata/release/pi-tools.ts")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(home, "tools.txt")
	cmd := exec.Command(filepath.Join(bin, "pi"), "-p", "--no-session", "--model", "list/m", "-e", ext, "go")
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"PI_OFFLINE=1", "PI_TELEMETRY=0", "PI_SKIP_VERSION_CHECK=1", "REGATE_PI_TOOLS=" + out}
	cmd.WaitDelay = 5 * time.Second
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pi with the listing extension: %v\n%s", err, msg)
	}
	listed, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("pi listed no tools: %v", err)
	}
	f := releasewatch.Fixture{}
	for _, line := range strings.Split(strings.TrimSpace(string(listed)), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			f[fields[0]] = fields[1:]
		}
	}
	return f
}

// TestPiReleaseWatchNoticesANewTool: a tool added to the registry is
// reported, with its fields.
func TestPiReleaseWatchNoticesANewTool(t *testing.T) {
	src, err := os.ReadFile(piFixture)
	if err != nil {
		t.Fatal(err)
	}
	f, err := releasewatch.ParseFixture(append(src, "teleport: destination path\n"...))
	if err != nil {
		t.Fatal(err)
	}
	if got := unlistedOffered(f, piTable(t)); !slices.Equal(got, []string{"teleport (fields: destination, path)"}) {
		t.Fatalf("unlisted: %q", got)
	}
}

// TestDocsNameEveryPiTool: docs/hosts.md names every tool the extension
// maps.
func TestDocsNameEveryPiTool(t *testing.T) {
	doc, err := os.ReadFile("../docs/hosts.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range piTable(t) {
		if !strings.Contains(string(doc), "`"+name) {
			t.Errorf("docs/hosts.md does not name Pi's %s", name)
		}
	}
}
