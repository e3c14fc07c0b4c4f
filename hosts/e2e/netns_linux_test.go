//go:build linux

package e2e

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// netns is a network namespace with only loopback, held open by a sleeping
// `unshare -n` process. Hosts run inside it (nsenter); the fake servers
// listen inside it too, so a host can reach them and nothing else: a test
// that passes proves the host needed no network.
type netns struct {
	holder *exec.Cmd
	path   string // /proc/PID/ns/net
}

// newNetns starts the holder, with loopback up, or says why it cannot.
func newNetns() (*netns, error) {
	if _, err := exec.LookPath("unshare"); err != nil {
		return nil, fmt.Errorf("no unshare: %w", err)
	}
	if _, err := exec.LookPath("nsenter"); err != nil {
		return nil, fmt.Errorf("no nsenter: %w", err)
	}
	cmd := exec.Command("unshare", "-n", "sh", "-c", "ip link set lo up && echo ready && exec sleep 86400")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("unshare -n: %w", err)
	}
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- strings.TrimSpace(line)
	}()
	select {
	case line := <-ready:
		if line != "ready" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("unshare -n: loopback did not come up (%q)", line)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("unshare -n: no answer in 10s")
	}
	return &netns{holder: cmd, path: "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/ns/net"}, nil
}

// listen opens a TCP listener on 127.0.0.1 inside the namespace: the
// socket is created on a thread switched into it, and a socket stays in
// the namespace it was created in.
func (n *netns) listen() (net.Listener, error) {
	if n == nil {
		return net.Listen("tcp", "127.0.0.1:0")
	}
	runtime.LockOSThread()
	self, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	defer self.Close()
	target, err := os.Open(n.path)
	if err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	defer target.Close()
	if err := setns(target); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	l, lerr := net.Listen("tcp", "127.0.0.1:0")
	if err := setns(self); err != nil {
		// The thread is stuck in the namespace: leave it locked so it
		// dies with this goroutine instead of serving others.
		if l != nil {
			l.Close()
		}
		return nil, fmt.Errorf("back to the test's namespace: %w", err)
	}
	runtime.UnlockOSThread()
	return l, lerr
}

func setns(f *os.File) error {
	if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("setns: %w", err)
	}
	return nil
}

// wrap prefixes argv so it runs inside the namespace.
func (n *netns) wrap(argv []string) []string {
	if n == nil {
		return argv
	}
	return append([]string{"nsenter", "--net=" + n.path, "--"}, argv...)
}

func (n *netns) close() {
	if n == nil {
		return
	}
	_ = syscall.Kill(-n.holder.Process.Pid, syscall.SIGKILL)
	_ = n.holder.Wait()
}
