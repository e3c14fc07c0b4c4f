package hostile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Ceilings every case is held to. A hook process is one decision; its peak
// resident memory stays under HookRSS whatever the input (docs/testing.md).
const (
	HookRSS      = 160 << 20
	HookDeadline = 10 * time.Second // the hook's own deadline (cmd/regate/hookdeadline.go)
	// grace is what a case may take past its deadline before the suite calls
	// it a hang: process start, and the answer written after the deadline.
	grace = 5 * time.Second
)

// regateBin is the binary under test, built once by TestMain (or given by
// REGATE_BIN).
var regateBin string

func TestMain(m *testing.M) {
	if os.Getenv(spawnEnv) != "" {
		os.Exit(spawn(os.Args[1:]))
	}
	os.Exit(run(m))
}

// spawnEnv makes the test binary a small go-between: it runs its arguments
// as a child and writes the child's peak resident memory to file 3. The
// measurement needs it because Linux carries a process's peak across
// execve, and a child the test process starts directly begins with the
// test process's own peak (the hostile inputs it built); one started by a
// fresh, small process begins with that one's few megabytes.
const spawnEnv = "REGATE_HOSTILE_SPAWN"

func spawn(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // killed with the go-between
	err := cmd.Run()
	report := os.NewFile(3, "report")
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && report != nil {
		fmt.Fprintf(report, "%d", ru.Maxrss*1024) // Linux reports kilobytes
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exitErr):
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exitErr.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "hostile go-between:", err)
	return 126
}

func run(m *testing.M) int {
	if raceEnabled {
		os.Stderr.WriteString("hostile: skipped under the race detector (the binary runs as its own process)\n")
		return 0
	}
	if bin := os.Getenv("REGATE_BIN"); bin != "" {
		regateBin = bin
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "regate-hostile")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	regateBin = filepath.Join(dir, "regate")
	if out, err := exec.Command("go", "build", "-o", regateBin, "../../../cmd/regate").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		return 1
	}
	return m.Run()
}

// result is what one run of the binary left.
type result struct {
	exit    int
	stdout  string
	stderr  string
	peakRSS int64 // bytes
	elapsed time.Duration
}

// runRegate runs the binary with args and stdin, killing it at deadline
// (a hang is reported by the caller from elapsed and the kill).
func runRegate(t *testing.T, deadline time.Duration, stdin []byte, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{regateBin}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	reportR, reportW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer reportR.Close()
	cmd.ExtraFiles = []*os.File{reportW}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(append(os.Environ(), spawnEnv+"=1"), env...)
	start := time.Now()
	err = cmd.Run()
	reportW.Close()
	peak, _ := io.ReadAll(reportR)
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("regate %s: still running after %s (a hang)", strings.Join(args, " "), deadline)
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		r.exit = exitErr.ExitCode()
	default:
		t.Fatalf("regate %s: %v", strings.Join(args, " "), err)
	}
	if r.peakRSS, err = strconv.ParseInt(string(peak), 10, 64); err != nil {
		t.Fatalf("regate %s: no peak memory reported (%q)", strings.Join(args, " "), peak)
	}
	return r
}

// noCrash fails the test when the process died the way Go dies: a panic, a
// fatal error (stack overflow, out of memory), or a signal.
func noCrash(t *testing.T, r result) {
	t.Helper()
	for _, sign := range []string{"panic:", "fatal error:", "goroutine ", "runtime stack"} {
		if strings.Contains(r.stderr, sign) {
			t.Fatalf("crashed (%q in stderr): %.400s", sign, r.stderr)
		}
	}
	if r.exit < 0 || r.exit > 125 {
		t.Fatalf("killed or crashed: exit %d, stderr %.400s", r.exit, r.stderr)
	}
}
