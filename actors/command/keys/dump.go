package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/codec/rdb"
)

// DUMP key: the value in Redis's serialization (codec/rdb), nil for a
// missing key. Only strings so far; other types are refused.
type dumpCmd struct{ key []byte }

var errDumpType = &rerr.Error{Msg: "ERR DUMP of this type is not supported yet"}

func parseDump(args [][]byte) (command.Runner, error) { return dumpCmd{args[1]}, nil }

func (d dumpCmd) Run(c *command.Ctx) error {
	m, ok, err := c.Tx.Meta(d.key)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	if m.Type != codec.TypeString {
		return errDumpType
	}
	v, _, err := c.Tx.GetString(d.key)
	if err != nil {
		return err
	}
	c.W.Bulk(rdb.DumpString(v))
	return nil
}
