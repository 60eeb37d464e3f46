package net

import (
	stdnet "net"
	"testing"
)

func TestProtectedModeRefusesOnlyRemoteClientsWithoutPassword(t *testing.T) {
	local := &stdnet.TCPAddr{IP: stdnet.ParseIP("127.0.0.1"), Port: 5000}
	local6 := &stdnet.TCPAddr{IP: stdnet.ParseIP("::1"), Port: 5000}
	remote := &stdnet.TCPAddr{IP: stdnet.ParseIP("192.0.2.7"), Port: 5000} // TEST-NET-1, never dialled
	cases := []struct {
		o    Options
		addr stdnet.Addr
		want bool
	}{
		{Options{ProtectedMode: true}, local, false},
		{Options{ProtectedMode: true}, local6, false},
		{Options{ProtectedMode: true}, remote, true},
		{Options{ProtectedMode: true, RequirePass: "x"}, remote, false},
		{Options{ProtectedMode: false}, remote, false},
	}
	for i, c := range cases {
		if got := refuse(c.o.ProtectedMode, c.o.RequirePass, c.addr); got != c.want {
			t.Errorf("case %d: refuse = %v, want %v", i, got, c.want)
		}
	}
}
