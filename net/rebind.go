package net

import (
	"context"
	"errors"
	stdnet "net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/panjf2000/gnet/v2"
)

// CONFIG SET port and bind at run time, as Redis 7.0: the server listens
// on the new addresses, stops listening on the old ones, and keeps the
// connections it has. A listen that fails changes nothing.
//
// gnet's own listener (Options.Addr) can only close with its event loops,
// so it is retired instead: a connection it accepts once retired is closed
// at once (OnOpen). Every other address gets a Go listener whose accepted
// connections are enrolled into the event loops (gnet's Register, as the
// TLS connections are), marked so OnOpen knows them. Setting the port and
// bind back to gnet's own address takes that listener back into service.

// relisten is the state of the listeners set at run time.
type relisten struct {
	mu      sync.Mutex
	retired atomic.Bool       // gnet's own listener no longer serves
	extra   []stdnet.Listener // Go listeners of the current addresses
	wg      sync.WaitGroup    // their accept loops
}

// rebound is the gnet context of a connection a Go listener accepted: it
// is not one the retired listener took.
type rebound struct{}

// rebind makes the server listen on port at each host of bind (a space
// separated list as Redis's bind; a host starting with '-' may fail),
// or nowhere for port 0.
func (s *Server) rebind(bind string, port int) error {
	r := &s.relisten
	r.mu.Lock()
	defer r.mu.Unlock()
	own := s.opts.Addr
	keepOwn := false
	var opened []stdnet.Listener
	if port != 0 {
		for _, h := range strings.Fields(bind) {
			optional := strings.HasPrefix(h, "-")
			h = strings.TrimPrefix(h, "-")
			switch h {
			case "*":
				h = "0.0.0.0"
			case "::*":
				h = "::"
			}
			addr := stdnet.JoinHostPort(h, strconv.Itoa(port))
			if sameAddr(addr, own) {
				keepOwn = true
				continue
			}
			ln, err := listenAgain(r.extra, addr)
			if err != nil {
				if optional {
					continue
				}
				for _, l := range opened {
					if !contains(r.extra, l) {
						_ = l.Close()
					}
				}
				return err
			}
			opened = append(opened, ln)
		}
	}
	for _, l := range r.extra {
		if !contains(opened, l) {
			_ = l.Close()
		}
	}
	for _, l := range opened {
		if !contains(r.extra, l) {
			r.wg.Add(1)
			go s.acceptOn(l)
		}
	}
	r.extra = opened
	r.retired.Store(!keepOwn)
	return nil
}

// listenAgain returns the listener of current already on addr, or a new
// one.
func listenAgain(current []stdnet.Listener, addr string) (stdnet.Listener, error) {
	for _, l := range current {
		if sameAddr(l.Addr().String(), addr) {
			return l, nil
		}
	}
	var lc stdnet.ListenConfig // Go sets SO_REUSEADDR, as gnet and Redis do
	return lc.Listen(context.Background(), "tcp", addr)
}

func contains(ls []stdnet.Listener, l stdnet.Listener) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// sameAddr compares two host:port addresses, whatever their spelling.
func sameAddr(a, b string) bool {
	ta, err1 := stdnet.ResolveTCPAddr("tcp", a)
	tb, err2 := stdnet.ResolveTCPAddr("tcp", b)
	if err := errors.Join(err1, err2); err != nil {
		return a == b
	}
	return ta.Port == tb.Port && ta.IP.Equal(tb.IP)
}

// acceptOn enrols the connections l accepts until it is closed.
func (s *Server) acceptOn(l stdnet.Listener) {
	defer s.relisten.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			var ne stdnet.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return // closed
		}
		ctx := gnet.NewContext(gnet.NewNetConnContext(context.Background(), c), rebound{})
		ch, err := s.eng.Register(ctx)
		if err == nil {
			if res := <-ch; res.Err != nil {
				err = res.Err
			}
		}
		_ = c.Close() // gnet holds its own copy of the descriptor
		if err != nil {
			s.log.Warn("listen: enrol a connection", "err", err)
		}
	}
}

// stopRelisten closes the Go listeners and waits for their loops.
func (s *Server) stopRelisten() {
	r := &s.relisten
	r.mu.Lock()
	for _, l := range r.extra {
		_ = l.Close()
	}
	r.extra = nil
	r.mu.Unlock()
	r.wg.Wait()
}
