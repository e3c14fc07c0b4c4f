//go:build !unix

package rulefile

import "os"

// nonBlocking is no flag at all: on systems without unix FIFOs a plain
// open does not wait for a writer.
const nonBlocking = 0

// openNonBlocking opens path for reading.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
