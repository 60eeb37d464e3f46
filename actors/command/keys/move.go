package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// MOVE key db
type moveCmd struct {
	key []byte
	db  int
	err error // a bad index, answered after cluster mode's refusal
}

func parseMove(args [][]byte) (command.Runner, error) {
	db, err := dbIndex(args[2])
	return moveCmd{key: args[1], db: db, err: err}, nil
}

func (x moveCmd) Run(c *command.Ctx) error {
	if c.ClusterMode() {
		return rerr.Errorf("ERR MOVE is not allowed in cluster mode")
	}
	if x.err != nil {
		return x.err
	}
	db := command.InNamespace(c.DB, x.db)
	if db == c.DB {
		return errSameObject
	}
	ok, err := c.Tx.Move(x.key, db)
	if err != nil {
		return err
	}
	c.W.Int(b2i(ok))
	return nil
}

// moveEvent names MOVE's events: move_from for the key it removed from
// the source database, move_to for the one it wrote.
func moveEvent(_ int, gone bool) string {
	if gone {
		return "move_from"
	}
	return "move_to"
}
