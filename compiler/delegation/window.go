package delegation

import (
	"fmt"
	"strconv"
)

// A Window is a daily time window: the minutes from Start to End, both
// included, wrapping past midnight when End is before Start.
type Window struct {
	Start, End int // minutes since midnight, 0..1439
}

// ParseWindow reads "HH:MM-HH:MM": two digits each, hours 00-23, minutes
// 00-59.
func ParseWindow(s string) (Window, error) {
	if len(s) != 11 || s[5] != '-' {
		return Window{}, fmt.Errorf("invalid window %q: want HH:MM-HH:MM", s)
	}
	start, ok1 := parseClock(s[:5])
	end, ok2 := parseClock(s[6:])
	if !ok1 || !ok2 {
		return Window{}, fmt.Errorf("invalid window %q: hours run 00-23 and minutes 00-59", s)
	}
	return Window{Start: start, End: end}, nil
}

// parseClock reads "HH:MM" as minutes since midnight.
func parseClock(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' || !digits(s[:2]) || !digits(s[3:]) {
		return 0, false
	}
	h, _ := strconv.Atoi(s[:2])
	m, _ := strconv.Atoi(s[3:])
	if h > 23 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

// ParseClock reads a call's time, "HH:MM".
func ParseClock(s string) (int, error) {
	m, ok := parseClock(s)
	if !ok {
		return 0, fmt.Errorf("invalid time %q: want HH:MM", s)
	}
	return m, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Contains reports whether minute m (since midnight) is in the window.
func (w Window) Contains(m int) bool {
	if w.Start <= w.End {
		return w.Start <= m && m <= w.End
	}
	return m >= w.Start || m <= w.End
}

// Ranges are the window's minutes as ranges that do not wrap, split at
// midnight: what the compiled ceiling compares against.
func (w Window) Ranges() [][2]int {
	if w.Start <= w.End {
		return [][2]int{{w.Start, w.End}}
	}
	return [][2]int{{w.Start, 1439}, {0, w.End}}
}

// Inside reports whether every minute of w is in o.
func (w Window) Inside(o Window) bool {
	for _, r := range w.Ranges() {
		for m := r[0]; m <= r[1]; m++ {
			if !o.Contains(m) {
				return false
			}
		}
	}
	return true
}
