/*
 * SPDX-FileCopyrightText: © rekv
 * SPDX-License-Identifier: Apache-2.0
 */

package skl

import (
	"unsafe"

	"github.com/dgraph-io/badger/v4/y"
)

// warmLanes is how many searches Warm walks in lockstep.
const warmLanes = 8

// Hint is where Warm found a key's place: on each level, the last node
// before the key (nil for a level it did not search).
type Hint struct {
	before [maxHeight]*node
}

// Warm runs the searches that Put makes for keys, warmLanes of them in
// lockstep, and records where each key's place is in hints[i] (len(hints)
// >= len(keys)); a nil key is skipped. It changes nothing in the list.
//
// A search is a chain of dependent loads (each node names the next),
// nearly every one a cache miss in a memtable of megabytes. Warm takes
// one step of each search in turn: it compares the node it asked for in
// the round before, now in the cache, and asks for the next one
// (prefetch) without waiting for it, so the misses of different keys
// overlap. PutHint then starts each level where Warm ended it: one
// comparison a level, with nodes in the cache, unless a key was put in
// between. It returns how many nodes it compared.
func (s *Skiplist) Warm(keys [][]byte, hints []Hint) int {
	var before, cand [warmLanes]*node
	var level [warmLanes]int
	steps := 0
	for base := 0; base < len(keys); base += warmLanes {
		n := min(warmLanes, len(keys)-base)
		lane := keys[base : base+n]
		hs := hints[base : base+n]
		top := int(s.getHeight()) - 1
		live := 0
		for j, key := range lane {
			hs[j] = Hint{}
			before[j], level[j], cand[j] = s.head, -1, nil
			if key != nil {
				level[j], cand[j] = top, s.getNext(s.head, top)
				live++
			}
		}
		for live > 0 {
			for j, key := range lane {
				l := level[j]
				if l < 0 {
					continue
				}
				cmp := -1
				if next := cand[j]; next != nil {
					cmp = y.CompareKeys(key, next.key(s.arena))
					steps++
				}
				if cmp > 0 {
					before[j] = cand[j] // on along this level
				} else {
					hs[j].before[l] = before[j]
					if l--; cmp == 0 || l < 0 {
						level[j] = -1 // done (found: a Put overwrites it)
						live--
						continue
					}
					level[j] = l
				}
				next := s.getNext(before[j], l)
				if next != nil {
					prefetch(uintptr(unsafe.Pointer(next)))
				}
				cand[j] = next
			}
		}
	}
	return steps
}

// PutHint is Put for a key that Warm found the place of in h.
func (s *Skiplist) PutHint(key []byte, v y.ValueStruct, h *Hint) { s.put(key, v, h) }
