// Package procstat reads what a benchmark reports about a server process
// it started: its resident memory, now and at its peak, from Linux's /proc.
package procstat

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PeakRSS returns the peak resident set size of process pid in bytes
// (VmHWM in /proc/PID/status).
func PeakRSS(pid int) (int64, error) { return status(pid, "VmHWM:") }

// RSS returns the resident set size of process pid in bytes (VmRSS in
// /proc/PID/status).
func RSS(pid int) (int64, error) { return status(pid, "VmRSS:") }

// status reads one "NAME: N kB" line of /proc/PID/status, in bytes.
func status(pid int, name string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("procstat: %s %q: %w", name, rest, err)
			}
			return kb * 1024, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("procstat: no %s for process %d", strings.TrimSuffix(name, ":"), pid)
}
