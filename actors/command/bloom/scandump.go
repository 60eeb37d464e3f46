package bloom

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbloom"
)

// maxScanDump is the most filter bytes one BF.SCANDUMP returns
// (RedisBloom's MAX_SCANDUMP_SIZE).
const maxScanDump = 16 << 20

// BF.SCANDUMP key iterator: [next iterator, data]; iterator 0 gives the
// header, then each call a chunk of the bits, until [0, ""].
type scanDump struct {
	key  []byte
	iter int64
}

func parseScanDump(args [][]byte) (command.Runner, error) {
	n, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.Errorf("ERR Second argument must be numeric")
	}
	return scanDump{args[1], n}, nil
}

func (s scanDump) Run(c *command.Ctx) error {
	f, err := rbloom.Open(c.Tx, s.key)
	if err != nil {
		return err
	}
	if f == nil {
		return errNotFound
	}
	next, data, err := f.ScanDump(s.iter, maxScanDump)
	if err != nil {
		return err
	}
	c.W.Array(2)
	c.W.Int(next)
	c.W.Bulk(data)
	return nil
}
