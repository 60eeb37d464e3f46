package cluster

import (
	"fmt"
	"testing"
)

func TestRebalance(t *testing.T) {
	empty := &Map{}
	one := Rebalance(empty, []string{"a"})
	if r := one.Ranges(); len(r) != 1 || r[0] != (Range{0, Slots - 1, "a"}) || one.Epoch != 1 {
		t.Fatalf("one node: %v epoch %d", r, one.Epoch)
	}
	three := Rebalance(one, []string{"c", "b", "a"})
	want := []Range{{0, 5461, "a"}, {5462, 10922, "b"}, {10923, Slots - 1, "c"}}
	if got := three.Ranges(); fmt.Sprint(got) != fmt.Sprint(want) || three.Epoch != 2 {
		t.Fatalf("three nodes: %v epoch %d, want %v", got, three.Epoch, want)
	}
	if again := Rebalance(three, []string{"a", "b", "c"}); again.Epoch != three.Epoch || again.Owners != three.Owners {
		t.Fatal("the same members changed the map")
	}
	// b leaves: only b's slots move.
	two := Rebalance(three, []string{"a", "c"})
	for s := range Slots {
		if three.Owners[s] != "b" && two.Owners[s] != three.Owners[s] {
			t.Fatalf("slot %d moved from %s to %s", s, three.Owners[s], two.Owners[s])
		}
	}
	if two.Count("a") != Slots/2 || two.Count("c") != Slots/2 {
		t.Fatalf("two nodes: a %d c %d", two.Count("a"), two.Count("c"))
	}
	// d joins: it takes only what the others had over their share.
	moved := 0
	four := Rebalance(two, []string{"a", "c", "d"})
	for s := range Slots {
		if four.Owners[s] != two.Owners[s] {
			moved++
			if four.Owners[s] != "d" {
				t.Fatalf("slot %d moved to %s, not to the joining node", s, four.Owners[s])
			}
		}
	}
	if moved != four.Count("d") || four.Count("d") < Slots/3 {
		t.Fatalf("moved %d, d owns %d", moved, four.Count("d"))
	}
	none := Rebalance(four, nil)
	if len(none.Ranges()) != 0 {
		t.Fatal("slots owned with no live node")
	}
}

func TestMapEncoding(t *testing.T) {
	m := Rebalance(Rebalance(&Map{}, []string{"x"}), []string{"x", "node-2", "a3"})
	m.Owners[77] = "" // an unowned slot
	got, err := DecodeMap(m.Encode())
	if err != nil || got.Epoch != m.Epoch || got.Owners != m.Owners {
		t.Fatalf("round trip: %v", err)
	}
	for _, b := range [][]byte{nil, make([]byte, 7), append(make([]byte, 8), 0, 1, 0, 0, 1, 'x'), append(make([]byte, 8), 0, 0, 0, 1, 3, 'x')} {
		if _, err := DecodeMap(b); err == nil {
			t.Errorf("DecodeMap(%x) decoded", b)
		}
	}
}
