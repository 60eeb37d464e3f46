//go:build darwin || dragonfly || freebsd || netbsd || openbsd || (linux && poll_opt)

package gnet

import "errors"

// PauseRead is implemented for Linux's default poller only (rekv's
// change, connection_pause_linux.go).
func (c *conn) PauseRead() error { return errors.ErrUnsupported }

// ResumeRead: see PauseRead.
func (c *conn) ResumeRead() error { return nil }

// ReadPaused reports false: reading is never paused here.
func (c *conn) ReadPaused() bool { return false }

func (c *conn) modRead() error { return c.loop.poller.ModRead(&c.pollAttachment, false) }

func (c *conn) modReadWrite(isET bool) error {
	return c.loop.poller.ModReadWrite(&c.pollAttachment, isET)
}
