//go:build linux && !poll_opt

package gnet

// rekv's change: a connection's reading can be paused, so that what a
// client sends waits in the kernel (TCP then pushes back on the client)
// instead of growing the inbound buffer without bound while the
// application does not consume it.

// PauseRead stops polling the connection for readable events until
// ResumeRead: OnTraffic is no longer called for data the peer sends
// (Wake still calls it). Errors and hang-ups are still noticed. It must
// be called on the connection's event loop (in OnTraffic, or a Wake's
// callback).
func (c *conn) PauseRead() error {
	if c.readPaused || !c.opened {
		return nil
	}
	c.readPaused = true
	if !c.outboundBuffer.IsEmpty() {
		return c.loop.poller.ModWrite(&c.pollAttachment, false)
	}
	return c.loop.poller.ModNone(&c.pollAttachment)
}

// ResumeRead undoes PauseRead: data waiting in the kernel is read and
// OnTraffic called again. On the event loop only, like PauseRead.
func (c *conn) ResumeRead() error {
	if !c.readPaused || !c.opened {
		return nil
	}
	c.readPaused = false
	if !c.outboundBuffer.IsEmpty() {
		return c.loop.poller.ModReadWrite(&c.pollAttachment, false)
	}
	return c.loop.poller.ModRead(&c.pollAttachment, false)
}

// ReadPaused reports whether PauseRead is in force.
func (c *conn) ReadPaused() bool { return c.readPaused }

// modRead polls for readable events, or none while reading is paused.
func (c *conn) modRead() error {
	if c.readPaused {
		return c.loop.poller.ModNone(&c.pollAttachment)
	}
	return c.loop.poller.ModRead(&c.pollAttachment, false)
}

// modReadWrite polls for readable and writable events, or writable ones
// only while reading is paused.
func (c *conn) modReadWrite(isET bool) error {
	if c.readPaused {
		return c.loop.poller.ModWrite(&c.pollAttachment, isET)
	}
	return c.loop.poller.ModReadWrite(&c.pollAttachment, isET)
}
