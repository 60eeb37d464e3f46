package server

import (
	"testing"

	"github.com/rekv/rekv/actors/command/commandtest"
)

type c = commandtest.Case

func TestConnectionCommands(t *testing.T) {
	h := commandtest.New(t, Commands())
	h.Run([]c{
		{"ping", "+PONG\r\n"},
		{"ping hello", "$5\r\nhello\r\n"},
		{"ping a b", "-ERR wrong number of arguments for 'ping' command\r\n"},
		{"echo hi", "$2\r\nhi\r\n"},
		{"echo", "-ERR wrong number of arguments for 'echo' command\r\n"},
		{"select 3", "+OK\r\n"},
		{"select 16", "-ERR DB index is out of range\r\n"},
		{"select x", "-ERR value is not an integer or out of range\r\n"},
		{"client setname conn1", "+OK\r\n"},
		{"client getname", "$5\r\nconn1\r\n"},
		{"client id", ":1\r\n"},
		{"config", "-ERR wrong number of arguments for 'config' command\r\n"},
		{"nosuch", "-ERR unknown command 'nosuch', with args beginning with: \r\n"},
	})
	if h.Client.Db != 3 {
		t.Errorf("SELECT 3 left db %d", h.Client.Db)
	}
	// In RESP2 subscriber mode PING answers in the push shape.
	h.Client.Subs = 1
	h.Run([]c{
		{"ping", "*2\r\n$4\r\npong\r\n$0\r\n\r\n"},
		{"ping x", "*2\r\n$4\r\npong\r\n$1\r\nx\r\n"},
	})
	h.Run([]c{{"quit", "+OK\r\n"}})
	if !h.Client.Closing {
		t.Error("QUIT did not ask to close the connection")
	}
}
