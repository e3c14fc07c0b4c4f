package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regate/regate/internal/testkit/procstat"
	"github.com/regate/regate/internal/testkit/workload"
)

// soakClients is how many clients the soak runs at once.
const soakClients = 64

// BenchmarkServeSoak runs `regate serve` (its own process, on a Unix
// socket) under soakClients clients for 30 s, or for REGATE_SOAK (a
// duration: .ci/fuzz-long runs it for 10m). Each client moves to a new
// session every 2 calls and names one of 500 working directories, so the
// server meets tens of thousands of sessions in 30 s, far past what it
// holds (server.MaxSessions); the calls are the workload's. It logs the server's resident memory every 5 s and reports
// its peak and final RSS and decisions/s; any error fails it.
//
//	go test -run '^$' -bench ServeSoak -benchtime 1x ./server/
func BenchmarkServeSoak(b *testing.B) {
	duration := 30 * time.Second
	if v := os.Getenv("REGATE_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("REGATE_SOAK=%q: %v", v, err)
		}
		duration = d
	}
	var inputs [][]byte
	for _, c := range workload.Calls(workload.Seed, 1000) {
		in, _ := json.Marshal(map[string]any{"tool": c.Tool, "input": c.Input})
		inputs = append(inputs, in)
	}
	srv := startSocketServe(b)
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", srv.socket)
		},
		MaxIdleConnsPerHost: soakClients,
	}}
	for b.Loop() {
		var decisions, sessions, failures atomic.Int64
		var firstErr atomic.Value
		deadline := time.Now().Add(duration)
		var wg sync.WaitGroup
		for c := range soakClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; time.Now().Before(deadline); n++ {
					in := inputs[(c*7919+n)%len(inputs)]
					if n%2 == 0 {
						sessions.Add(1)
					}
					body := fmt.Appendf(nil, `{"input": {"session": "soak-%d-%d", "cwd": "/home/u/repo/d%d", %s}`,
						c, n/2, n%500, in[1:])
					if err := soakCall(client, body); err != nil {
						failures.Add(1)
						firstErr.CompareAndSwap(nil, err)
						continue
					}
					decisions.Add(1)
				}
			}()
		}
		start := time.Now()
		var peak int64
		for tick := time.NewTicker(5 * time.Second); time.Now().Before(deadline); {
			select {
			case <-tick.C:
			case <-time.After(time.Until(deadline)):
			}
			rss, err := procstat.RSS(srv.pid)
			if err != nil {
				b.Fatal(err)
			}
			peak = max(peak, rss)
			b.Logf("t=%4.0fs  rss=%6.1f MiB  decisions=%d  sessions=%d  errors=%d", time.Since(start).Seconds(), float64(rss)/(1<<20),
				decisions.Load(), sessions.Load(), failures.Load())
		}
		wg.Wait()
		elapsed := time.Since(start)
		if n := failures.Load(); n > 0 {
			b.Fatalf("%d errors under load, the first: %v", n, firstErr.Load())
		}
		hwm, err := procstat.PeakRSS(srv.pid)
		if err != nil {
			b.Fatal(err)
		}
		end, _ := procstat.RSS(srv.pid)
		b.ReportMetric(float64(decisions.Load())/elapsed.Seconds(), "decisions/s")
		b.ReportMetric(float64(hwm)/(1<<20), "peak-RSS-MiB")
		b.ReportMetric(float64(end)/(1<<20), "end-RSS-MiB")
		b.ReportMetric(float64(sessions.Load()), "sessions")
		b.ReportMetric(0, "errors")
	}
}

// soakCall makes one decision; anything but a result is an error.
func soakCall(client *http.Client, body []byte) error {
	req, _ := http.NewRequest(http.MethodPost, "http://regate/v1/data/regate/decision", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || v["result"] == nil {
		return fmt.Errorf("status %d: %v", resp.StatusCode, v)
	}
	return nil
}

type socketServe struct {
	socket string
	pid    int
}

// startSocketServe builds regate and runs `regate serve` on the bundled
// default policy on a Unix socket, stopping it when the benchmark ends.
func startSocketServe(b *testing.B) socketServe {
	dir := b.TempDir()
	bin := filepath.Join(dir, "regate")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/regate").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	socket := filepath.Join(dir, "regate.sock")
	cmd := exec.Command(bin, "serve", "--socket", socket, "--cwd", "/home/u/repo", "--home", "/home/u")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", socket); err == nil {
			c.Close()
			return socketServe{socket: socket, pid: cmd.Process.Pid}
		}
		if time.Now().After(deadline) {
			b.Fatalf("regate serve did not start:\n%s", logs.String())
		}
	}
}
