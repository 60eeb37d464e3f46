package rjson

import (
	"sort"
)

// At returns the value at path from root, or nil if it is gone.
func At(root *Value, path []PathElem) *Value {
	v := root
	for _, el := range path {
		switch {
		case el.IsIndex && v.Kind == Array && el.Index < len(v.A):
			v = v.A[el.Index]
		case !el.IsIndex && v.Kind == Object:
			if v = v.O.Get(el.Key); v == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return v
}

// Replace sets the value at path (not the root) to nv; it reports
// whether the place was still there.
func Replace(root *Value, path []PathElem, nv *Value) bool {
	parent := At(root, path[:len(path)-1])
	if parent == nil {
		return false
	}
	last := path[len(path)-1]
	switch {
	case last.IsIndex && parent.Kind == Array && last.Index < len(parent.A):
		parent.A[last.Index] = nv
	case !last.IsIndex && parent.Kind == Object && parent.O.Index(last.Key) >= 0:
		parent.O.Set(last.Key, nv)
	default:
		return false
	}
	return true
}

// Delete removes the value at path (not the root) and reports whether
// it was there.
func Delete(root *Value, path []PathElem) bool {
	parent := At(root, path[:len(path)-1])
	if parent == nil {
		return false
	}
	last := path[len(path)-1]
	switch {
	case last.IsIndex && parent.Kind == Array && last.Index < len(parent.A):
		parent.A = append(parent.A[:last.Index], parent.A[last.Index+1:]...)
		return true
	case !last.IsIndex && parent.Kind == Object:
		return parent.O.Remove(last.Key)
	}
	return false
}

// lessForMutation orders paths so that changing one never moves
// another: deeper paths first, then higher array indexes first, member
// names before indexes, names in byte order (RedisJSON's order).
func lessForMutation(a, b []PathElem) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.IsIndex && y.IsIndex:
			if x.Index != y.Index {
				return x.Index > y.Index
			}
		case x.IsIndex != y.IsIndex:
			return !x.IsIndex
		case x.Key != y.Key:
			return x.Key < y.Key
		}
	}
	return len(a) > len(b)
}

// SortForMutation sorts matches into an order in which each can be
// changed without moving the others; order[i] is the position match i
// had before.
func SortForMutation(ms []Match) (order []int) {
	order = make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return lessForMutation(ms[order[i]].Path, ms[order[j]].Path) })
	return order
}

// Outermost keeps, of paths nested in one another, only the outermost
// (JSON.DEL deletes a value once, with what it holds), in mutation
// order. Sorted element by element, a path's descendants follow it, so
// one pass finds them: O(n log n).
func Outermost(ms []Match) []Match {
	sorted := append([]Match(nil), ms...)
	sort.SliceStable(sorted, func(i, j int) bool { return pathLess(sorted[i].Path, sorted[j].Path) })
	var out []Match
	var last []PathElem
	for i, m := range sorted {
		if i > 0 && isPrefix(last, m.Path) {
			continue
		}
		out, last = append(out, m), m.Path
	}
	order := SortForMutation(out)
	res := make([]Match, len(out))
	for i, j := range order {
		res[i] = out[j]
	}
	return res
}

// pathLess orders paths depth first: a path before its descendants.
func pathLess(a, b []PathElem) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.IsIndex != y.IsIndex:
			return x.IsIndex
		case x.IsIndex && x.Index != y.Index:
			return x.Index < y.Index
		case !x.IsIndex && x.Key != y.Key:
			return x.Key < y.Key
		}
	}
	return len(a) < len(b)
}

// isPrefix reports whether p is an ancestor of (or equal to) q.
func isPrefix(p, q []PathElem) bool {
	if len(p) > len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// Merge applies patch to v as RFC 7386 says (JSON.MERGE): an object
// patch sets its members into v (an object, or v becomes one), a null
// member removes one; any other patch replaces v. It returns the result.
func Merge(v, patch *Value) *Value {
	if patch.Kind != Object {
		return patch.Clone()
	}
	if v == nil || v.Kind != Object {
		v = NewObject()
	}
	for i, k := range patch.O.Keys {
		pv := patch.O.Vals[i]
		if pv.Kind == Null {
			v.O.Remove(k)
			continue
		}
		cur := v.O.Get(k)
		if cur == nil {
			cur = NewNull()
		}
		v.O.Set(k, Merge(cur, pv))
	}
	return v
}

// Clear empties a container or zeroes a number (JSON.CLEAR), reporting
// whether it changed anything.
func Clear(v *Value) bool {
	switch {
	case v.Kind == Array && len(v.A) > 0:
		v.A = nil
	case v.Kind == Object && v.O.Len() > 0:
		v.O = &Obj{}
	case v.Kind == Int && v.I != 0, v.Kind == Uint && v.U != 0, v.Kind == Float && v.F != 0:
		*v = Value{Kind: Int}
	default:
		return false
	}
	return true
}

// capacity is the allocation RedisJSON's containers grow to for n
// members: none for 0, then powers of two from 4.
func capacity(n int) int {
	if n == 0 {
		return 0
	}
	c := 4
	for c < n {
		c *= 2
	}
	return c
}

// Memory estimates the bytes RedisJSON's in-memory form of v takes
// (JSON.DEBUG MEMORY), by its rules: 8 per value, floats and large
// integers 16 more, mid-size integers 4, a string its length, a
// container its slots (capacity as if built by appending).
func Memory(v *Value) int64 {
	n := int64(8)
	switch v.Kind {
	case Float, Uint:
		n += 16
	case Int:
		switch {
		case v.I >= -128 && v.I <= 383:
		case v.I > -8388608 && v.I <= 8388607:
			n += 4
		default:
			n += 16
		}
	case String:
		n += int64(len(v.S))
	case Array:
		if c := capacity(len(v.A)); c > 0 {
			n += int64(8 * (c + 2))
			for _, e := range v.A {
				n += Memory(e)
			}
		}
	case Object:
		if c := capacity(v.O.Len()); c > 0 {
			n += int64(8 * (c*3 + 2))
			for i, k := range v.O.Keys {
				n += int64(len(k)) + Memory(v.O.Vals[i])
			}
		}
	}
	return n
}
