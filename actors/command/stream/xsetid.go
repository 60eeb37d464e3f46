package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/codec"
)

// XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID
// max-deleted-id]: sets the stream's last ID (not below its greatest
// entry) and, optionally, its counters.
type xsetid struct {
	key        []byte
	id         codec.StreamID
	added      int64 // -1: unchanged
	maxDeleted *codec.StreamID
}

func parseXSetID(args [][]byte) (command.Runner, error) {
	id, err := parseID(args[2], 0, false)
	if err != nil {
		return nil, err
	}
	x := &xsetid{key: args[1], id: id, added: -1}
	for i := 3; i < len(args); i++ {
		switch {
		case command.Is(args[i], "entriesadded") && i+1 < len(args):
			i++
			n, err := command.Int(args[i])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, rerr.Errorf("ERR entries_added must be positive")
			}
			x.added = n
		case command.Is(args[i], "maxdeletedid") && i+1 < len(args):
			i++
			m, err := parseID(args[i], 0, false)
			if err != nil {
				return nil, err
			}
			if x.id.Less(m) {
				return nil, rerr.Errorf("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id")
			}
			x.maxDeleted = &m
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return x, nil
}

func (x *xsetid) Run(c *command.Ctx) error {
	s, err := rstream.Open(c.Tx, x.key, false)
	if err != nil {
		return err
	}
	if s == nil {
		return rerr.ErrNoSuchKey
	}
	m := s.Meta()
	if x.added >= 0 && x.added < s.Len() {
		return rerr.Errorf("ERR The entries_added specified in XSETID is smaller than the target stream length")
	}
	if s.Len() > 0 {
		last, _, err := s.First(true)
		if err != nil {
			return err
		}
		if x.id.Less(last.ID) {
			return rerr.Errorf("ERR The ID specified in XSETID is smaller than the target stream top item")
		}
	}
	m.LastID = x.id
	if x.added >= 0 {
		m.EntriesAdded = uint64(x.added)
	}
	if x.maxDeleted != nil {
		m.MaxDeletedID = *x.maxDeleted
	}
	if err := s.SetMeta(m); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
