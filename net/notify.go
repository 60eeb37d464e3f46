package net

import (
	"strconv"

	"github.com/rekv/rekv/actors/command"
)

// NotifyFlags implements command.Server.
func (s *Server) NotifyFlags() command.NotifyClass { return command.NotifyClass(s.notify.Load()) }

// Notify implements command.Server: it publishes Redis's
// __keyspace@<db>__:<key> (message: the event) and
// __keyevent@<db>__:<event> (message: the key) for enabled classes, in
// db's namespace and numbered as its clients number it; not to replicas,
// which raise their own as they apply the writes, as in Redis.
func (s *Server) Notify(db int, class command.NotifyClass, event string, key []byte) {
	flags := s.NotifyFlags()
	if flags&class == 0 {
		return
	}
	ns, n := command.NamespaceOf(db), strconv.Itoa(command.UserDB(db))
	if flags&command.NotifyKeyspace != 0 {
		s.deliver(ns, append([]byte("__keyspace@"+n+"__:"), key...), []byte(event))
	}
	if flags&command.NotifyKeyevent != 0 {
		s.deliver(ns, []byte("__keyevent@"+n+"__:"+event), key)
	}
}
