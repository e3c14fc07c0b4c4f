// Package rulefile reads a file a user names as rules (a policy, hard
// guards, an agent, a profile) the one safe way: a regular file only,
// opened without blocking, read up to a size limit.
//
// A FIFO or a device at such a path would otherwise hang the reader (a
// FIFO blocks open until a writer comes; /dev/zero never ends), and the
// hook would stall until the host's own timeout let the call run (issue
// 20). The check is made on the opened file, so a path swapped between a
// check and the open cannot slip past it.
//
// Read follows links, for a path the user names. ReadEntry is for an entry
// found by listing a folder (a profile in profiles/): it never follows a
// link, so a link planted in a trusted folder cannot pull a file from
// anywhere else (a private key) into what is read.
package rulefile
