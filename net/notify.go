package net

import (
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
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

// SetConfig implements command.Server (CONFIG SET): only
// notify-keyspace-events changes at run time.
func (s *Server) SetConfig(name, value string) error {
	switch strings.ToLower(name) {
	case "busy-reply-threshold", "lua-time-limit":
		ms, err := strconv.ParseInt(value, 10, 64)
		if err != nil || ms < 0 {
			return rerr.Errorf("ERR CONFIG SET failed (possibly related to argument '%s') - argument couldn't be parsed into an integer", strings.ToLower(name))
		}
		s.busyMs.Store(ms)
		return nil
	case "notify-keyspace-events":
		n, ok := command.ParseNotify(value)
		if !ok {
			return rerr.Errorf("ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.")
		}
		s.notify.Store(uint32(n))
		return nil
	}
	return rerr.Errorf("ERR Unknown option or number of arguments for CONFIG SET - '%s'", name)
}
