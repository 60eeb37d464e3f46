package server

import (
	_ "embed"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/net/resp"
)

// Redis 7.0's command table facts for COMMAND INFO and GETKEYSANDFLAGS:
// docs/info.json holds, by full command name, Redis's command flags,
// tips and key specifications (generated from redis-server's COMMAND
// INFO for the commands rekv has).
//
//go:embed docs/info.json
var docsInfo []byte

type cmdFacts struct {
	Flags []string `json:"flags"`
	// First, Last and Step are the legacy key range COMMAND INFO shows.
	First    int       `json:"first"`
	Last     int       `json:"last"`
	Step     int       `json:"step"`
	ACL      []string  `json:"acl"` // ACL categories, in Redis's order
	Tips     []string  `json:"tips"`
	KeySpecs []keySpec `json:"key_specs"`
}

// keySpec is one Redis 7 key specification: where the search for keys
// begins (an index, or after a keyword) and how keys are found from there
// (a range, or a count argument).
type keySpec struct {
	Notes       string   `json:"notes"`
	Flags       []string `json:"flags"`
	BeginSearch struct {
		Type string `json:"type"`
		Spec struct {
			Index     int    `json:"index"`
			Keyword   string `json:"keyword"`
			StartFrom int    `json:"startfrom"`
		} `json:"spec"`
	} `json:"begin_search"`
	FindKeys struct {
		Type string `json:"type"`
		Spec struct {
			LastKey   int `json:"lastkey"`
			KeyStep   int `json:"keystep"`
			Limit     int `json:"limit"`
			KeyNumIdx int `json:"keynumidx"`
			FirstKey  int `json:"firstkey"`
		} `json:"spec"`
	} `json:"find_keys"`
}

func loadFacts() (map[string]cmdFacts, error) {
	var m map[string]cmdFacts
	err := json.Unmarshal(docsInfo, &m)
	return m, err
}

// ApplyRedisFlags marks the commands of reg that Redis flags denyoom
// (command.DenyOOM), so maxmemory refuses them as Redis does.
func ApplyRedisFlags(reg *command.Registry) error {
	facts, err := loadFacts()
	if err != nil {
		return err
	}
	for _, s := range reg.All() {
		for _, sp := range append([]*command.Spec{s}, s.Subcommands...) {
			for _, f := range facts[sp.FullName()].Flags {
				if f == "denyoom" {
					sp.Flags |= command.DenyOOM
				}
			}
		}
	}
	return nil
}

// write writes the key specification as Redis's COMMAND INFO does: a map
// of notes (when any), flags, begin_search and find_keys.
func (k keySpec) write(w *resp.Writer) {
	n := 3
	if k.Notes != "" {
		n++
	}
	w.Map(n)
	if k.Notes != "" {
		w.BulkString("notes")
		w.BulkString(k.Notes)
	}
	w.BulkString("flags")
	w.Set(len(k.Flags))
	for _, f := range k.Flags {
		w.Simple(f)
	}
	bs := k.BeginSearch
	w.BulkString("begin_search")
	w.Map(2)
	w.BulkString("type")
	w.BulkString(bs.Type)
	w.BulkString("spec")
	switch bs.Type {
	case "index":
		w.Map(1)
		w.BulkString("index")
		w.Int(int64(bs.Spec.Index))
	case "keyword":
		w.Map(2)
		w.BulkString("keyword")
		w.BulkString(bs.Spec.Keyword)
		w.BulkString("startfrom")
		w.Int(int64(bs.Spec.StartFrom))
	default:
		w.Map(0)
	}
	fk := k.FindKeys
	w.BulkString("find_keys")
	w.Map(2)
	w.BulkString("type")
	w.BulkString(fk.Type)
	w.BulkString("spec")
	switch fk.Type {
	case "range":
		w.Map(3)
		w.BulkString("lastkey")
		w.Int(int64(fk.Spec.LastKey))
		w.BulkString("keystep")
		w.Int(int64(fk.Spec.KeyStep))
		w.BulkString("limit")
		w.Int(int64(fk.Spec.Limit))
	case "keynum":
		w.Map(3)
		w.BulkString("keynumidx")
		w.Int(int64(fk.Spec.KeyNumIdx))
		w.BulkString("firstkey")
		w.Int(int64(fk.Spec.FirstKey))
		w.BulkString("keystep")
		w.Int(int64(fk.Spec.KeyStep))
	default:
		w.Map(0)
	}
}

// positions returns the argument indexes the key spec finds in args (the
// whole command line), following Redis's rules; nil when it finds none
// or cannot tell.
func (k keySpec) positions(args [][]byte) []int {
	argc := len(args)
	start := -1
	switch k.BeginSearch.Type {
	case "index":
		start = k.BeginSearch.Spec.Index
	case "keyword":
		kw, from := k.BeginSearch.Spec.Keyword, k.BeginSearch.Spec.StartFrom
		if from >= 0 {
			for i := from; i < argc; i++ {
				if strings.EqualFold(string(args[i]), kw) {
					start = i + 1
					break
				}
			}
		} else {
			for i := argc + from; i > 0; i-- {
				if strings.EqualFold(string(args[i]), kw) {
					start = i + 1
					break
				}
			}
		}
	}
	if start <= 0 || start >= argc {
		return nil
	}
	fk := k.FindKeys.Spec
	first, last, step := start, 0, max(fk.KeyStep, 1)
	switch k.FindKeys.Type {
	case "range":
		switch {
		case fk.LastKey >= 0:
			last = first + fk.LastKey
		case fk.Limit <= 1:
			last = argc + fk.LastKey
		default:
			last = first + (argc-first)/fk.Limit + fk.LastKey
		}
	case "keynum":
		at := start + fk.KeyNumIdx
		if at >= argc {
			return nil
		}
		n, err := strconv.Atoi(string(args[at]))
		if err != nil || n <= 0 {
			return nil
		}
		first = start + fk.FirstKey
		last = first + (n-1)*step
	default:
		return nil
	}
	var out []int
	for i := first; i <= last && i < argc; i += step {
		out = append(out, i)
	}
	return out
}

// keyFlags maps each key position of args to its key spec's flags. A key
// no spec finds belongs to a spec Redis could not describe (an "unknown"
// search, like SORT's STORE): the one whose notes name the keyword before
// the key, else the first such, else the first spec.
func keyFlags(specs []keySpec, args [][]byte, keys []int) [][]string {
	unmatched := func(p int) []string {
		var first []string
		for _, ks := range specs {
			if ks.BeginSearch.Type != "unknown" {
				continue
			}
			if p > 0 && strings.Contains(ks.Notes, strings.ToUpper(string(args[p-1]))+" keyword") {
				return ks.Flags
			}
			if first == nil {
				first = ks.Flags
			}
		}
		if first == nil && len(specs) > 0 {
			first = specs[0].Flags
		}
		return first
	}
	byPos := map[int][]string{}
	for _, ks := range specs {
		for _, p := range ks.positions(args) {
			if _, ok := byPos[p]; !ok {
				byPos[p] = ks.Flags
			}
		}
	}
	out := make([][]string, len(keys))
	for i, p := range keys {
		f, ok := byPos[p]
		if !ok {
			f = unmatched(p)
		}
		out[i] = f
	}
	return out
}
