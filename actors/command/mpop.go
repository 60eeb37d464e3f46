package command

import (
	"errors"

	"github.com/rekv/rekv/actors/rerr"
)

// MPop is the parsed tail of LMPOP and ZMPOP (and their blocking forms):
// numkeys key [key ...] where [COUNT count].
type MPop struct {
	Keys  [][]byte
	Count int64 // 1 without COUNT
}

// ParseMPop parses args from numkeys on, as Redis 7.0 checks them:
// numkeys, then the where argument (where reads it: LEFT|RIGHT, MIN|MAX),
// then COUNT.
func ParseMPop(args [][]byte, where func(arg []byte) error) (MPop, error) {
	n, err := Int(args[0])
	if err != nil || n <= 0 {
		return MPop{}, rerr.Errorf("ERR numkeys should be greater than 0")
	}
	if n > int64(len(args))-2 { // no room for where
		return MPop{}, rerr.ErrSyntax
	}
	m := MPop{Keys: args[1 : 1+n], Count: -1}
	rest := args[1+n:]
	if err := where(rest[0]); err != nil {
		return MPop{}, err
	}
	for i := 1; i < len(rest); i++ {
		if m.Count == -1 && Is(rest[i], "count") && i+1 < len(rest) {
			i++
			c, err := Int(rest[i])
			if err != nil || c <= 0 {
				return MPop{}, rerr.Errorf("ERR count should be greater than 0")
			}
			m.Count = c
			continue
		}
		return MPop{}, rerr.ErrSyntax
	}
	if m.Count == -1 {
		m.Count = 1
	}
	return m, nil
}

// PopFirst runs pop on each key in turn until one is not missing (pop
// returns ErrWouldBlock for a missing key, writing nothing); when every
// key is missing it replies a nil array (LMPOP, ZMPOP).
func PopFirst(c *Ctx, keys [][]byte, pop func(c *Ctx, key []byte) error) error {
	for _, k := range keys {
		if err := pop(c, k); !errors.Is(err, ErrWouldBlock) {
			return err
		}
	}
	c.W.NullArray()
	return nil
}
