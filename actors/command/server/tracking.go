package server

import (
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// CLIENT TRACKING <ON | OFF> [REDIRECT client-id] [PREFIX prefix ...]
// [BCAST] [OPTIN] [OPTOUT] [NOLOOP]
//
// Redis checks the options one by one — a second REDIRECT, a REDIRECT
// that is no integer or names no client, an unknown word — then ON or
// OFF, then the modes against the client's state. Parse does all but the
// look-ups; an error met after a REDIRECT waits in late, because Redis
// would first have failed on that client if it does not exist (Run).
type clientTracking struct {
	o    command.TrackOptions
	late error
}

func parseClientTracking(args [][]byte) (command.Runner, error) {
	var t clientTracking
	o := &t.o
	fail := func(err error) (command.Runner, error) {
		if o.Redirected {
			t.late = err
			return t, nil
		}
		return nil, err
	}
	for i := 3; i < len(args); i++ {
		more := i+1 < len(args)
		switch strings.ToLower(string(args[i])) {
		case "redirect":
			if !more {
				return fail(rerr.ErrSyntax)
			}
			if o.Redirected {
				return fail(rerr.Errorf("ERR A client can only redirect to a single other client"))
			}
			i++
			id, err := strconv.ParseInt(string(args[i]), 10, 64)
			if err != nil {
				return fail(rerr.ErrNotInteger)
			}
			o.Redirect, o.Redirected = id, true
		case "bcast":
			o.BCast = true
		case "optin":
			o.OptIn = true
		case "optout":
			o.OptOut = true
		case "noloop":
			o.NoLoop = true
		case "prefix":
			if !more {
				return fail(rerr.ErrSyntax)
			}
			i++
			o.Prefixes = append(o.Prefixes, string(args[i]))
		default:
			return fail(rerr.ErrSyntax)
		}
	}
	switch strings.ToLower(string(args[2])) {
	case "on":
		o.On = true
	case "off":
	default:
		return fail(rerr.ErrSyntax)
	}
	return t, nil
}

func (t clientTracking) Run(c *command.Ctx) error {
	if t.o.Redirected && !c.Server.Clients.ClientExists(t.o.Redirect) {
		return rerr.Errorf("ERR The client ID you want redirect to does not exist")
	}
	if t.late != nil {
		return t.late
	}
	if err := c.Client.Tracking.Track(t.o); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// CLIENT NO-TOUCH <ON | OFF>: whether this client's reads count as
// accesses (OBJECT IDLETIME); TOUCH always does.
type clientNoTouch struct{ on bool }

func parseClientNoTouch(args [][]byte) (command.Runner, error) {
	switch {
	case command.Is(args[2], "on"):
		return clientNoTouch{true}, nil
	case command.Is(args[2], "off"):
		return clientNoTouch{false}, nil
	}
	return nil, rerr.ErrSyntax
}

func (n clientNoTouch) Run(c *command.Ctx) error {
	c.Client.Session.SetNoTouch(n.on)
	c.W.OK()
	return nil
}

// CLIENT CACHING <YES | NO>: whether the next command's keys are tracked
// (OPTIN: YES tracks them; OPTOUT: NO leaves them out).
type clientCaching struct{ yes bool }

func parseClientCaching(args [][]byte) (command.Runner, error) {
	switch strings.ToLower(string(args[2])) {
	case "yes":
		return clientCaching{true}, nil
	case "no":
		return clientCaching{false}, nil
	}
	return nil, rerr.ErrSyntax
}

func (cc clientCaching) Run(c *command.Ctx) error {
	if err := c.Client.Tracking.Caching(cc.yes); err != nil {
		return err
	}
	c.W.OK()
	return nil
}

// CLIENT TRACKINGINFO: a map of flags (a set), redirect and prefixes.
type clientTrackingInfo struct{}

func (clientTrackingInfo) Run(c *command.Ctx) error {
	ti := c.Client.Tracking.TrackingInfo()
	w := c.W
	w.Map(3)
	w.BulkString("flags")
	w.Set(len(ti.Flags))
	for _, f := range ti.Flags {
		w.BulkString(f)
	}
	w.BulkString("redirect")
	w.Int(ti.Redirect)
	w.BulkString("prefixes")
	w.Array(len(ti.Prefixes))
	for _, p := range ti.Prefixes {
		w.BulkString(p)
	}
	return nil
}

// CLIENT GETREDIR: the client invalidations are redirected to; 0 when
// tracking sends them to this connection, -1 when tracking is off.
type clientGetRedir struct{}

func (clientGetRedir) Run(c *command.Ctx) error {
	c.W.Int(c.Client.Tracking.TrackingInfo().Redirect)
	return nil
}
