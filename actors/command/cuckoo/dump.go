package cuckoo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcuckoo"
)

// maxScanDump is the most bytes one CF.SCANDUMP returns (RedisBloom's
// MAX_SCANDUMP_SIZE).
const maxScanDump = 16 << 20

// CF.SCANDUMP key iterator: [next iterator, data]; iterator 0 gives the
// header, then the sub-filters' buckets (a sub-filter under the limit
// whole), until [0, nil]; an empty filter answers [0, nil] at once.
type scanDump struct {
	key  []byte
	iter int64
}

func parseScanDump(args [][]byte) (command.Runner, error) {
	n, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.Errorf("ERR Invalid position")
	}
	return scanDump{args[1], n}, nil
}

func (s scanDump) Run(c *command.Ctx) error {
	f, err := open(c, s.key)
	if err != nil {
		return err
	}
	c.W.Array(2)
	if f.H.Items == 0 {
		c.W.Int(0)
		c.W.Null()
		return nil
	}
	if s.iter == 0 {
		c.W.Int(1)
		c.W.Bulk(f.H.Encode())
		return nil
	}
	fi, off, ok := f.Locate(uint64(max(s.iter-1, 0)))
	if !ok {
		c.W.Int(0)
		c.W.Null()
		return nil
	}
	size := f.FilterBytes(fi)
	n := min(size-off, maxScanDump)
	if size <= maxScanDump { // a small sub-filter goes whole, as RedisBloom sends it
		off, n = 0, size
	}
	data, err := f.Data(fi, off, n)
	if err != nil {
		return err
	}
	c.W.Int(s.iter + int64(n))
	c.W.Bulk(data)
	return nil
}

// CF.LOADCHUNK key iterator data: restores what CF.SCANDUMP returned, in
// order: iterator 1 with the header makes the (missing) key a filter,
// the later ones fill its buckets.
type loadChunk struct {
	key, data []byte
	iter      int64
}

func parseLoadChunk(args [][]byte) (command.Runner, error) {
	n, err := command.Int(args[2])
	if err != nil || n == 0 {
		return nil, rerr.Errorf("ERR Invalid position")
	}
	return loadChunk{key: args[1], iter: n, data: args[3]}, nil
}

func (l loadChunk) Run(c *command.Ctx) error {
	f, err := rcuckoo.Open(c.Tx, l.key)
	if err != nil {
		return err
	}
	if l.iter == 1 {
		if f != nil {
			return errExists
		}
		h, err := rcuckoo.DecodeHeader(l.data)
		if err != nil {
			return rerr.Errorf("ERR Invalid header")
		}
		if _, err := rcuckoo.Create(c.Tx, l.key, h); err != nil {
			return err
		}
		c.W.OK()
		return nil
	}
	if f == nil {
		return errNotFound
	}
	if len(l.data) == 0 || l.iter < int64(len(l.data))+1 {
		return rerr.Errorf("ERR Couldn't load chunk!")
	}
	fi, off, ok := f.Locate(uint64(l.iter) - uint64(len(l.data)) - 1)
	if !ok || uint64(len(l.data)) > f.FilterBytes(fi)-off {
		return rerr.Errorf("ERR Couldn't load chunk!")
	}
	if err := f.Write(fi, off, l.data); err != nil {
		return err
	}
	if err := f.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
