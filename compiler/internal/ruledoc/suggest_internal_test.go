package ruledoc

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"abc", "acb", 1},
		{"abc", "ab", 1},
		{"abc", "xbc", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3},   // optimal string alignment: no edit of a swapped pair
		{"abcdef", "a", 4}, // past the limit of 3: limit+1
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b, 3); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
