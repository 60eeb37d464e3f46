package resp

import (
	"math"
	"strconv"
	"strings"
)

// ParseMemory parses a memory amount as Redis's memtoull: digits and an
// optional unit (b, k, kb, m, mb, g, gb; any case; k is 1000 and kb
// 1024); too big saturates.
func ParseMemory(s string) (uint64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	mul := map[string]uint64{"": 1, "b": 1, "k": 1000, "kb": 1024, "m": 1000 * 1000, "mb": 1 << 20,
		"g": 1000 * 1000 * 1000, "gb": 1 << 30}[strings.ToLower(s[i:])]
	if mul == 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil || n > math.MaxUint64/mul {
		return math.MaxUint64, true
	}
	return n * mul, true
}
