package stream

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rstream"
)

// errNoGroup is Redis's NOGROUP for commands naming a key and a group.
func errNoGroup(key, group []byte) error {
	return rerr.Errorf("NOGROUP No such consumer group '%s' for key name '%s'", group, key)
}

// openGroup opens key's stream and its group for XGROUP's subcommands:
// the key must exist, the group too.
func openGroup(c *command.Ctx, key, group []byte) (*rstream.Stream, rstream.Group, error) {
	s, err := rstream.Open(c.Tx, key, false)
	if err != nil {
		return nil, rstream.Group{}, err
	}
	if s == nil {
		return nil, rstream.Group{}, errNoKey
	}
	g, ok, err := s.Group(group)
	if err != nil {
		return nil, g, err
	}
	if !ok {
		return nil, g, errNoGroup(key, group)
	}
	return s, g, nil
}

var errNoKey = rerr.Errorf("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.")

// touchConsumer returns group's consumer name, creating it (and reporting
// that) when missing, with its seen time set to now.
func touchConsumer(s *rstream.Stream, group, name []byte, now int64) (rstream.Consumer, bool, error) {
	cons, ok, err := s.Consumer(group, name)
	if err != nil {
		return cons, false, err
	}
	if !ok {
		cons = rstream.Consumer{Name: name}
	}
	cons.SeenMs = now
	return cons, !ok, s.PutConsumer(group, cons)
}
