package keys

import (
	"bytes"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rhash"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/actors/types/rset"
	"github.com/rekv/rekv/actors/types/rzset"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/codec/rdb"
)

// DUMP key: the value in Redis's serialization (codec/rdb), nil for a
// missing key. Streams are not supported yet.
type dumpCmd struct{ key []byte }

var errDumpType = &rerr.Error{Msg: "ERR DUMP of a stream is not supported yet"}

func parseDump(args [][]byte) (command.Runner, error) { return dumpCmd{args[1]}, nil }

func (d dumpCmd) Run(c *command.Ctx) error {
	p, ok, err := dumpPayload(c, d.key)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	c.W.Bulk(p)
	return nil
}

// dumpPayload serializes key's value; ok is false for a missing key.
func dumpPayload(c *command.Ctx, key []byte) (p []byte, ok bool, err error) {
	d := dumpCmd{key}
	m, ok, err := c.Tx.Meta(d.key)
	if err != nil || !ok {
		return nil, false, err
	}
	switch m.Type {
	case codec.TypeString:
		v, _, err := c.Tx.GetString(d.key)
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpString(v)
	case codec.TypeList:
		l, err := rlist.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		vs, err := l.Values(l.Head(), l.Tail())
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpCollection(rdb.TypeList, vs, nil)
	case codec.TypeSet:
		s, err := rset.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		ms, err := rset.Members(s)
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpCollection(rdb.TypeSet, ms, nil)
	case codec.TypeHash:
		h, err := rhash.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		var fv [][]byte
		err = h.Scan(nil, nil, false, 0, func(f, v []byte) (bool, error) {
			fv = append(fv, bytes.Clone(f), bytes.Clone(v))
			return true, nil
		})
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpCollection(rdb.TypeHash, fv, nil)
	case codec.TypeZSet:
		z, _, err := rzset.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		es, err := z.ByRank(0, -1, true) // Redis writes the highest first
		if err != nil {
			return nil, false, err
		}
		ms, scores := make([][]byte, len(es)), make([]float64, len(es))
		for i, e := range es {
			ms[i], scores[i] = e.Member, e.Score
		}
		p = rdb.DumpCollection(rdb.TypeZSet2, ms, scores)
	default:
		return nil, false, errDumpType
	}
	return p, true, nil
}
