package set

import (
	"fmt"
	"strings"
	"testing"
)

// TestSRandMemberSpread draws from sets and checks each tenth of the
// members (in key order) gets a fair share. The key shapes are those that
// skew naive seek-based sampling: decimal strings (byte gaps after each
// carry) and hex strings (a hole between '9' and 'a'). 1,000 members are
// sampled exactly (read whole), even spaced out unevenly (every fourth hex
// number); 4,000 and 4,096 are sampled by the trie descent, whose keys
// here fill their alphabet evenly.
func TestSRandMemberSpread(t *testing.T) {
	for _, tc := range []struct {
		format     string
		n, spacing int
	}{{"element:%012d", 1000, 1}, {"id:%04x", 1000, 4}, {"element:%012d", 4000, 1}, {"id:%04x", 4096, 1}} {
		t.Run(fmt.Sprint(tc.format, tc.n), func(t *testing.T) {
			h := harness(t)
			var b strings.Builder
			b.WriteString("sadd s")
			index := map[string]int{}
			for i := 0; i < tc.n; i++ {
				m := fmt.Sprintf(tc.format, i*tc.spacing)
				b.WriteString(" " + m)
				index[m] = i * 10 / tc.n
			}
			h.Run([]c{{b.String(), fmt.Sprintf(":%d\r\n", tc.n)}})
			var tenths [10]int
			for i := 0; i < 40; i++ { // 40 x 50 = 2,000 draws
				for _, line := range strings.Split(h.Do("srandmember s -50"), "\r\n") {
					if d, ok := index[line]; ok {
						tenths[d]++
					}
				}
			}
			// 200 expected per tenth; a standard deviation is about 13.
			for d, n := range tenths {
				if n < 120 || n > 280 {
					t.Fatalf("tenth %d got %d of 2000 draws: %v", d, n, tenths)
				}
			}
		})
	}
}
