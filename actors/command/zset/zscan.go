package zset

import (
	"encoding/binary"
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/net/resp"
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
	set, ok, err := open(c, z.key, false)
	if err != nil || !ok {
		if err == nil {
			command.WriteScanReply(c, 0, nil)
		}
		return err
	}
	var items [][]byte
	cur, err := command.ScanMembers(c, set.Coll, z.ScanOpts, func(m, v []byte) {
		items = append(items, m, resp.AppendFloat(nil, math.Float64frombits(binary.BigEndian.Uint64(v))))
	})
	if err != nil {
		return err
	}
	command.WriteScanReply(c, cur, items)
	return nil
}
