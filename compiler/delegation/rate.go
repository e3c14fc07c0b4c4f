package delegation

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// A Rate is a token bucket: Burst tokens at most, refilled continuously at
// Burst per Period seconds. A bucket starts full.
type Rate struct {
	Burst  int64
	Period int64 // seconds: 1, 60, 3600 or 86400
}

var periods = map[string]int64{"second": 1, "minute": 60, "hour": 3600, "day": 86400}

// ParseRate reads "N/second", "N/minute", "N/hour" or "N/day" exactly: N is
// 0 or a decimal integer with no leading zero, sign or space, below 2^63.
func ParseRate(s string) (Rate, error) {
	n, unit, ok := strings.Cut(s, "/")
	period, known := periods[unit]
	if !ok || !known || !plainInt(n) {
		return Rate{}, fmt.Errorf("invalid rate %q: want N/second, N/minute, N/hour or N/day", s)
	}
	burst, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return Rate{}, fmt.Errorf("invalid rate %q: N is out of range", s)
	}
	return Rate{Burst: burst, Period: period}, nil
}

// plainInt reports whether s is "0" or digits with no leading zero.
func plainInt(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// PerDay is the refill per day, N·86400/period, which is an integer for
// every period; it can pass 2^63, so it is a big integer.
func (r Rate) PerDay() *big.Int {
	v := big.NewInt(r.Burst)
	return v.Mul(v, big.NewInt(86400/r.Period))
}

// NoLooser reports whether r admits no more than o: no bigger burst and no
// faster refill, compared exactly.
func (r Rate) NoLooser(o Rate) bool {
	return r.Burst <= o.Burst && r.PerDay().Cmp(o.PerDay()) <= 0
}

func (r Rate) String() string {
	for unit, p := range periods {
		if p == r.Period {
			return fmt.Sprintf("%d/%s", r.Burst, unit)
		}
	}
	return fmt.Sprintf("%d/%ds", r.Burst, r.Period)
}
