package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Pi 1.6 (@earendil-works/pi-coding-agent, Node ≥ 22.19: .ci/e2e installs
// Node 22 from the npm registry beside the hosts): -p headless, an
// OpenAI-compatible provider in ~/.pi/agent/models.json, regate's extension
// (hosts/pi) copied into ~/.pi/agent/extensions/regate as its README says,
// talking to a regate serve the test starts. Pi's own MCP runs the fake
// server from ~/.pi/agent/mcp.json, its tools exposed directly
// (mcp__fake__touch; Pi's default exposure reaches them only from codemode
// scripts). regate serve has no deadline of its own to test: the
// extension's REGATE_TIMEOUT_MS is the deadline, proven against a decision
// server that answers allow too late.
func TestPi(t *testing.T) {
	t.Parallel()
	runHost(t, &host{
		name:     "pi",
		bin:      "pi",
		settings: ".pi/agent/extensions/regate/package.json",
		pkg:      "@earendil-works/pi-coding-agent",
		timeout:  60 * time.Second,
		wire:     chatWire,
		pick:     pickPi,
		edit: func(r *hostRun, c toolCall) []wireCall {
			return []wireCall{{name: "edit", args: map[string]any{
				"path": c.file, "edits": []any{map[string]any{"oldText": c.old, "newText": c.content}},
			}}}
		},
		configure: func(r *hostRun, sc scenario) {
			r.setenv("PI_OFFLINE", "1")
			r.setenv("PI_SKIP_VERSION_CHECK", "1")
			r.setenv("PI_TELEMETRY", "0")
			r.writeJSON(filepath.Join(r.home, ".pi", "agent", "mcp.json"), map[string]any{
				"mcpServers": map[string]any{
					"fake": map[string]any{"command": fakeMCPBin, "args": []string{r.work}, "exposure": "direct"},
				},
			})
			r.writeJSON(filepath.Join(r.home, ".pi", "agent", "models.json"), map[string]any{
				"providers": map[string]any{"fake": map[string]any{
					"baseUrl": r.url + "/v1", "api": "openai-completions", "apiKey": "e2e-fake",
					"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
					"models": []any{map[string]any{
						"id": "fake-model", "name": "fake-model", "reasoning": false, "input": []string{"text"},
						"contextWindow": 128000, "maxTokens": 4096,
						"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
					}},
				}},
			})
		},
		install: func(r *hostRun, sc scenario) {
			// The extension's package: package.json ("pi.extensions") and src/.
			ext := filepath.Join(r.home, ".pi", "agent", "extensions", "regate")
			for _, name := range []string{"package.json", "src/index.ts"} {
				data, err := os.ReadFile(filepath.Join("..", "pi", name))
				if err != nil {
					r.t.Fatalf("regate's Pi extension: %v", err)
				}
				r.writeFile(filepath.Join(ext, name), string(data))
			}
			r.setenv("REGATE_SOCKET", filepath.Join(r.home, "regate.sock"))
		},
		// codemode's script calls bash: the script itself is allowed (the
		// bundled default policy allows codemode; testPolicy names it
		// too), and its bash call is decided on its own.
		own: []scenario{
			{name: "codemode-allowed", call: toolCall{kind: callScript, command: "touch allowed.txt"}, file: "allowed.txt", runs: true},
			{name: "codemode-denied", call: toolCall{kind: callScript, command: "touch denied.txt"}, file: "denied.txt", resultHas: "off limits"},
		},
		start: startPiDecisions,
		argv: func(r *hostRun) []string {
			return []string{"pi", "-p", "--no-session", "--model", "fake/fake-model", "--tools", "+codemode", "go"}
		},
	})
}

// startPiDecisions starts what the extension asks: regate serve on the
// socket, or, for the slow scenario, a decision server that answers allow
// only after the delay, with the extension's deadline set to the
// scenario's.
func startPiDecisions(r *hostRun) {
	if r.sc.deadline > 0 {
		l, err := sandbox.listen()
		if err != nil {
			r.t.Fatal(err)
		}
		slow := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			select {
			case <-req.Context().Done():
				return // the extension gave up: what the test wants
			case <-time.After(r.sc.delay):
			}
			writeJSON(w, map[string]any{"decision_id": "e2e-slow", "result": map[string]any{
				"action": "allow", "matched": "*", "layer": "policy", "surface": "bash", "value": r.sc.call.command, "message": "",
			}})
		})}
		go slow.Serve(l)
		r.t.Cleanup(func() { slow.Close() })
		r.setenv("REGATE_URL", "http://"+l.Addr().String())
		r.setenv("REGATE_TIMEOUT_MS", strconv.FormatInt(r.sc.deadline.Milliseconds(), 10))
		return
	}
	socket := filepath.Join(r.home, "regate.sock")
	logPath := filepath.Join(r.home, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		r.t.Fatal(err)
	}
	cmd := exec.Command(regateBin, "serve", "--policy", r.policy, "--socket", socket)
	cmd.Dir, cmd.Env = r.work, r.env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("regate serve: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	r.t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		logFile.Close()
		if r.t.Failed() {
			data, _ := os.ReadFile(logPath)
			r.t.Logf("regate serve's log:\n%s", data)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for {
		if _, err := os.Stat(socket); err == nil {
			return
		}
		select {
		case err := <-exited:
			// A policy that does not compile: serve does not start, and
			// the extension must block every call.
			exited <- err
			data, _ := os.ReadFile(logPath)
			r.t.Logf("regate serve exited (%v): %s", err, data)
			return
		case <-ctx.Done():
			r.t.Fatalf("regate serve did not open %s within 15s", socket)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// pickPi maps a scenario's call to Pi's tools.
func pickPi(r *hostRun, c toolCall, offered []string) (wireCall, error) {
	switch c.kind {
	case callBash:
		return wireCall{name: "bash", args: map[string]any{"command": c.command}}, nil
	case callWrite:
		return wireCall{name: "write", args: map[string]any{"path": c.file, "content": c.content}}, nil
	case callMCP:
		name, err := offeredMCP(offered, c.tool)
		return wireCall{name: name, args: map[string]any{"name": c.file}}, err
	case callScript:
		return wireCall{name: "codemode", args: map[string]any{
			"code": "const r = await tools.bash({command: " + mustJSON(c.command) + "}); text(JSON.stringify(r));",
		}}, nil
	}
	return wireCall{}, fmt.Errorf("pi: no tool for %q", c.kind)
}
