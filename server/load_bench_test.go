package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/bundle"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/procstat"
	"github.com/regate/regate/internal/testkit/stockopa"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// BenchmarkServe puts regate serve and a stock OPA server running regate's
// bundle, each its own process on loopback TCP, under the same load: the
// workload's calls from 1, 8 and 64 concurrent clients. It reports
// decisions/s, p50 and p99 latency and the server's peak resident memory;
// any error fails it. The stock server gets the input documents regate
// builds (bash decomposed in Go), as a host using it would send.
func BenchmarkServe(b *testing.B) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	if err != nil {
		b.Fatal(err)
	}
	calls := workload.Calls(workload.Seed, 1000)
	var regateBodies, opaBodies [][]byte
	eng, err := runtime.New(b.Context(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range calls {
		rb, _ := json.Marshal(map[string]any{"input": map[string]any{"tool": c.Tool, "input": c.Input, "cwd": "/home/u/repo"}})
		regateBodies = append(regateBodies, rb)
		doc, err := eng.Input(c)
		if err != nil {
			b.Fatal(err)
		}
		ob, _ := json.Marshal(map[string]any{"input": doc})
		opaBodies = append(opaBodies, ob)
	}
	rs := startRegate(b)

	bd, err := out.Bundle()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "regate.tar.gz")
	f, _ := os.Create(path)
	if err := bundle.NewWriter(f).Write(*bd); err != nil {
		b.Fatal(err)
	}
	f.Close()
	opa := stockopa.Start(b, "--bundle", path)

	targets := []struct {
		name, url string
		pid       int
		bodies    [][]byte
	}{
		{"regate-serve", rs.url + "/v1/data/regate/decision", rs.pid, regateBodies},
		{"stock-opa", opa.URL + "/v1/data/regate/lib/permission/decision", opa.Pid, opaBodies},
	}
	for _, t := range targets {
		for _, conc := range []int{1, 8, 64} {
			b.Run(fmt.Sprintf("%s/c=%d", t.name, conc), func(b *testing.B) {
				load(b, t.url, t.bodies, conc)
				peak, err := procstat.PeakRSS(t.pid)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
			})
		}
	}
}

type regateServer struct {
	url string
	pid int
}

// startRegate builds regate and runs `regate serve` on the bundled default
// policy on a free loopback port, stopping it when the benchmark ends.
func startRegate(b *testing.B) regateServer {
	bin := filepath.Join(b.TempDir(), "regate")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/regate").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--cwd", "/home/u/repo", "--home", "/home/u")
	cmd.Env = append(os.Environ(), "REGATE_TOKEN="+benchToken) // TCP needs a token, loopback too
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	url := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resp, err := (&http.Client{Transport: bearer{http.DefaultTransport}}).Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return regateServer{url: url, pid: cmd.Process.Pid}
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("regate serve did not start:\n%s", logs.String())
		}
	}
}

func load(b *testing.B, url string, bodies [][]byte, conc int) {
	client := &http.Client{Transport: bearer{&http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}}}
	var mu sync.Mutex
	var lat []time.Duration
	work := make(chan int)
	var wg sync.WaitGroup
	var failed error
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for i := range work {
				start := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(bodies[i%len(bodies)]))
				if err == nil {
					var v map[string]any
					err = json.NewDecoder(resp.Body).Decode(&v)
					resp.Body.Close()
					if err == nil && (resp.StatusCode != 200 || v["result"] == nil) {
						err = fmt.Errorf("status %d: %v", resp.StatusCode, v)
					}
				}
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	elapsed := time.Since(start)
	if failed != nil {
		b.Fatalf("errors under load: %v", failed)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "decisions/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// benchToken is the token the benchmark's regate serve takes; stock OPA
// ignores the header.
const benchToken = "bench-token-0123456789abcdef"

// bearer sends the benchmark's token with every request.
type bearer struct{ next http.RoundTripper }

func (t bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+benchToken)
	return t.next.RoundTrip(r)
}
