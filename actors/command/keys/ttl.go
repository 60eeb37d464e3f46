package keys

import "github.com/rekv/rekv/actors/command"

// TTL key, PTTL key, EXPIRETIME key, PEXPIRETIME key: -2 for a missing
// key, -1 for a key without expiry.
type ttl struct {
	key     []byte
	ms, abs bool
}

func ttlParser(ms, abs bool) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) { return ttl{key: args[1], ms: ms, abs: abs}, nil }
}

func (t ttl) Run(c *command.Ctx) error {
	m, ok, err := c.Tx.Meta(t.key)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		c.W.Int(-2)
	case m.ExpireAt == 0:
		c.W.Int(-1)
	default:
		v := m.ExpireAt
		if !t.abs {
			v = max(v-c.Now, 0)
		}
		if !t.ms {
			v = (v + 500) / 1000
		}
		c.W.Int(v)
	}
	return nil
}
