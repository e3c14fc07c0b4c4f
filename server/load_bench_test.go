package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/bundle"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/stockopa"
	"github.com/regate/regate/internal/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/server"
)

// BenchmarkServe puts regate serve (over loopback HTTP) and a stock OPA
// server running regate's bundle under the same load: the workload's calls
// from 1, 8 and 64 concurrent clients. It reports decisions/s, p50 and p99
// latency; any error fails it. The stock server gets the input documents
// regate builds (bash decomposed in Go), as a host using it would send.
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
	s, err := server.New(server.Config{Initial: out, Compile: func() (*compiler.Output, error) { return out, nil }, Cwd: "/home/u/repo"})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

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
		bodies    [][]byte
	}{
		{"regate-serve", ts.URL + "/v1/data/regate/decision", regateBodies},
		{"stock-opa", opa.URL + "/v1/data/regate/lib/permission/decision", opaBodies},
	}
	for _, t := range targets {
		for _, conc := range []int{1, 8, 64} {
			b.Run(fmt.Sprintf("%s/c=%d", t.name, conc), func(b *testing.B) {
				load(b, t.url, t.bodies, conc)
			})
		}
	}
}

func load(b *testing.B, url string, bodies [][]byte, conc int) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}}
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
