package strings

import "github.com/rekv/rekv/actors/command"

// GETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds |
// PXAT unix-time-milliseconds | PERSIST]
type getEx struct {
	key []byte
	extended
}

func parseGetEx(args [][]byte) (command.Runner, error) {
	o, err := parseExtended(args[2:], false, "getex")
	if err != nil {
		return nil, err
	}
	return getEx{key: args[1], extended: o}, nil
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
		switch {
		case g.persist:
			c.Effect([]byte("PERSIST"), g.key)
		case c.Effects():
			c.ExpiryEffect(g.key, expireAt)
		}
	}
	c.W.Bulk(v)
	return nil
}
