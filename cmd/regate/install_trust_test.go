package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeAppServer answers the JSON-RPC calls --trust makes the way codex
// app-server 0.171.0 does, with notifications in between, and records the
// hooks.state it is asked to write.
func fakeAppServer(t *testing.T, in io.Reader, out io.WriteCloser, hooksFile string, failWrite bool, written *map[string]any) {
	defer out.Close()
	trusted := map[string]string{}
	hooks := []map[string]any{
		{"key": hooksFile + ":pre_tool_use:0:0", "command": "/a/lint.sh", "sourcePath": hooksFile, "currentHash": "sha256:lint"},
		{"key": hooksFile + ":pre_tool_use:1:0", "command": "/opt/x/rg8 hook codex --deadline 10s", "statusMessage": "regate: checking the tool call", "sourcePath": hooksFile, "currentHash": "sha256:pre"},
		{"key": hooksFile + ":permission_request:0:0", "command": "/opt/x/rg8 hook codex --deadline 10s", "statusMessage": "regate: checking the tool call", "sourcePath": hooksFile, "currentHash": "sha256:perm"},
		{"key": "/elsewhere/hooks.json:pre_tool_use:0:0", "command": "regate hook codex", "sourcePath": "/elsewhere/hooks.json", "currentHash": "sha256:other"},
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var req struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			t.Errorf("the client sent %q: %v", sc.Text(), err)
			return
		}
		if req.ID == nil {
			continue
		}
		send := func(v any) { b, _ := json.Marshal(v); out.Write(append(b, '\n')) }
		fmt.Fprintln(out, `{"method":"configWarning","params":{"summary":"a notification to skip"}}`)
		switch req.Method {
		case "initialize":
			fmt.Fprintf(out, `{"id":%d,"result":{"userAgent":"fake"}}`+"\n", *req.ID)
		case "hooks/list":
			var list []map[string]any
			for _, h := range hooks {
				h := maps.Clone(h)
				h["trustStatus"] = "untrusted"
				if trusted[h["key"].(string)] == h["currentHash"] {
					h["trustStatus"] = "trusted"
				}
				list = append(list, h)
			}
			send(map[string]any{"id": *req.ID, "result": map[string]any{"data": []any{map[string]any{"cwd": "/repo", "hooks": list}}}})
		case "config/batchWrite":
			if failWrite {
				fmt.Fprintf(out, `{"id":%d,"error":{"code":-32600,"message":"config is locked"}}`+"\n", *req.ID)
				continue
			}
			var p struct {
				Edits []struct {
					KeyPath, MergeStrategy string
					Value                  map[string]any
				}
			}
			json.Unmarshal(req.Params, &p)
			if len(p.Edits) != 1 || p.Edits[0].KeyPath != "hooks.state" || p.Edits[0].MergeStrategy != "upsert" {
				t.Errorf("batchWrite %s", req.Params)
			}
			*written = p.Edits[0].Value
			for k, v := range p.Edits[0].Value {
				trusted[k], _ = v.(map[string]any)["trusted_hash"].(string)
			}
			fmt.Fprintf(out, `{"id":%d,"result":{"status":"ok"}}`+"\n", *req.ID)
		default:
			t.Errorf("unexpected call %s", req.Method)
		}
	}
}

// --trust trusts regate's hooks from the file it wrote, found by their tag
// whatever the executable is called, and no other hook.
func TestTrustRecordsOnlyRegatesHooks(t *testing.T) {
	hooksFile := filepath.Join(t.TempDir(), "hooks.json")
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	var written map[string]any
	done := make(chan struct{})
	go func() { fakeAppServer(t, sr, sw, hooksFile, false, &written); close(done) }()
	n, err := trustOver(context.Background(), cr, cw, "/repo", hooksFile)
	cw.Close()
	<-done
	if err != nil || n != 2 {
		t.Fatalf("trusted %d, err %v", n, err)
	}
	want := map[string]any{
		hooksFile + ":pre_tool_use:1:0":       map[string]any{"trusted_hash": "sha256:pre"},
		hooksFile + ":permission_request:0:0": map[string]any{"trusted_hash": "sha256:perm"},
	}
	got, _ := json.Marshal(written)
	exp, _ := json.Marshal(want)
	if !bytes.Equal(got, exp) {
		t.Errorf("hooks.state written %s, want %s", got, exp)
	}
}

// Codex refusing the write is an error: install must not say it trusted.
func TestTrustFailsWhenCodexRefuses(t *testing.T) {
	hooksFile := filepath.Join(t.TempDir(), "hooks.json")
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	var written map[string]any
	done := make(chan struct{})
	go func() { fakeAppServer(t, sr, sw, hooksFile, true, &written); close(done) }()
	_, err := trustOver(context.Background(), cr, cw, "/repo", hooksFile)
	cw.Close()
	<-done
	if err == nil || !strings.Contains(err.Error(), "config is locked") {
		t.Fatalf("err %v", err)
	}
}

// realHost is the npm-installed host binary the e2e tests use, when this
// machine has it.
func realHost(t *testing.T, name string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache folder")
	}
	bin := filepath.Join(cache, "regate-e2e", "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s is not installed here (%s)", name, bin)
	}
	return bin
}

// lastingFolder is a folder outside the temporary folder as install sees
// it: TMPDIR moves into it, so the test's files count as lasting.
func lastingFolder(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(dir, "tmp"))
	return dir
}

// Against the real Codex: install --write --trust, and Codex's own
// app-server then reports regate's two hooks trusted.
func TestTrustWithRealCodex(t *testing.T) {
	codexBin := realHost(t, "codex")
	dir := lastingFolder(t)
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	bin := filepath.Join(dir, "bin", "regate")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	var stdout, stderr bytes.Buffer
	code := Main([]string{"install", "codex", "--bin", bin, "--write", "--trust", "--codex", codexBin}, nil, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "Codex trusts regate's 2 hooks") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout.String(), stderr.String())
	}
	// Ask Codex itself, through a fresh app-server.
	cmd := exec.Command(codexBin, "app-server")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	c := &rpcClient{in: bufio.NewReader(out), out: in, ctx: context.Background()}
	if _, err := c.call("initialize", map[string]any{"clientInfo": map[string]any{"name": "regate-test", "version": "1"}}); err != nil {
		t.Fatal(err)
	}
	c.notify("initialized")
	hooks, err := c.regateHooks(home, filepath.Join(home, ".codex", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 2 {
		t.Fatalf("Codex lists %d regate hooks: %+v", len(hooks), hooks)
	}
	for _, h := range hooks {
		if h.TrustStatus != "trusted" {
			t.Errorf("%s is %s", h.Key, h.TrustStatus)
		}
	}
}
