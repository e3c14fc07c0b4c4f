//go:build unix

package rulefile

import (
	"os"
	"syscall"
)

// nonBlocking is the open flag that keeps an open of a FIFO from waiting
// for its writer; reads of a regular file are unaffected by it.
const nonBlocking = syscall.O_NONBLOCK

// openNonBlocking opens path for reading without waiting for a FIFO's
// writer.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|nonBlocking, 0)
}
