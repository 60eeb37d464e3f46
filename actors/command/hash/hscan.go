package hash

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rhash"
)

// HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]
type hscan struct {
	key []byte
	command.ScanOpts
}

func parseHScan(args [][]byte) (command.Runner, error) {
	o, err := command.ParseScan(args, 2, false, true)
	return hscan{args[1], o}, err
}

func (h hscan) Run(c *command.Ctx) error {
	coll, err := rhash.Open(c.Tx, h.key, false)
	if err != nil || coll == nil {
		if err == nil {
			command.WriteScanReply(c, 0, nil)
		}
		return err
	}
	var items [][]byte
	cur, err := command.ScanMembers(c, coll, h.ScanOpts, func(f, v []byte) {
		items = append(items, f)
		if !h.NoValues {
			items = append(items, v)
		}
	})
	if err != nil {
		return err
	}
	command.WriteScanReply(c, cur, items)
	return nil
}
