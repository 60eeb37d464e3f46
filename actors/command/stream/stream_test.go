package stream

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
	"github.com/rekv/rekv/actors/command/keys"
)

type c = commandtest.Case

func harness(t *testing.T) *commandtest.Harness {
	return commandtest.New(t, Commands(), keys.Commands())
}

// TestAutoIDs: "*" takes the clock's ms, or the last ID + 1 when the clock
// is behind (or equal); "ms-*" continues a ms's sequence.
func TestAutoIDs(t *testing.T) {
	h := harness(t)
	ms := strconv.FormatInt(h.Now, 10)
	h.Run([]c{
		{"xadd s * f v", fmt.Sprintf("$%d\r\n%s-0\r\n", len(ms)+2, ms)},
		{"xadd s * f v", fmt.Sprintf("$%d\r\n%s-1\r\n", len(ms)+2, ms)},
	})
	h.Now -= 1000 // the clock went back: IDs keep growing
	h.Run([]c{{"xadd s * f v", fmt.Sprintf("$%d\r\n%s-2\r\n", len(ms)+2, ms)}})
	h.Now += 2000
	next := strconv.FormatInt(h.Now, 10)
	h.Run([]c{
		{"xadd s * f v", fmt.Sprintf("$%d\r\n%s-0\r\n", len(next)+2, next)},
		{"xadd s " + next + "-* f v", fmt.Sprintf("$%d\r\n%s-1\r\n", len(next)+2, next)},
		{"xlen s", ":5\r\n"},
	})
}

// TestEvents: XADD raises xadd (then xtrim when it trimmed), XDEL xdel,
// XTRIM xtrim, DEL del.
func TestEvents(t *testing.T) {
	h := harness(t)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"xadd s 1-1 a b", []string{"new 0 s", "xadd 0 s"}},
		{"xadd s maxlen 1 2-1 a b", []string{"xadd 0 s", "xtrim 0 s"}},
		{"xadd s nomkstream 3-1 a b", []string{"xadd 0 s"}},
		{"xadd none nomkstream 3-1 a b", nil},
		{"xdel s 3-1 9-9", []string{"xdel 0 s"}},
		{"xdel s 9-9", nil},
		{"xtrim s maxlen 5", nil},
		{"xtrim s maxlen 0", []string{"xtrim 0 s"}},
		{"del s", []string{"del 0 s"}},
	} {
		h.Do(tc.line)
		if got := h.Events(); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: events %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestEntriesStayOrdered: IDs whose bytes would sort differently as text
// (9 vs 10, big sequences) come back in numeric order.
func TestEntriesStayOrdered(t *testing.T) {
	h := harness(t)
	var want []string
	for _, id := range []string{"9-1", "10-0", "10-9", "10-10", "100-1", "18446744073709551615-0"} {
		h.Do("xadd s " + id + " f " + id)
		want = append(want, id)
	}
	got := h.Do("xrange s - +")
	for _, id := range want {
		i := strings.Index(got, id+"\r\n")
		if i < 0 {
			t.Fatalf("%s missing from %q", id, got)
		}
		got = got[i+len(id):]
	}
}
