package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The harness every host test shares: the hosts' npm folder, regate and the
// fake MCP server built once, the network namespace, and runHost, which
// plays the scenario table against one host.
var (
	npmDir      string // the hosts' npm folder (node_modules/.bin/HOST)
	npmMissing  string // why the hosts cannot run; empty when they can
	binDir      string // regate and fakemcp, first on the hosts' PATH
	regateBin   string // the regate under test
	fakeMCPBin  string // internal/fakemcp
	sandbox     *netns // nil: hosts run in the test's own network
	sandboxNote string // why there is no namespace
	required    = os.Getenv("REGATE_E2E") == "1"
	reportFile  = os.Getenv("REGATE_E2E_REPORT")
)

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	if !required {
		// They take minutes and the hosts' 1.7 GB npm folder: go test ./...
		// (the README's test command) leaves them to .ci/e2e, which sets
		// REGATE_E2E=1.
		npmMissing = "the end-to-end tests run with REGATE_E2E=1 (.ci/e2e installs the hosts and sets it)"
		return m.Run()
	}
	npmDir = os.Getenv("REGATE_E2E_NPM")
	if npmDir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			npmDir = filepath.Join(home, ".cache", "regate-e2e")
		}
	}
	if _, err := os.Stat(filepath.Join(npmDir, "node_modules")); err != nil {
		npmMissing = fmt.Sprintf("the hosts are not installed in %s (run .ci/e2e, or set REGATE_E2E_NPM): %v", npmDir, err)
		if required {
			fmt.Fprintln(os.Stderr, "e2e: REGATE_E2E=1 but", npmMissing)
			return 1
		}
		return m.Run() // every host test skips with npmMissing
	}
	// Not in the temporary folder: regate install refuses an executable
	// there (it vanishes, and then the host runs every tool unguarded).
	// The hosts' npm folder lasts, so the build goes beside it; one in the
	// temporary folder is said first, in one line, rather than as every
	// scenario's failure.
	if rel, err := filepath.Rel(os.TempDir(), npmDir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		fmt.Fprintf(os.Stderr, "e2e: the hosts' folder %s (REGATE_E2E_NPM) lies in the temporary folder %s, where regate install refuses the regate built beside it; set REGATE_E2E_NPM to a lasting folder such as $HOME/.cache/regate-e2e\n", npmDir, os.TempDir())
		return 1
	}
	parent := filepath.Join(npmDir, "regate-bin")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	dir, err := os.MkdirTemp(parent, "run-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	regateBin = filepath.Join(dir, "regate")
	fakeMCPBin = filepath.Join(dir, "fakemcp")
	for pkg, out := range map[string]string{
		"github.com/regate/regate/cmd/regate":                 regateBin,
		"github.com/regate/regate/hosts/e2e/internal/fakemcp": fakeMCPBin,
	} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: go build %s: %v\n", pkg, err)
			return 1
		}
	}
	sandbox, err = newNetns()
	if err != nil {
		sandboxNote = err.Error()
		fmt.Fprintln(os.Stderr, "e2e: hosts run without a network namespace:", err)
	}
	defer sandbox.close()
	return m.Run()
}

// host is one host's driver: its fake model's wire format, its settings,
// how regate is installed into it and how it is started.
type host struct {
	name    string        // regate's name for it: regate install NAME, regate hook NAME
	bin     string        // node_modules/.bin/BIN
	pkg     string        // the npm package whose version is reported
	timeout time.Duration // one run, start to exit
	// wire serves the fake model in the host's API.
	wire func(*fakeModel) http.Handler
	// pick turns a scenario's call into the tool call the fake model sends,
	// given the tool names the host offered; edit, the calls of an edit
	// (a host that edits only what it read reads first).
	pick func(r *hostRun, c toolCall, offered []string) (wireCall, error)
	edit func(r *hostRun, c toolCall) []wireCall
	// configure writes the host's settings (model endpoint, MCP server)
	// before regate is installed.
	configure func(r *hostRun, sc scenario)
	// install registers regate (default: regate install NAME --policy P
	// --write, then installFlags).
	install      func(r *hostRun, sc scenario)
	installFlags []string
	// start, when set, runs just before the host (after the policy is
	// broken and the delay set): Pi's regate serve.
	start func(r *hostRun)
	// argv is the host's command line for one headless run.
	argv func(r *hostRun) []string
	// unsupported, when set, names why the host cannot run a scenario.
	unsupported func(sc scenario) string
	// own are scenarios of what only this host has (Pi's codemode).
	own []scenario
	// settings is the file, under HOME, that registers regate with the
	// host once installed (hostSettings in a scenario).
	settings string
}

// hostRun is one run of a host: its temporary HOME and work folder, the
// fake model, and the environment it starts with.
type hostRun struct {
	t      *testing.T
	host   *host
	sc     scenario
	home   string
	work   string
	policy string // the policy file regate is installed with
	model  *fakeModel
	url    string // the fake model's base URL, http://127.0.0.1:PORT
	env    []string
}

// setenv adds or replaces one variable of the host's environment.
func (r *hostRun) setenv(key, value string) {
	for i, kv := range r.env {
		if strings.HasPrefix(kv, key+"=") {
			r.env[i] = key + "=" + value
			return
		}
	}
	r.env = append(r.env, key+"="+value)
}

// writeFile writes a file under the run's folders, creating its parents.
func (r *hostRun) writeFile(path, text string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		r.t.Fatal(err)
	}
}

// writeJSON writes v as a JSON file.
func (r *hostRun) writeJSON(path string, v any) {
	r.t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		r.t.Fatal(err)
	}
	r.writeFile(path, string(data)+"\n")
}

// regate runs the regate under test with the host's environment, in the
// work folder, and fails the test on an error.
func (r *hostRun) regate(args ...string) string {
	r.t.Helper()
	cmd := exec.Command(regateBin, args...)
	cmd.Dir, cmd.Env = r.work, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("regate %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// installRegate is the default install: regate install NAME --policy P
// --write, with the scenario's deadline.
func (r *hostRun) installRegate(sc scenario) {
	args := []string{"install", r.host.name, "--policy", r.policy, "--write"}
	if sc.deadline > 0 {
		args = append(args, "--deadline", sc.deadline.String())
	}
	args = append(args, r.host.installFlags...)
	r.t.Logf("%s", strings.TrimSpace(r.regate(args...)))
}

// hostBinary is the host's executable in the npm folder; the test skips
// (or, with REGATE_E2E=1, fails) when it is not there.
func hostBinary(t *testing.T, bin string) string {
	t.Helper()
	if npmMissing != "" {
		if required {
			t.Fatal(npmMissing)
		}
		t.Skip(npmMissing)
	}
	path := filepath.Join(npmDir, "node_modules", ".bin", bin)
	if _, err := os.Stat(path); err != nil {
		if required {
			t.Fatalf("%s is not installed: %v", bin, err)
		}
		t.Skipf("%s is not installed: %v", bin, err)
	}
	return path
}

// packageVersion reads an installed npm package's version.
func packageVersion(pkg string) string {
	data, err := os.ReadFile(filepath.Join(npmDir, "node_modules", pkg, "package.json"))
	if err != nil {
		return "?"
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &p) != nil || p.Version == "" {
		return "?"
	}
	return p.Version
}

// runHost plays every scenario against one host, one after another (a
// host's runs share nothing, but two cores are better spent on two hosts).
func runHost(t *testing.T, h *host) {
	bin := hostBinary(t, h.bin)
	version := packageVersion(h.pkg)
	t.Logf("%s %s (%s)", h.pkg, version, bin)
	if sandbox == nil {
		t.Logf("no network namespace: %s", sandboxNote)
	}
	for _, sc := range append(scenarios(), h.own...) {
		t.Run(sc.name, func(t *testing.T) {
			start := time.Now()
			t.Cleanup(func() { record(t, h, version, sc, time.Since(start)) })
			if h.unsupported != nil {
				if why := h.unsupported(sc); why != "" {
					t.Skip(why)
				}
			}
			playScenario(t, h, sc)
		})
	}
}

// playScenario sets up a fresh HOME and work folder, installs regate, runs
// the host once against the fake model and checks the outcome.
func playScenario(t *testing.T, h *host, sc scenario) {
	root := t.TempDir()
	r := &hostRun{t: t, host: h, sc: sc, home: filepath.Join(root, "home"), work: filepath.Join(root, "work")}
	for _, d := range []string{r.home, r.work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	r.env = []string{
		"HOME=" + r.home,
		"PATH=" + binDir + string(os.PathListSeparator) + filepath.Join(npmDir, "node_modules", ".bin") + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"CI=1",
	}
	r.model = &fakeModel{pick: func(offered []string) ([]wireCall, error) {
		if sc.call.kind == callEdit {
			if h.edit == nil {
				return nil, fmt.Errorf("%s: no edit tool in the test's driver", h.name)
			}
			return h.edit(r, sc.call), nil
		}
		c, err := h.pick(r, sc.call, offered)
		return []wireCall{c}, err
	}}
	listener, err := sandbox.listen()
	if err != nil {
		t.Fatalf("listen on loopback: %v", err)
	}
	server := &http.Server{Handler: r.model.logged(h.wire(r.model))}
	go server.Serve(listener)
	t.Cleanup(func() { server.Close() })
	r.url = "http://" + listener.Addr().String()

	if sc.seed != "" {
		r.writeFile(filepath.Join(r.work, sc.file), sc.seed)
	}
	r.policy = filepath.Join(r.home, ".config", "regate", "policy.jsonc")
	if sc.policyInWork {
		r.policy = filepath.Join(r.work, projectPolicy)
	}
	policy := testPolicy
	if sc.policy != "" {
		policy = sc.policy
	}
	r.writeFile(r.policy, policy)
	h.configure(r, sc)
	if h.install != nil {
		h.install(r, sc)
	} else {
		r.installRegate(sc)
	}
	if strings.Contains(sc.file, hostSettings) {
		// The file that registers regate, as installed: the run must
		// leave it as it is.
		rel, err := filepath.Rel(r.work, filepath.Join(r.home, h.settings))
		if err != nil || h.settings == "" {
			t.Fatalf("%s: no settings file to play %s with", h.name, sc.name)
		}
		sc.file = strings.ReplaceAll(sc.file, hostSettings, rel)
		sc.call.command = strings.ReplaceAll(sc.call.command, hostSettings, rel)
		data, err := os.ReadFile(filepath.Join(r.work, sc.file))
		if err != nil || len(data) == 0 {
			t.Fatalf("%s: install wrote no %s: %v", h.name, h.settings, err)
		}
		sc.seed = string(data)
	}
	if sc.brokenPolicy != "" {
		// The user breaks the policy after installing: the hook must
		// block, not fall back to running the call.
		r.writeFile(r.policy, sc.brokenPolicy)
	}
	if sc.delay > 0 {
		r.setenv("REGATE_TEST_DELAY", sc.delay.String())
	}

	if h.start != nil {
		h.start(r)
	}
	out, elapsed, runErr := runProcess(t, r, h.argv(r))
	t.Logf("%s ran %.1fs (exit: %v)", h.name, elapsed.Seconds(), runErr)
	check(t, r, sc, elapsed)
	if sc.name == "allowed" {
		checkOffered(t, h, r.model)
	}
	if t.Failed() {
		t.Logf("fake model: %s", r.model.summary())
		t.Logf("host output (last 6000 bytes):\n%s", tail(out, 6000))
	}
}

// runProcess runs argv inside the network namespace, in a session of its
// own, with stdin closed,
// the run's environment and work folder, and kills its whole process group
// on the timeout and after it exits (MCP servers, shells left behind).
func runProcess(t *testing.T, r *hostRun, argv []string) ([]byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.host.timeout)
	defer cancel()
	argv = sandbox.wrap(argv)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = r.work, r.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Stdin = nil // /dev/null: every host waits on an open stdin
	// A session of its own: a process group to kill, and no controlling
	// terminal, as in CI, even when the tests run from one (regate's hooks
	// ask only where a terminal could answer).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Start()
	if err != nil {
		t.Fatalf("start %v: %v", argv, err)
	}
	err = cmd.Wait()
	elapsed := time.Since(start)
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if ctx.Err() != nil {
		t.Errorf("%s did not finish within %s", r.host.name, r.host.timeout)
	}
	return out.Bytes(), elapsed, err
}

// check asserts a scenario's outcome: the host really made the call and
// reported back to the model, the side effect happened exactly when the
// policy allows it, and a slow decision took regate's deadline.
func check(t *testing.T, r *hostRun, sc scenario, elapsed time.Duration) {
	t.Helper()
	if err := r.model.failure(); err != "" {
		t.Errorf("fake model: %s", err)
	}
	results := r.model.toolResults()
	t.Logf("tool calls %q; results sent to the model: %q", r.model.madeCalls(), results)
	if len(results) == 0 {
		t.Errorf("the host never sent the tool call's result back to the model: it did not make the call, so the scenario proves nothing")
	}
	path := filepath.Join(r.work, sc.file)
	data, err := os.ReadFile(path)
	exists := err == nil
	switch {
	case sc.seed != "":
		want := sc.seed
		if sc.runs {
			want = strings.Replace(sc.seed, sc.call.old, sc.call.content, 1)
		}
		if string(data) != want {
			t.Errorf("%s: %s holds %q, want %q (tool result: %q)", sc.name, sc.file, data, want, results)
		}
	case sc.runs && !exists:
		t.Errorf("%s: the call should have run and created %s; it did not (tool result: %q)", sc.name, sc.file, results)
	case !sc.runs && exists:
		t.Errorf("%s: the call should have been blocked, yet %s exists (tool result: %q)", sc.name, sc.file, results)
	case sc.runs && sc.call.content != "" && string(data) != sc.call.content:
		t.Errorf("%s: %s holds %q, want %q", sc.name, sc.file, data, sc.call.content)
	}
	if sc.resultHas != "" && len(results) > 0 && !strings.Contains(strings.Join(results, "\n"), sc.resultHas) {
		t.Errorf("%s: the tool result does not carry regate's message %q: %q", sc.name, sc.resultHas, results)
	}
	if sc.deadline > 0 {
		// Timed from the fake model's side: from the tool call sent to its
		// result received, so a host's slow start on a loaded machine does
		// not count.
		took, ok := r.model.turnaround()
		limit := min(sc.deadline+slowSlack, sc.delay)
		switch {
		case !ok:
			// Reported above: no result came back.
		case took < sc.deadline:
			t.Errorf("%s: the call was answered in %s, before the deadline %s: the delay never happened", sc.name, took.Round(time.Millisecond), sc.deadline)
		case took > limit:
			t.Errorf("%s: the call was answered in %s, more than %s (regate's deadline %s plus %s, under the hook's delay %s): regate's deadline did not answer", sc.name, took.Round(time.Millisecond), limit, sc.deadline, slowSlack, sc.delay)
		default:
			t.Logf("%s: the call was answered in %s (deadline %s, run %s)", sc.name, took.Round(time.Millisecond), sc.deadline, elapsed.Round(time.Millisecond))
		}
	}
}

// record logs one outcome line and appends it to REGATE_E2E_REPORT (tab
// separated: host, version, scenario, result, seconds) for .ci/e2e's table.
func record(t *testing.T, h *host, version string, sc scenario, took time.Duration) {
	result := "pass"
	switch {
	case t.Skipped():
		result = "skip"
	case t.Failed():
		result = "FAIL"
	}
	line := fmt.Sprintf("%s\t%s\t%s\t%s\t%.1f", h.name, version, sc.name, result, took.Seconds())
	t.Logf("E2E %s", line)
	if reportFile == "" {
		return
	}
	f, err := os.OpenFile(reportFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Logf("report: %v", err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
