package keys

import "github.com/rekv/rekv/actors/command"

// MOVE key db
type moveCmd struct {
	key []byte
	db  int
}

func parseMove(args [][]byte) (command.Runner, error) {
	db, err := dbIndex(args[2])
	if err != nil {
		return nil, err
	}
	return moveCmd{key: args[1], db: db}, nil
}

func (x moveCmd) Run(c *command.Ctx) error {
	if x.db == c.DB {
		return errSameObject
	}
	ok, err := c.Tx.Move(x.key, x.db)
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
