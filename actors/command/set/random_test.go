package set

import (
	"fmt"
	"strings"
	"testing"
)

// TestSRandMemberSpread draws from 1,000 members and checks each tenth of
// them (in key order) gets a fair share. The key shapes are those that
// skew naive seek-based sampling: decimal strings (byte gaps after each
// carry) and hex strings (a hole between '9' and 'a').
func TestSRandMemberSpread(t *testing.T) {
	for _, format := range []string{"element:%012d", "id:%04x"} {
		t.Run(format, func(t *testing.T) {
			h := harness(t)
			var b strings.Builder
			b.WriteString("sadd s")
			for i := 0; i < 1000; i++ {
				fmt.Fprintf(&b, " "+format, i*(1+strings.Count(format, "x")*3))
			}
			h.Run([]c{{b.String(), ":1000\r\n"}})
			index := map[string]int{}
			for i := 0; i < 1000; i++ {
				index[fmt.Sprintf(format, i*(1+strings.Count(format, "x")*3))] = i
			}
			var tenths [10]int
			for i := 0; i < 40; i++ { // 40 x 50 = 2,000 draws
				for _, line := range strings.Split(h.Do("srandmember s -50"), "\r\n") {
					if n, ok := index[line]; ok {
						tenths[n/100]++
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
