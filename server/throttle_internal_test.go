package server

import (
	"fmt"
	"testing"
	"time"
)

// TestThrottleDelays: the free failures, then a delay that doubles up to
// MaxLockout; a right token ends the count; idle addresses are forgotten.
func TestThrottleDelays(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	th := newThrottle(func() time.Time { return now })
	for i := 1; i < FreeFailures; i++ {
		th.fail("a")
		if w := th.locked("a"); w != 0 {
			t.Fatalf("after %d failures: locked %s", i, w)
		}
	}
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, MaxLockout, MaxLockout, MaxLockout} {
		th.fail("a")
		if w := th.locked("a"); w != want {
			t.Fatalf("failure %d past the free ones: locked %s, want %s", i+1, w, want)
		}
		if w := th.locked("b"); w != 0 {
			t.Fatalf("another address is locked %s", w)
		}
	}
	now = now.Add(MaxLockout)
	if w := th.locked("a"); w != 0 {
		t.Fatalf("after the delay: locked %s", w)
	}
	th.fail("a")
	th.forget("a")
	if w := th.locked("a"); w != 0 {
		t.Fatalf("after a right token: locked %s", w)
	}
}

// TestThrottleBounded: the table never holds more than ThrottleAddresses
// addresses; past that, new addresses share one count (and are throttled
// together), and idle ones make room again.
func TestThrottleBounded(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	th := newThrottle(func() time.Time { return now })
	for i := 0; i < 3*ThrottleAddresses; i++ {
		th.fail(fmt.Sprintf("10.0.%d.%d", i/256, i%256))
	}
	if n := len(th.by); n > ThrottleAddresses {
		t.Fatalf("%d addresses kept, the bound is %d", n, ThrottleAddresses)
	}
	if w := th.locked("192.0.2.1"); w == 0 {
		t.Fatal("a new address past the bound shares the flooded count, which is locked")
	}
	now = now.Add(ForgetAfter)
	th.fail("192.0.2.1")
	if _, ok := th.by["192.0.2.1"]; !ok || len(th.by) != 1 {
		t.Fatalf("idle addresses were not forgotten: %d kept", len(th.by))
	}
}
