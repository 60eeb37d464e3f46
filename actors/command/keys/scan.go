package keys

import (
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/glob"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]
//
// The cursor a client sees is a number; the key to resume from is kept in
// engine's cursor table.
type scan struct {
	cursor  uint64
	pattern []byte
	count   int64
	typ     []byte
}

func parseScan(args [][]byte) (command.Runner, error) {
	cur, err := strconv.ParseUint(string(args[1]), 10, 64)
	if err != nil {
		return nil, rerr.ErrInvalidCursor
	}
	s := scan{cursor: cur, count: 10}
	for i := 2; i < len(args); i += 2 {
		if i+1 >= len(args) {
			return nil, rerr.ErrSyntax
		}
		switch opt, val := args[i], args[i+1]; {
		case command.Is(opt, "count"):
			if s.count, err = command.Int(val); err != nil {
				return nil, err
			}
			if s.count < 1 {
				return nil, rerr.ErrSyntax
			}
		case command.Is(opt, "match"):
			s.pattern = val
		case command.Is(opt, "type"):
			s.typ = val
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return s, nil
}

func (s scan) Run(c *command.Ctx) error {
	var start []byte
	if s.cursor != 0 {
		var ok bool
		if start, ok = c.Cursors.Load(store.Scope(c.DB, nil), s.cursor); !ok {
			s.reply(c, 0, nil) // an unknown or evicted cursor ends the scan
			return nil
		}
	}
	var out [][]byte
	var next []byte
	seen := int64(0)
	err := c.Tx.ScanMeta(start, func(key []byte, m codec.Meta) (bool, error) {
		if seen == s.count {
			next = command.Copy(key)
			return false, nil
		}
		seen++
		if s.pattern != nil && !(string(s.pattern) == "*" || glob.Match(s.pattern, key, false)) {
			return true, nil
		}
		if s.typ != nil && !command.Is(s.typ, m.Type.String()) {
			return true, nil
		}
		out = append(out, command.Copy(key))
		return true, nil
	})
	if err != nil {
		return err
	}
	var cur uint64
	if next != nil {
		cur = c.Cursors.Save(store.Scope(c.DB, nil), next)
	}
	s.reply(c, cur, out)
	return nil
}

func (scan) reply(c *command.Ctx, cur uint64, keys [][]byte) {
	c.W.Array(2)
	c.W.Bulk(strconv.AppendUint(nil, cur, 10))
	c.W.Array(len(keys))
	for _, k := range keys {
		c.W.Bulk(k)
	}
}
