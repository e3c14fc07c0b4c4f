//go:build unix

package main

import "os"

// hasTerminal reports whether the process has a controlling terminal, that
// is whether a person is there to answer the host's own dialog. A hook
// inherits its host's session: the interactive Gemini CLI has one, a
// headless run under CI or a scheduler has none (opening /dev/tty fails
// with ENXIO).
func hasTerminal() bool {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
