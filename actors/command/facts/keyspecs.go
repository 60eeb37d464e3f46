package facts

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// positions returns the argument indexes the key spec finds in args (the
// whole command line), following Redis's rules; nil when it finds none
// or cannot tell.
func (k KeySpec) positions(args [][]byte) []int {
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

// KeyFlags maps each key position of args (keys: indexes into args, the
// whole command line) to the flags of the key spec that finds it ("RW",
// "access", "update"...), with the flags Redis works out from the
// arguments where the spec says variable_flags. A key no spec finds
// belongs to a spec Redis could not describe (an "unknown" search, like
// SORT's STORE): the one whose notes name the keyword before the key,
// else the first such, else the first spec. Nil for a nil Info.
func (i *Info) KeyFlags(args [][]byte, keys []int) [][]string {
	if i == nil {
		return nil
	}
	specs := i.KeySpecs
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
	for n, p := range keys {
		f, ok := byPos[p]
		if !ok {
			f = unmatched(p)
		}
		out[n] = variableFlags(i.Name, args, f)
	}
	return out
}

// variableFlags resolves the key flags Redis works out from the arguments
// of the commands whose key spec says variable_flags: SET writes its key
// blindly (OW) unless GET reads it; BITFIELD with only GET operations
// reads.
func variableFlags(name string, args [][]byte, flags []string) []string {
	if !slices.Contains(flags, "variable_flags") {
		return flags
	}
	is := func(a []byte, word string) bool { return bytes.EqualFold(a, []byte(word)) }
	switch name {
	case "set":
		for _, a := range args[min(3, len(args)):] {
			if is(a, "get") {
				return []string{"RW", "access", "update"}
			}
		}
		return []string{"OW", "update"}
	case "bitfield":
		for _, a := range args[min(2, len(args)):] {
			if is(a, "set") || is(a, "incrby") {
				return []string{"RW", "access", "update"}
			}
		}
		return []string{"RO", "access"}
	}
	return slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return f == "variable_flags" })
}
