// Package procstat reads what a benchmark reports about a server process
// it started: its peak resident memory, from Linux's /proc.
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
func PeakRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("procstat: VmHWM %q: %w", rest, err)
			}
			return kb * 1024, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("procstat: no VmHWM for process %d", pid)
}
