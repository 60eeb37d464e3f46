package scripting

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE]: Redis saves its dataset and
// loads it back. rekv's data is always in its store, so a reload leaves
// it as it is, and answers OK; but NOFLUSH without MERGE loads the saved
// data over itself, which fails on the first function library (or key)
// already there: Redis answers "Error trying to load the RDB dump" (and
// for a key stops the process), and so does rekv, for either, changing
// nothing. With NOSAVE Redis loads whatever file is on disk, which rekv
// has no counterpart for: OK. A variant of the server family's DEBUG,
// reading every shard (the keys) and the libraries.
type debugReload struct {
	s                      *Scripts
	noFlush, merge, noSave bool
	bad                    error
}

// isDebugReload picks DEBUG RELOAD among DEBUG's argument lists.
func isDebugReload(args [][]byte) bool { return len(args) >= 2 && command.Is(args[1], "reload") }

func (s *Scripts) parseDebugReload(args [][]byte) (command.Runner, error) {
	d := debugReload{s: s}
	for _, a := range args[2:] {
		switch {
		case command.Is(a, "merge"):
			d.merge = true
		case command.Is(a, "noflush"):
			d.noFlush = true
		case command.Is(a, "nosave"):
			d.noSave = true
		default:
			d.bad = rerr.Errorf("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.")
		}
	}
	return d, nil
}

func (d debugReload) Run(c *command.Ctx) error {
	if !c.DebugAllowed(c.ClientInfo) {
		return command.ErrDebugNotAllowed
	}
	if d.bad != nil {
		return d.bad
	}
	if d.noFlush && !d.merge && !d.noSave {
		libs, _, err := d.s.fns.sync(c.Tx, c.Namespace())
		if err != nil {
			return err
		}
		collides := len(libs) > 0
		defer c.Tx.Use(c.DB)
		for db := range store.Databases {
			if collides {
				break
			}
			c.Tx.Use(command.InNamespace(c.DB, db))
			err := c.Tx.ScanMeta(nil, func([]byte, codec.Meta) (bool, error) {
				collides = true
				return false, nil
			})
			if err != nil {
				return err
			}
		}
		if collides {
			return rerr.Errorf("ERR Error trying to load the RDB dump")
		}
	}
	c.W.OK()
	return nil
}
