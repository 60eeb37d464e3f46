package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// nodeEntries is Redis's stream-node-max-entries: approximate trimming
// drops whole groups of this many oldest entries.
const nodeEntries = 100

// trimSpec is a MAXLEN or MINID trimming strategy (XADD, XTRIM).
type trimSpec struct {
	set    bool
	maxLen bool // MAXLEN, else MINID
	approx bool
	length int64
	minID  codec.StreamID
	limit  int64 // 0: none given
	hasLim bool
}

// parseTrimOption tries to read a trimming option at args[i]; it returns
// the next index, or i unchanged when args[i] is no trimming option.
func (t *trimSpec) parseTrimOption(args [][]byte, i int) (int, error) {
	switch {
	case command.Is(args[i], "maxlen"), command.Is(args[i], "minid"):
		maxLen := command.Is(args[i], "maxlen")
		if t.set && t.maxLen != maxLen {
			return i, rerr.Errorf("ERR syntax error, MAXLEN and MINID options at the same time are not compatible")
		}
		t.set, t.maxLen = true, maxLen
		i++
		if i < len(args) && (string(args[i]) == "~" || string(args[i]) == "=") {
			t.approx = string(args[i]) == "~"
			i++
		}
		if i >= len(args) {
			return i, rerr.ErrSyntax
		}
		if t.maxLen {
			n, err := command.Int(args[i])
			if err != nil {
				return i, err
			}
			if n < 0 {
				return i, rerr.Errorf("ERR The MAXLEN argument must be >= 0.")
			}
			t.length = n
		} else {
			id, err := parseID(args[i], 0, false)
			if err != nil {
				return i, err
			}
			t.minID = id
		}
		return i + 1, nil
	case command.Is(args[i], "limit"):
		if i+1 >= len(args) {
			return i, rerr.ErrSyntax
		}
		n, err := command.Int(args[i+1])
		if err != nil {
			return i, err
		}
		if n < 0 {
			return i, rerr.Errorf("ERR The LIMIT argument must be >= 0.")
		}
		t.limit, t.hasLim = n, true
		return i + 2, nil
	}
	return i, nil
}

// check reports Redis's errors for LIMIT misuse.
func (t *trimSpec) check() error {
	switch {
	case t.hasLim && !t.set:
		return rerr.Errorf("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy")
	case t.hasLim && !t.approx:
		return rerr.Errorf("ERR syntax error, LIMIT cannot be used without the special ~ option")
	}
	return nil
}

// apply trims s and returns how many entries it deleted.
func (t *trimSpec) apply(s *rstream.Stream) (int64, error) {
	if !t.set {
		return 0, nil
	}
	drop := func(length int64, id codec.StreamID) bool {
		if t.maxLen {
			return length > t.length
		}
		return id.Less(t.minID)
	}
	if !t.approx {
		return s.TrimBefore(drop, 0)
	}
	limit := int64(100 * nodeEntries)
	if t.hasLim && t.limit > 0 {
		limit = t.limit
	}
	if t.hasLim && t.limit == 0 {
		limit = -1 // no limit
	}
	var deleted int64
	for {
		group := min(int64(nodeEntries), s.Len())
		if group == 0 || limit >= 0 && deleted+group > limit {
			return deleted, nil
		}
		es, err := s.Range(codec.StreamID{}, rstream.MaxID, false, group)
		if err != nil {
			return deleted, err
		}
		if t.maxLen && s.Len()-group < t.length || !t.maxLen && !es[len(es)-1].ID.Less(t.minID) {
			return deleted, nil
		}
		ids := make([]codec.StreamID, len(es))
		for i, e := range es {
			ids[i] = e.ID
		}
		if err := s.TrimIDs(ids); err != nil {
			return deleted, err
		}
		deleted += int64(len(ids))
	}
}
