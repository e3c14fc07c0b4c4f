package server

import (
	"sync"
	"time"
)

// Wrong-token throttling: the first FreeFailures wrong tokens from an
// address are answered 401 at once; from then on the address is refused
// with 429 for a delay that doubles with every further wrong token, from
// one second up to MaxLockout. A right token ends the count. The table
// holds at most ThrottleAddresses addresses, forgotten after ForgetAfter
// without a failure; past that, new addresses share one count, so a flood
// of addresses cannot grow it (they then slow each other down, never
// anyone's right token into an allow: a refused request is a block).
const (
	FreeFailures      = 5
	MaxLockout        = time.Minute
	ForgetAfter       = 15 * time.Minute
	ThrottleAddresses = 1024
)

// overflowKey is the count new addresses share when the table is full.
const overflowKey = "\x00overflow"

type throttle struct {
	now func() time.Time
	mu  sync.Mutex
	by  map[string]*strikes
}

type strikes struct {
	n     int
	last  time.Time // the last wrong token
	until time.Time // refused until then
}

func newThrottle(now func() time.Time) *throttle {
	return &throttle{now: now, by: map[string]*strikes{}}
}

// locked returns how long addr is still refused, or 0.
func (t *throttle) locked(addr string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.by[addr]
	if s == nil {
		s = t.by[overflowKey] // where this address's failures went, if the table was full
		if s == nil {
			return 0
		}
	}
	if wait := s.until.Sub(t.now()); wait > 0 {
		return wait
	}
	return 0
}

// fail counts a wrong token from addr.
func (t *throttle) fail(addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	s := t.by[addr]
	if s == nil {
		// One slot stays for the shared count.
		if len(t.by) >= ThrottleAddresses-1 {
			t.prune(now)
		}
		if len(t.by) >= ThrottleAddresses-1 {
			addr = overflowKey
			s = t.by[addr]
		}
		if s == nil {
			s = &strikes{}
			t.by[addr] = s
		}
	}
	s.n++
	s.last = now
	if s.n >= FreeFailures {
		delay := MaxLockout
		if shift := s.n - FreeFailures; shift < 6 { // 1 s << 6 is past MaxLockout
			delay = min(time.Second<<shift, MaxLockout)
		}
		s.until = now.Add(delay)
	}
}

// forget ends addr's count after a right token.
func (t *throttle) forget(addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.by, addr)
}

// prune drops the addresses idle for ForgetAfter; the caller holds mu.
func (t *throttle) prune(now time.Time) {
	for k, s := range t.by {
		if now.Sub(s.last) >= ForgetAfter && !s.until.After(now) {
			delete(t.by, k)
		}
	}
}
