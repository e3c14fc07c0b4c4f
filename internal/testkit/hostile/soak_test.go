package hostile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/internal/testkit/procstat"
)

// shapes build hostile commands of a size n (about n bytes or n parts).
var shapes = []func(r *rand.Rand, n int) string{
	func(_ *rand.Rand, n int) string { return repeat("a", " | ", n/4) },
	func(_ *rand.Rand, n int) string { return repeat("echo x", "; ", n/8) },
	func(_ *rand.Rand, n int) string { return "ls " + repeat("w", " ", n/2) },
	func(_ *rand.Rand, n int) string { return "cat " + strings.Repeat("a/", n/2) },
	func(_ *rand.Rand, n int) string { return "cat " + strings.Repeat("../", n/3) + "etc/passwd" },
	func(_ *rand.Rand, n int) string { return strings.Repeat("(", n/2) + "ls" + strings.Repeat(")", n/2) },
	func(_ *rand.Rand, n int) string {
		return "echo " + strings.Repeat("$(", n/3) + "a" + strings.Repeat(")", n/3)
	},
	func(_ *rand.Rand, n int) string { return "echo " + strings.Repeat("{a,b}", min(n/5, 64)) },
	func(_ *rand.Rand, n int) string { return "cat " + repeat("/*/*/*", " ", n/7) },
	func(_ *rand.Rand, n int) string { return heredocs(n / 16) },
	func(_ *rand.Rand, n int) string { return strings.Repeat("X=$X$X ", n/7) + "cat $X" },
	func(r *rand.Rand, n int) string { // random bytes, shell metacharacters weighted in
		const alphabet = "ab/.*?[]{}()$`'\"\\|&;<> \n\t=~-!"
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	},
}

// TestServeHostileSoak sends random hostile commands of random sizes from 8
// clients to one serve for REGATE_HOSTILE_LONG (a duration, e.g. 10m; the
// long run of .ci/fuzz-long), then checks serve still answers and stayed
// under its memory ceiling. Skipped without the variable.
func TestServeHostileSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("REGATE_HOSTILE_LONG"))
	if err != nil {
		t.Skip("REGATE_HOSTILE_LONG (a duration) is not set")
	}
	s := startServe(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[int]int{}
	stop := time.Now().Add(d)
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 20))
			for time.Now().Before(stop) {
				n := 1 << (4 + r.IntN(16)) // 16 B to 512 KiB
				cmd := shapes[r.IntN(len(shapes))](r, n)
				status, body := s.do(t, "POST", "/v1/data/regate/decision", "application/json", decision(fmt.Sprintf("soak%d", r.IntN(1000)), cmd))
				result, _ := body["result"].(map[string]any)
				mu.Lock()
				counts[status]++
				mu.Unlock()
				if status != 200 && status != 400 && status != 413 {
					t.Errorf("status %d for a %d-byte command: %v", status, len(cmd), body)
					return
				}
				if status == 200 && result["action"] == nil {
					t.Errorf("a 200 without an action: %v", body)
					return
				}
			}
		}()
	}
	wg.Wait()
	s.stillServes(t)
	peak, err := procstat.PeakRSS(s.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: statuses %v, serve peak RSS %d MiB", d, counts, peak>>20)
	if peak > ServeRSS {
		t.Fatalf("serve peak RSS %d MiB, ceiling %d MiB", peak>>20, ServeRSS>>20)
	}
}
