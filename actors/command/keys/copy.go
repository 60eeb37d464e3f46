package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// COPY source destination [DB destination-db] [REPLACE]
type copyCmd struct {
	src, dst []byte
	db       int // -1: the client's database
	replace  bool
}

var errSameObject = &rerr.Error{Msg: "ERR source and destination objects are the same"}

func parseCopy(args [][]byte) (command.Runner, error) {
	x := copyCmd{src: args[1], dst: args[2], db: -1}
	for i := 3; i < len(args); i++ {
		switch {
		case command.Is(args[i], "replace"):
			x.replace = true
		case command.Is(args[i], "db") && i+1 < len(args):
			i++
			db, err := dbIndex(args[i])
			if err != nil {
				return nil, err
			}
			x.db = db
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return x, nil
}

// dbIndex parses a database number.
func dbIndex(arg []byte) (int, error) {
	n, err := command.Int(arg)
	if err != nil || n < -1<<31 || n >= 1<<31 {
		return 0, rerr.ErrNotInteger
	}
	if n < 0 || n >= store.Databases {
		return 0, rerr.ErrDBIndex
	}
	return int(n), nil
}

func (x copyCmd) Run(c *command.Ctx) error {
	db := c.DB
	if x.db >= 0 {
		db = command.InNamespace(c.DB, x.db)
	}
	if c.ClusterMode() && db != c.DB {
		return rerr.Errorf("ERR Copying to another database is not allowed in cluster mode")
	}
	if db == c.DB && string(x.src) == string(x.dst) {
		return errSameObject
	}
	ok, err := c.Tx.Copy(x.src, db, x.dst, x.replace)
	if err != nil {
		return err
	}
	c.W.Int(b2i(ok))
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
