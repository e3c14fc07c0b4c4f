package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/regate/regate/hosts"
)

// trustTimeout bounds the whole exchange with codex app-server.
const trustTimeout = 60 * time.Second

// trustCodexHooks records Codex's trust for regate's hooks in hooksFile, the
// way Codex's own /hooks screen does: it asks codex app-server (JSON-RPC
// over stdio) for the hooks it sees from cwd, then writes hooks.state
// KEY.trusted_hash = currentHash for each of regate's, then checks that
// Codex now reports them trusted. It returns how many hooks it trusted.
// Only the user's explicit --trust runs this.
func trustCodexHooks(ctx context.Context, codexBin, home, cwd, hooksFile string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, trustTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, codexBin, "app-server")
	cmd.Dir = cwd
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("cannot start %s app-server: %w", codexBin, err)
	}
	n, err := trustOver(ctx, stdout, stdin, cwd, hooksFile)
	stdin.Close()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err != nil && stderr.Len() > 0 {
		err = fmt.Errorf("%w (codex said: %s)", err, oneLine(strings.TrimSpace(stderr.String())))
	}
	return n, err
}

// trustOver runs the trust exchange with an app-server reading w and
// writing r.
func trustOver(ctx context.Context, r io.Reader, w io.Writer, cwd, hooksFile string) (int, error) {
	c := &rpcClient{in: bufio.NewReaderSize(r, 1<<16), out: w, ctx: ctx}
	if _, err := c.call("initialize", map[string]any{"clientInfo": map[string]any{"name": "regate", "title": "regate install", "version": "1"}}); err != nil {
		return 0, err
	}
	if err := c.notify("initialized"); err != nil {
		return 0, err
	}
	ours, err := c.regateHooks(cwd, hooksFile)
	if err != nil {
		return 0, err
	}
	if len(ours) == 0 {
		return 0, fmt.Errorf("codex app-server lists no regate hook from %s (a project's hooks are listed only once the project is trusted)", hooksFile)
	}
	state := map[string]any{}
	for _, h := range ours {
		state[h.Key] = map[string]any{"trusted_hash": h.CurrentHash}
	}
	if _, err := c.call("config/batchWrite", map[string]any{
		"edits":           []any{map[string]any{"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": state}},
		"filePath":        nil,
		"expectedVersion": nil,
		// Codex reloads the user config, so the app-server's next list
		// shows the trust it will apply.
		"reloadUserConfig": true,
	}); err != nil {
		return 0, err
	}
	after, err := c.regateHooks(cwd, hooksFile)
	if err != nil {
		return 0, err
	}
	for _, h := range after {
		if h.TrustStatus != "trusted" {
			return 0, fmt.Errorf("codex still reports regate's hook %s as %s", h.Key, h.TrustStatus)
		}
	}
	return len(after), nil
}

// A codexHook is one entry of Codex's hooks/list answer.
type codexHook struct {
	Key           string `json:"key"`
	Command       string `json:"command"`
	StatusMessage string `json:"statusMessage"`
	SourcePath    string `json:"sourcePath"`
	CurrentHash   string `json:"currentHash"`
	TrustStatus   string `json:"trustStatus"`
}

// regateHooks are the hooks Codex lists from hooksFile that are regate's.
func (c *rpcClient) regateHooks(cwd, hooksFile string) ([]codexHook, error) {
	res, err := c.call("hooks/list", map[string]any{"cwds": []string{cwd}})
	if err != nil {
		return nil, err
	}
	var list struct {
		Data []struct {
			Hooks []codexHook `json:"hooks"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res, &list); err != nil {
		return nil, fmt.Errorf("codex app-server: hooks/list: %w", err)
	}
	var ours []codexHook
	for _, entry := range list.Data {
		for _, h := range entry.Hooks {
			if resolved(h.SourcePath) != resolved(hooksFile) {
				continue
			}
			if hosts.IsRegateHandler(map[string]any{"statusMessage": h.StatusMessage, "command": h.Command}) {
				ours = append(ours, h)
			}
		}
	}
	return ours, nil
}

// An rpcClient speaks JSON-RPC 2.0, one message a line, as codex
// app-server does. Notifications and requests from the server are skipped.
type rpcClient struct {
	in     *bufio.Reader
	out    io.Writer
	ctx    context.Context
	nextID int
}

func (c *rpcClient) notify(method string) error {
	return c.send(map[string]any{"jsonrpc": "2.0", "method": method})
}

func (c *rpcClient) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.out.Write(append(b, '\n'))
	return err
}

// call sends a request and waits for its answer.
func (c *rpcClient) call(method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("codex app-server: %s: %w", method, err)
	}
	for {
		if err := c.ctx.Err(); err != nil {
			return nil, fmt.Errorf("codex app-server: %s: %w", method, err)
		}
		line, err := c.in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("it exited before answering")
			}
			return nil, fmt.Errorf("codex app-server: %s: %w", method, err)
		}
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil || msg.Method != "" || *msg.ID != id {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("codex app-server: %s: %s (%d)", method, msg.Error.Message, msg.Error.Code)
		}
		return msg.Result, nil
	}
}

// A limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
