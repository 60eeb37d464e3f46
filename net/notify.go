package net

import (
	"strconv"

	"github.com/rekv/rekv/actors/command"
)

// NotifyFlags implements command.Server.
func (s *Server) NotifyFlags() command.NotifyClass { return command.NotifyClass(s.notify.Load()) }

// Notify implements command.Server: it publishes Redis's
// __keyspace@<db>__:<key> (message: the event) and
// __keyevent@<db>__:<event> (message: the key) for enabled classes.
func (s *Server) Notify(db int, class command.NotifyClass, event string, key []byte) {
	flags := s.NotifyFlags()
	if flags&class == 0 {
		return
	}
	prefix := "__keyspace@" + strconv.Itoa(db) + "__:"
	if flags&command.NotifyKeyspace != 0 {
		s.Publish(append([]byte(prefix), key...), []byte(event))
	}
	if flags&command.NotifyKeyevent != 0 {
		s.Publish([]byte("__keyevent@"+strconv.Itoa(db)+"__:"+event), key)
	}
}
