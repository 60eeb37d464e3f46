package server

import (
	"fmt"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// LATENCY LATEST | HISTORY event | RESET [event ...] | HISTOGRAM
// [command ...] | GRAPH event | DOCTOR | HELP (the monitor itself:
// net/latency.go).
type latencyCmd struct {
	sub  string
	args []string
}

func latencyParser(sub string) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		l := latencyCmd{sub: sub}
		for _, a := range args[2:] {
			l.args = append(l.args, string(a))
		}
		return l, nil
	}
}

func (l latencyCmd) Run(c *command.Ctx) error {
	switch l.sub {
	case "latest":
		evs := c.Server.Diag.LatencyLatest()
		c.W.Array(len(evs))
		for _, e := range evs {
			c.W.Array(4)
			c.W.BulkString(e.Name)
			c.W.Int(e.Time)
			c.W.Int(e.Latest)
			c.W.Int(e.Max)
		}
	case "history":
		ss := c.Server.Diag.LatencyHistory(l.args[0])
		c.W.Array(len(ss))
		for _, s := range ss {
			c.W.Array(2)
			c.W.Int(s.Time)
			c.W.Int(s.Ms)
		}
	case "reset":
		c.W.Int(int64(c.Server.Diag.LatencyReset(l.args)))
	case "histogram":
		hs := c.Server.Diag.LatencyHistogram(l.args)
		c.W.Map(len(hs))
		for _, h := range hs {
			c.W.BulkString(h.Name)
			c.W.Map(2)
			c.W.BulkString("calls")
			c.W.Int(h.Calls)
			c.W.BulkString("histogram_usec")
			c.W.Map(len(h.Buckets))
			for _, b := range h.Buckets {
				c.W.Int(b[0])
				c.W.Int(b[1])
			}
		}
	case "graph":
		ss := c.Server.Diag.LatencyHistory(l.args[0])
		if len(ss) == 0 {
			return rerr.Errorf("ERR No samples available for event '%s'", l.args[0])
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s - latency samples (ms), oldest first\n", l.args[0])
		top := int64(1)
		for _, s := range ss {
			top = max(top, s.Ms)
		}
		for _, s := range ss {
			fmt.Fprintf(&b, "%d %6d %s\n", s.Time, s.Ms, strings.Repeat("#", int(1+s.Ms*40/top)))
		}
		c.W.Verbatim(b.String())
	case "doctor":
		evs := c.Server.Diag.LatencyLatest()
		var b strings.Builder
		if len(evs) == 0 {
			b.WriteString("No latency samples: either nothing ran slower than latency-monitor-threshold, " +
				"or the monitor is off (CONFIG SET latency-monitor-threshold <milliseconds> turns it on).\n")
		}
		for _, e := range evs {
			fmt.Fprintf(&b, "%s: latest %d ms at %d, highest %d ms. Slow commands: see SLOWLOG GET and LATENCY HISTOGRAM.\n",
				e.Name, e.Latest, e.Time, e.Max)
		}
		c.W.Verbatim(b.String())
	case "help":
		lines := []string{
			"LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"DOCTOR", "    Describes the latency samples.",
			"GRAPH <event>", "    Draws an event's samples as text.",
			"HISTORY <event>", "    An event's samples: unix time, milliseconds.",
			"LATEST", "    Every event's latest sample and maximum.",
			"RESET [<event> ...]", "    Drops the samples of the events (all by default).",
			"HISTOGRAM [COMMAND ...]", "    Run-time histograms of the commands (all by default), in microseconds.",
			"HELP", "    Prints this help.",
		}
		c.W.SimpleArray(lines)
	}
	return nil
}
