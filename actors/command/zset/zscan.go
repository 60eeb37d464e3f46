package zset

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rzset"
	"github.com/rekv/rekv/resp"
)

// ZSCAN key cursor [MATCH pattern] [COUNT count]: members in byte order,
// each followed by its score as a bulk string.
type zscan struct {
	key []byte
	command.ScanOpts
}

func parseZScan(args [][]byte) (command.Runner, error) {
	o, err := command.ParseScan(args, 2, false, false)
	return zscan{args[1], o}, err
}

func (z zscan) Run(c *command.Ctx) error {
	set, ok, err := rzset.Open(c.Tx, z.key, false)
	if err != nil || !ok {
		if err == nil {
			command.WriteScanReply(c, 0, nil)
		}
		return err
	}
	var items [][]byte
	cur, err := command.ScanMembers(c, set.Coll, z.ScanOpts, func(m, v []byte) {
		s, _ := rzset.DecodeScore(v) // a corrupt score shows as 0
		items = append(items, m, resp.AppendFloat(nil, s))
	})
	if err != nil {
		return err
	}
	command.WriteScanReply(c, cur, items)
	return nil
}
