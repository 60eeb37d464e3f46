package keys

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]
//
// The cursor a client sees is a number; the key to resume from is kept in
// engine's cursor table.
type scan struct{ command.ScanOpts }

func parseScan(args [][]byte) (command.Runner, error) {
	o, err := command.ParseScan(args, 1, true, false)
	return scan{o}, err
}

func (s scan) Run(c *command.Ctx) error {
	scope := store.Scope(c.DB, nil)
	var start []byte
	if s.Cursor != 0 {
		var ok bool
		if start, ok = c.Cursors.Load(scope, s.Cursor); !ok {
			command.WriteScanReply(c, 0, nil) // an unknown or evicted cursor ends the scan
			return nil
		}
	}
	var out [][]byte
	var next []byte
	seen := int64(0)
	err := c.Tx.ScanMetaReaping(start, func(key []byte, m codec.Meta) (bool, error) {
		if seen == s.Count {
			next = command.Copy(key)
			return false, nil
		}
		seen++
		if s.Matches(key) && (s.Type == nil || bytes.EqualFold(s.Type, []byte(m.Type.String()))) {
			out = append(out, command.Copy(key))
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	var cur uint64
	if next != nil {
		cur = c.Cursors.Save(scope, next)
	}
	command.WriteScanReply(c, cur, out)
	return nil
}
