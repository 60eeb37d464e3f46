package json

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rjson"
)

// JSON.GET key [INDENT s] [NEWLINE s] [SPACE s] [FORMAT f] [path ...]:
// the values at the paths as JSON text. One JSONPath: an array of its
// matches; one legacy path: its first match (an error if none); several
// paths: an object keyed by path, each an array of matches, or each one
// value when all paths are legacy. RESP3 with FORMAT EXPAND1 or EXPAND
// replies with RESP3 values instead.
type get struct {
	key         []byte
	paths       []path
	format      rjson.Format
	reply       string // "" (STRING), EXPAND1 or EXPAND
	formatEarly bool   // FORMAT came before any path
}

func parseGet(args [][]byte) (command.Runner, error) {
	g := get{key: args[1]}
	next := func(i *int) ([]byte, error) {
		if *i++; *i >= len(args) {
			return nil, rerr.ErrArity("json.get")
		}
		return args[*i], nil
	}
	for i := 2; i < len(args); i++ {
		a := args[i]
		if len(a) > len("NOESCAPE") {
			g.paths = append(g.paths, newPath(a))
			continue
		}
		switch {
		case command.Is(a, "format"):
			g.formatEarly = g.formatEarly || len(g.paths) == 0
			f, err := next(&i)
			if err != nil {
				return nil, err
			}
			switch string(f) {
			case "STRING":
				g.reply = ""
			case "EXPAND1", "EXPAND":
				g.reply = string(f)
			default:
				return nil, rerr.Errorf("ERR wrong reply format")
			}
		case command.Is(a, "indent"), command.Is(a, "newline"), command.Is(a, "space"):
			s, err := next(&i)
			if err != nil {
				return nil, err
			}
			switch {
			case command.Is(a, "indent"):
				g.format.Indent = string(s)
			case command.Is(a, "newline"):
				g.format.Newline = string(s)
			default:
				g.format.Space = string(s)
			}
			g.format.Set = true
		case command.Is(a, "noescape"):
		default:
			g.paths = append(g.paths, newPath(a))
		}
	}
	if len(g.paths) == 0 {
		g.paths = []path{rootPath}
	}
	return g, nil
}

func (g get) Run(c *command.Ctx) error {
	resp3 := c.W.Proto() == 3
	if g.formatEarly && !resp3 {
		return rerr.Errorf("ERR FORMAT argument is not supported on RESP2")
	}
	d, err := open(c, g.key)
	if err != nil {
		return err
	}
	if d == nil {
		c.W.Null()
		return nil
	}
	if resp3 && g.reply != "" {
		c.W.Array(len(g.paths))
		for _, p := range g.paths {
			var vals []*rjson.Value
			if q, err := p.query(); err == nil {
				vals = q.Values(d.Root)
			}
			c.W.Array(len(vals))
			for _, v := range vals {
				writeRESP3(c, v, g.reply == "EXPAND", g.format)
			}
		}
		return nil
	}
	legacy := true
	for _, p := range g.paths {
		legacy = legacy && p.legacy
	}
	if len(g.paths) == 1 {
		p := g.paths[0]
		q, err := p.query()
		if err != nil && p.legacy {
			return errPath(p.text)
		}
		if err != nil {
			return err
		}
		vals := q.Values(d.Root)
		if !legacy {
			c.W.Bulk(rjson.Append(nil, rjson.NewArray(vals), g.format))
			return nil
		}
		if len(vals) == 0 {
			return errPath(p.text)
		}
		c.W.Bulk(rjson.Append(nil, vals[0], g.format))
		return nil
	}
	out := rjson.NewObject()
	for _, p := range g.paths {
		q, err := p.query()
		if err != nil {
			continue
		}
		vals := q.Values(d.Root)
		switch {
		case !legacy:
			out.O.Set(p.orig, rjson.NewArray(vals))
		case len(vals) == 0:
			return errPath(p.orig)
		default:
			out.O.Set(p.orig, vals[0])
		}
	}
	c.W.Bulk(rjson.Append(nil, out, g.format))
	return nil
}

// writeRESP3 writes v as RESP3: scalars as themselves; containers as
// JSON text (EXPAND1), or as arrays and maps (EXPAND).
func writeRESP3(c *command.Ctx, v *rjson.Value, expand bool, f rjson.Format) {
	switch v.Kind {
	case rjson.Null:
		c.W.Null()
	case rjson.Bool:
		c.W.Bool(v.B)
	case rjson.Int:
		c.W.Int(v.I)
	case rjson.Uint, rjson.Float:
		c.W.Double(v.Float64())
	case rjson.String:
		if expand {
			c.W.BulkString(v.S)
		} else {
			c.W.Bulk(rjson.Append(nil, v, f))
		}
	case rjson.Array:
		if !expand {
			c.W.Bulk(rjson.Append(nil, v, f))
			return
		}
		c.W.Array(len(v.A))
		for _, e := range v.A {
			writeRESP3(c, e, true, f)
		}
	case rjson.Object:
		if !expand {
			c.W.Bulk(rjson.Append(nil, v, f))
			return
		}
		c.W.Map(v.O.Len())
		for i, k := range v.O.Keys {
			c.W.BulkString(k)
			writeRESP3(c, v.O.Vals[i], true, f)
		}
	}
}
