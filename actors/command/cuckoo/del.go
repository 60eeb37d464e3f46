package cuckoo

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rcuckoo"
)

// CF.DEL key item: 1 if a copy of item's fingerprint was removed, else 0.
type del struct{ key, item []byte }

func parseDel(args [][]byte) (command.Runner, error) { return del{args[1], args[2]}, nil }

func (d del) Run(c *command.Ctx) error {
	f, err := rcuckoo.Open(c.Tx, d.key)
	if err != nil {
		return err
	}
	if f == nil {
		return rerr.Errorf("ERR Not found")
	}
	ok, err := f.Delete(d.item)
	if err != nil {
		return err
	}
	if ok {
		if err := f.Flush(); err != nil {
			return err
		}
		c.W.Int(1)
		return nil
	}
	c.W.Int(0)
	return nil
}

// CF.COMPACT key: moves fingerprints of newer sub-filters into older
// ones, dropping those left empty.
type compact struct{ key []byte }

func parseCompact(args [][]byte) (command.Runner, error) { return compact{args[1]}, nil }

func (k compact) Run(c *command.Ctx) error {
	f, err := rcuckoo.Open(c.Tx, k.key)
	if err != nil {
		return err
	}
	if f == nil {
		return rerr.Errorf("ERR Cuckoo filter was not found")
	}
	if err := f.Compact(true); err != nil {
		return err
	}
	if err := f.Flush(); err != nil {
		return err
	}
	c.W.OK()
	return nil
}
