package set

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/types/rset"
)

// SSCAN key cursor [MATCH pattern] [COUNT count]
type sscan struct {
	key []byte
	command.ScanOpts
}

func parseSScan(args [][]byte) (command.Runner, error) {
	o, err := command.ParseScan(args, 2, false, false)
	return sscan{args[1], o}, err
}

func (s sscan) Run(c *command.Ctx) error {
	set, err := rset.Open(c.Tx, s.key, false)
	if err != nil || set == nil {
		if err == nil {
			command.WriteScanReply(c, 0, nil)
		}
		return err
	}
	var items [][]byte
	cur, err := command.ScanMembers(c, set, s.ScanOpts, func(m, _ []byte) { items = append(items, m) })
	if err != nil {
		return err
	}
	command.WriteScanReply(c, cur, items)
	return nil
}
