//go:build !unix

package rulefile

import "os"

// openNonBlocking opens path for reading; on systems without unix FIFOs a
// plain open does not wait for a writer.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
