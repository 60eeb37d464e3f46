package facts

import "strings"

// Sample returns arguments shaped by the documented ones (after the
// command's name): key arguments are key, integers "1", doubles "0.01",
// patterns "*", strings "v" (a host "127.0.0.1"); optional arguments only
// with full, and with full a repeated one twice; a oneof's last choice
// with last, else its first. Tests use it
// to make command lines from the documentation alone.
func (d *Doc) Sample(key string, full, last bool) []string {
	if d == nil {
		return nil
	}
	return sampleArgs(d.Arguments, key, full, last)
}

func sampleArgs(args []Arg, key string, full, last bool) []string {
	var out []string
	for _, a := range args {
		if a.has("optional") && !full {
			continue
		}
		times := 1
		if full && a.has("multiple") {
			times = 2 // a repeated argument, twice
		}
		for range times {
			if a.Token != "" && a.Type != "pure-token" {
				out = append(out, a.Token)
			}
			out = append(out, sampleArg(a, key, full, last)...)
		}
	}
	return out
}

// has reports whether the argument has a flag ("optional", "multiple").
func (a Arg) has(flag string) bool {
	for _, f := range a.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

func sampleArg(a Arg, key string, full, last bool) []string {
	switch a.Type {
	case "key":
		return []string{key}
	case "pure-token":
		return []string{a.Token}
	case "integer", "unix-time":
		return []string{"1"}
	case "double":
		return []string{"0.01"}
	case "pattern":
		return []string{"*"}
	case "oneof":
		if len(a.Arguments) == 0 {
			return nil
		}
		pick := a.Arguments[0]
		if last {
			pick = a.Arguments[len(a.Arguments)-1]
		}
		var flags []string
		for _, f := range pick.Flags {
			if f != "optional" {
				flags = append(flags, f)
			}
		}
		pick.Flags = flags
		return sampleArgs([]Arg{pick}, key, full, last)
	case "block":
		return sampleArgs(a.Arguments, key, full, last)
	}
	switch name := strings.ToLower(a.Name); {
	case strings.Contains(name, "host") || strings.Contains(name, "ip"):
		return []string{"127.0.0.1"}
	case strings.Contains(name, "port"):
		return []string{"1"}
	}
	return []string{"v"}
}

// KeyPositions returns the argument indexes of args (the whole command
// line) that Redis's key specifications find, ascending, once each, and
// whether every spec could tell (false when one's search is "unknown", as
// SORT's STORE).
func (i *Info) KeyPositions(args [][]byte) (positions []int, complete bool) {
	if i == nil {
		return nil, false
	}
	complete = true
	seen := map[int]bool{}
	for _, ks := range i.KeySpecs {
		if ks.BeginSearch.Type == "unknown" {
			complete = false
			continue
		}
		for _, p := range ks.positions(args) {
			seen[p] = true
		}
	}
	for p := range seen {
		positions = append(positions, p)
	}
	for a := 1; a < len(positions); a++ { // insertion sort: few keys
		for b := a; b > 0 && positions[b] < positions[b-1]; b-- {
			positions[b], positions[b-1] = positions[b-1], positions[b]
		}
	}
	return positions, complete
}
