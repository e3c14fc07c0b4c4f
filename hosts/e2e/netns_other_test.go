//go:build !linux

package e2e

import (
	"errors"
	"net"
)

// netns is Linux only; elsewhere the hosts run in the test's own network.
type netns struct{}

func newNetns() (*netns, error) { return nil, errors.New("network namespaces are Linux only") }

func (n *netns) listen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

func (n *netns) wrap(argv []string) []string { return argv }

func (n *netns) close() {}
