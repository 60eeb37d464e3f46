package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// GETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds |
// PXAT unix-time-milliseconds | PERSIST]
type getEx struct {
	key     []byte
	exp     expiry
	persist bool
}

func parseGetEx(args [][]byte) (command.Runner, error) {
	g := getEx{key: args[1]}
	var ex, px, exat, pxat bool
	var expArg []byte
	for j := 2; j < len(args); j++ {
		opt := args[j]
		hasNext := j+1 < len(args)
		switch {
		case command.Is(opt, "persist") && !ex && !px && !exat && !pxat:
			g.persist = true
		case command.Is(opt, "ex") && !g.persist && !px && !exat && !pxat && hasNext:
			ex, expArg = true, args[j+1]
			j++
		case command.Is(opt, "px") && !g.persist && !ex && !exat && !pxat && hasNext:
			px, expArg = true, args[j+1]
			j++
		case command.Is(opt, "exat") && !g.persist && !ex && !px && !pxat && hasNext:
			exat, expArg = true, args[j+1]
			j++
		case command.Is(opt, "pxat") && !g.persist && !ex && !px && !exat && hasNext:
			pxat, expArg = true, args[j+1]
			j++
		default:
			return nil, rerr.ErrSyntax
		}
	}
	if expArg != nil {
		var err error
		if g.exp, err = parseExpiry("getex", expArg, ex || exat, exat || pxat); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func (g getEx) Run(c *command.Ctx) error {
	var expireAt int64
	if g.exp.set {
		var err error
		if expireAt, err = g.exp.at("getex", c.Now); err != nil {
			return err
		}
	}
	v, found, err := c.Tx.GetString(g.key)
	if err != nil {
		return err
	}
	if !found {
		c.W.Null()
		return nil
	}
	if g.exp.set || g.persist {
		if _, err := c.Tx.SetExpire(g.key, expireAt); err != nil {
			return err
		}
	}
	c.W.Bulk(v)
	return nil
}
