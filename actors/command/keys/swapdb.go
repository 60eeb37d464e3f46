package keys

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
)

// SWAPDB index1 index2. O(1): the two databases exchange their records
// (which slot of storage each one's keys live under, see store.DBRecord)
// while the command holds every shard; no key is copied. Clients blocked
// on a key of either database are served if the key now has what they
// wait for, and WATCHes of keys existing in either database break, as in
// Redis.
type swapDB struct {
	a, b int
	err  error // bad indexes, answered after cluster mode's refusal
}

var (
	errFirstDB  = &rerr.Error{Msg: "ERR invalid first DB index"}
	errSecondDB = &rerr.Error{Msg: "ERR invalid second DB index"}
)

func parseSwapDB(args [][]byte) (command.Runner, error) {
	a, ok := swapIndex(args[1])
	if !ok {
		return swapDB{err: errFirstDB}, nil
	}
	b, ok := swapIndex(args[2])
	if !ok {
		return swapDB{err: errSecondDB}, nil
	}
	if a < 0 || a >= store.Databases || b < 0 || b >= store.Databases {
		return swapDB{err: rerr.ErrDBIndex}, nil
	}
	return swapDB{a: int(a), b: int(b)}, nil
}

// swapIndex parses an index as Redis's getIntFromObject: an integer that
// fits in 32 bits.
func swapIndex(arg []byte) (int64, bool) {
	n, err := command.Int(arg)
	return n, err == nil && n >= -1<<31 && n < 1<<31
}

func (x swapDB) Run(c *command.Ctx) error {
	if c.ClusterMode() {
		return rerr.Errorf("ERR SWAPDB is not allowed in cluster mode")
	}
	if x.err != nil {
		return x.err
	}
	if x.a != x.b { // the client's namespace's databases
		if err := c.Tx.Records().Swap(command.InNamespace(c.DB, x.a), command.InNamespace(c.DB, x.b)); err != nil {
			return err
		}
	}
	c.W.OK()
	return nil
}
