package keys

import (
	"bytes"
	"math"
	"slices"
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/actors/types/rset"
	"github.com/rekv/rekv/actors/types/rzset"
	"github.com/rekv/rekv/codec"
)

// SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC]
// [ALPHA] [STORE destination], and SORT_RO (no STORE).
//
// Patterns name other keys ("weight_*", "obj_*->field"); they may live on
// shards the command does not hold, so SORT then runs again holding every
// shard (command.ErrAllShards), and its connection waits for it (Serial).
// Lists and sorted sets keep their order under BY with no '*' (no sort);
// a set is then read in member order, where Redis uses its hash order.
type sortCmd struct {
	key         []byte
	by          []byte // nil: sort by the elements
	noSort      bool   // BY without '*'
	gets        [][]byte
	desc, alpha bool
	offset      int64
	count       int64 // -1: no LIMIT
	store       []byte
}

var errSortScores = &rerr.Error{Msg: "ERR One or more scores can't be converted into double"}

func parseSort(args [][]byte) (command.Runner, error) { return parseSortArgs(args, false) }

func parseSortRO(args [][]byte) (command.Runner, error) { return parseSortArgs(args, true) }

func parseSortArgs(args [][]byte, readOnly bool) (command.Runner, error) {
	s := sortCmd{key: args[1], count: -1}
	for i := 2; i < len(args); i++ {
		left := len(args) - i - 1
		switch a := args[i]; {
		case command.Is(a, "asc"):
			s.desc = false
		case command.Is(a, "desc"):
			s.desc = true
		case command.Is(a, "alpha"):
			s.alpha = true
		case command.Is(a, "limit") && left >= 2:
			var err error
			if s.offset, err = command.Int(args[i+1]); err != nil {
				return nil, err
			}
			if s.count, err = command.Int(args[i+2]); err != nil {
				return nil, err
			}
			i += 2
		case command.Is(a, "store") && left >= 1 && !readOnly:
			s.store = args[i+1]
			i++
		case command.Is(a, "by") && left >= 1:
			s.by = args[i+1]
			s.noSort = bytes.IndexByte(s.by, '*') < 0
			i++
		case command.Is(a, "get") && left >= 1:
			s.gets = append(s.gets, args[i+1])
			i++
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return s, nil
}

// sortKeys returns SORT's keys: the sorted key and the STORE destination.
func sortKeys(args [][]byte) []int {
	// As Redis's sortGetKeys: the options' own arguments are skipped, and
	// of several STOREs only the last counts (the one SORT writes).
	store := 0
	for i := 2; i < len(args); i++ {
		switch {
		case command.Is(args[i], "limit"):
			i += 2
		case command.Is(args[i], "get"), command.Is(args[i], "by"):
			i++
		case command.Is(args[i], "store") && i+1 < len(args):
			store = i + 1
			i++
		}
	}
	if store == 0 {
		return []int{1}
	}
	return []int{1, store}
}

type sortItem struct {
	elem  []byte
	score float64
	by    []byte // the BY value for ALPHA; nil when missing
}

func (s sortCmd) Run(c *command.Ctx) error {
	typ, err := c.Tx.Type(s.key)
	if err != nil {
		return err
	}
	noSort, alpha, by := s.noSort, s.alpha, s.by
	if noSort && typ == codec.TypeSet && s.store != nil {
		// Redis sorts a set it would store, so the result is the same on
		// every replica.
		noSort, alpha, by = false, true, nil
	}
	elems, err := s.load(c, typ, noSort)
	if err != nil {
		return err
	}
	n := int64(len(elems))
	start := max(s.offset, 0)
	end := n - 1
	if s.count >= 0 {
		end = start + s.count - 1
	}
	if start >= n {
		start, end = n-1, n-2
	}
	end = min(end, n-1)
	if noSort && (typ == codec.TypeList || typ == codec.TypeZSet) {
		// Native order, DESC reversed, only the range.
		if s.desc {
			slices.Reverse(elems)
		}
		if end >= start {
			elems = elems[start : end+1]
		} else {
			elems = nil
		}
		start, end = 0, int64(len(elems))-1
	}
	if !noSort {
		if elems, err = s.sort(c, elems, alpha, by); err != nil {
			return err
		}
	}
	var picked [][]byte
	if end >= start {
		picked = elems[start : end+1]
	}
	out := make([][]byte, 0, len(picked)*max(len(s.gets), 1))
	missing := make([]bool, 0, cap(out))
	for _, e := range picked {
		if len(s.gets) == 0 {
			out, missing = append(out, e), append(missing, false)
			continue
		}
		for _, g := range s.gets {
			v, ok, err := lookupPattern(c, g, e)
			if err != nil {
				return err
			}
			out, missing = append(out, v), append(missing, !ok)
		}
	}
	if s.store != nil {
		return s.storeResult(c, out)
	}
	c.W.Array(len(out))
	for i, v := range out {
		if missing[i] {
			c.W.Null()
		} else {
			c.W.Bulk(v)
		}
	}
	return nil
}

// load reads the elements: a list in order, a set in member order, a
// sorted set by score (all of it: SORT of a sorted set by its elements
// ignores the scores).
func (s sortCmd) load(c *command.Ctx, typ codec.Type, noSort bool) ([][]byte, error) {
	switch typ {
	case codec.TypeNone:
		return nil, nil
	case codec.TypeList:
		l, err := rlist.Open(c.Tx, s.key, false)
		if err != nil || l == nil {
			return nil, err
		}
		return l.Values(l.Head(), l.Tail())
	case codec.TypeSet:
		set, err := rset.Open(c.Tx, s.key, false)
		if err != nil {
			return nil, err
		}
		return rset.Members(set)
	case codec.TypeZSet:
		z, _, err := rzset.Open(c.Tx, s.key, false)
		if err != nil {
			return nil, err
		}
		es, err := z.ByRank(0, -1, false)
		out := make([][]byte, len(es))
		for i, e := range es {
			out[i] = e.Member
		}
		return out, err
	}
	return nil, rerr.ErrWrongType
}

func (s sortCmd) sort(c *command.Ctx, elems [][]byte, alpha bool, by []byte) ([][]byte, error) {
	items := make([]sortItem, len(elems))
	for i, e := range elems {
		items[i].elem = e
		var val []byte
		var ok bool
		if by != nil {
			var err error
			if val, ok, err = lookupPattern(c, by, e); err != nil {
				return nil, err
			}
		} else {
			val, ok = e, true
		}
		switch {
		case alpha && by != nil && ok:
			items[i].by = val
		case alpha:
		case ok:
			f, ok := strtod(val)
			if !ok {
				return nil, errSortScores
			}
			items[i].score = f
		}
	}
	cmp := func(a, b sortItem) int {
		var r int
		switch {
		case !alpha:
			switch {
			case a.score < b.score:
				r = -1
			case a.score > b.score:
				r = 1
			default:
				r = bytes.Compare(a.elem, b.elem)
			}
		case by != nil:
			switch {
			case a.by == nil && b.by == nil:
				r = 0
			case a.by == nil:
				r = -1
			case b.by == nil:
				r = 1
			default:
				r = bytes.Compare(a.by, b.by)
			}
		default:
			r = bytes.Compare(a.elem, b.elem)
		}
		if s.desc {
			r = -r
		}
		return r
	}
	slices.SortStableFunc(items, cmp)
	out := make([][]byte, len(items))
	for i, it := range items {
		out[i] = it.elem
	}
	return out, nil
}

// strtod parses a score as Redis's SORT does with C's strtod: leading
// white space allowed, the whole rest consumed, no NaN, and no range
// error (overflow, or underflow to zero or a subnormal). An empty string
// is 0.
func strtod(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, true
	}
	t := bytes.TrimLeft(b, " \t\n\v\f\r")
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil || math.IsNaN(f) {
		return 0, false
	}
	if abs := math.Abs(f); abs != 0 && abs < 0x1p-1022 {
		return 0, false // subnormal: ERANGE
	}
	if f == 0 && bytes.ContainsAny(mantissa(t), "123456789") {
		return 0, false // a nonzero value underflowed to zero
	}
	return f, true
}

// mantissa returns the digits of a decimal or hex float before its
// exponent.
func mantissa(t []byte) []byte {
	low := bytes.ToLower(t)
	if bytes.HasPrefix(bytes.TrimLeft(low, "+-"), []byte("0x")) {
		low = bytes.TrimLeft(low, "+-")[2:]
		if i := bytes.IndexByte(low, 'p'); i >= 0 {
			return low[:i]
		}
		return low
	}
	if i := bytes.IndexByte(low, 'e'); i >= 0 {
		return low[:i]
	}
	return low
}

// lookupPattern resolves a BY or GET pattern for element e: "#" is e
// itself; otherwise the first '*' is replaced by e, and "->field" after it
// reads a hash field. A pattern with no '*', a missing key or field, or a
// key of the wrong type gives ok false.
func lookupPattern(c *command.Ctx, pattern, e []byte) ([]byte, bool, error) {
	if string(pattern) == "#" {
		return e, true, nil
	}
	star := bytes.IndexByte(pattern, '*')
	if star < 0 {
		return nil, false, nil
	}
	keyPat, field := pattern, []byte(nil)
	if arrow := bytes.Index(pattern[star+1:], []byte("->")); arrow >= 0 && star+1+arrow+2 < len(pattern) {
		keyPat, field = pattern[:star+1+arrow], pattern[star+1+arrow+2:]
	}
	key := append(append(append([]byte{}, keyPat[:star]...), e...), keyPat[star+1:]...)
	if c.Holds != nil && !c.Holds(key) {
		return nil, false, command.ErrAllShards
	}
	typ, err := c.Tx.Type(key)
	if err != nil {
		return nil, false, err
	}
	if field != nil {
		if typ != codec.TypeHash {
			return nil, false, nil
		}
		h, err := rhash.Open(c.Tx, key, false)
		if err != nil || h == nil {
			return nil, false, err
		}
		return h.Get(field)
	}
	if typ != codec.TypeString {
		return nil, false, nil
	}
	v, ok, err := c.Tx.GetString(key)
	return v, ok, err
}

// storeResult replaces the destination with a list of out (missing GETs
// as empty strings), or deletes it when out is empty.
func (s sortCmd) storeResult(c *command.Ctx, out [][]byte) error {
	if _, err := c.Tx.Delete(s.store); err != nil {
		return err
	}
	if len(out) > 0 {
		l, err := rlist.Open(c.Tx, s.store, true)
		if err != nil {
			return err
		}
		if err := l.Push(false, out...); err != nil {
			return err
		}
	}
	c.W.Int(int64(len(out)))
	return nil
}

// sortStoreEvent: "sortstore" on the destination, the generic "del" when
// an empty result deleted it.
func sortStoreEvent(_ int, gone bool) string {
	if gone {
		return ""
	}
	return "sortstore"
}
