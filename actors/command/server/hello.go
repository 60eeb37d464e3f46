package server

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// HELLO [protover [AUTH username password] [SETNAME clientname]]
type hello struct {
	proto      int // 0: keep
	user, pass []byte
	auth       bool
	name       []byte
}

func parseHello(args [][]byte) (command.Runner, error) {
	var h hello
	if len(args) < 2 {
		return h, nil
	}
	v, ok := resp.ParseInt(args[1])
	if !ok {
		return nil, rerr.Errorf("ERR Protocol version is not an integer or out of range")
	}
	for j := 2; j < len(args); j++ {
		more := len(args) - j - 1
		switch {
		case command.Is(args[j], "auth") && more >= 2:
			h.auth, h.user, h.pass = true, args[j+1], args[j+2]
			j += 2
		case command.Is(args[j], "setname") && more >= 1:
			h.name = args[j+1]
			j++
		default:
			return nil, rerr.Errorf("ERR Syntax error in HELLO option '%s'", args[j])
		}
	}
	if v < 2 || v > 3 {
		return nil, rerr.ErrUnknownProtocol
	}
	h.proto = int(v)
	return h, nil
}

func (h hello) Run(c *command.Ctx) error {
	if h.auth {
		if err := authenticate(c, h.user, h.pass); err != nil {
			return err
		}
	} else if !c.Client.Auth.Authenticated() {
		return rerr.ErrHelloNoAuth
	}
	if h.name != nil {
		if err := validName(h.name); err != nil {
			return err
		}
		c.Client.Conn.SetName(string(h.name))
	}
	if h.proto != 0 {
		c.Client.Conn.SetProto(h.proto)
		c.W.Reset(h.proto)
	}
	st := c.Server.Status.Stats()
	c.W.Map(7)
	c.W.BulkString("server")
	c.W.BulkString("redis")
	c.W.BulkString("version")
	c.W.BulkString(st.Version)
	c.W.BulkString("proto")
	c.W.Int(int64(c.Client.Conn.Proto()))
	c.W.BulkString("id")
	c.W.Int(c.Client.Conn.ID())
	c.W.BulkString("mode")
	c.W.BulkString("standalone")
	c.W.BulkString("role")
	c.W.BulkString("master")
	c.W.BulkString("modules")
	c.W.Array(0)
	return nil
}
