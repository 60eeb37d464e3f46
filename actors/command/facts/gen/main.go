package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/actors/command/all"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6379", "redis-server address")
	root := flag.String("root", "", "rekv's module root (default: found from the working directory)")
	flag.Parse()
	if err := run(*addr, *root); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// entries is one JSON file's content: full name -> entry.
type entries map[string]any

func run(addr, root string) error {
	if root == "" {
		var err error
		if root, err = moduleRoot(); err != nil {
			return err
		}
	}
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer c.Close()
	infoReply, err := c.Do(ctx, "command", "info").Slice()
	if err != nil {
		return fmt.Errorf("COMMAND INFO: %w", err)
	}
	redisInfo := entries{}
	redisACL := entries{}
	for _, e := range infoReply {
		collectInfo(e.([]any), redisInfo, redisACL)
	}
	docsReply, err := c.Do(ctx, "command", "docs").Slice()
	if err != nil {
		return fmt.Errorf("COMMAND DOCS: %w", err)
	}
	redisDocs := entries{}
	for i := 0; i+1 < len(docsReply); i += 2 {
		redisDocs[docsReply[i].(string)] = docEntry(docsReply[i+1].([]any))
	}

	infoFile := filepath.Join(root, "actors/command/facts/info.json")
	argsFile := filepath.Join(root, "actors/command/facts/args.json")
	aclFile := filepath.Join(root, "acl/categories.json")
	var names, tops []string // rekv's full names, and its top-level ones
	for _, s := range all.Registry(nil).All() {
		names = append(names, s.FullName())
		tops = append(tops, s.Name)
		for _, sub := range s.Subcommands {
			names = append(names, sub.FullName())
		}
	}
	if err := update(infoFile, names, redisInfo, nil); err != nil {
		return err
	}
	if err := update(argsFile, tops, redisDocs, mergeSubcommands); err != nil {
		return err
	}
	var every []string
	for n := range redisACL {
		every = append(every, n)
	}
	return update(aclFile, every, redisACL, nil)
}

// update rewrites file: the names it holds and those given, each from
// redis when it has it, else as the file had it (listed on stderr). merge,
// when set, combines an old entry into redis's (keeping what only the old
// one has).
func update(file string, names []string, redis entries, merge func(old, fresh any) any) error {
	old := entries{}
	if data, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(data, &old); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	want := slices.Clone(names)
	for n := range old {
		want = append(want, n)
	}
	out := entries{}
	for _, n := range want {
		fresh, ok := redis[n]
		switch {
		case !ok && old[n] != nil:
			out[n] = old[n]
			fmt.Fprintf(os.Stderr, "%s: %s kept (the server does not have it)\n", filepath.Base(file), n)
		case !ok:
			fmt.Fprintf(os.Stderr, "%s: %s: the server does not have it, and there is no entry to keep\n", filepath.Base(file), n)
		case merge != nil && old[n] != nil:
			out[n] = merge(old[n], fresh)
		default:
			out[n] = fresh
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	return os.WriteFile(file, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), 0o644)
}

// mergeSubcommands keeps the subcommand docs the server lacks (Redis
// 7.2's CLIENT SETINFO inside CLIENT) in a fresh COMMAND DOCS entry.
func mergeSubcommands(old, fresh any) any {
	o, _ := old.(map[string]any)
	f, _ := fresh.(map[string]any)
	osubs, _ := o["subcommands"].(map[string]any)
	if len(osubs) == 0 || f == nil {
		return fresh
	}
	fsubs, _ := f["subcommands"].(map[string]any)
	if fsubs == nil {
		fsubs = map[string]any{}
		f["subcommands"] = fsubs
	}
	for n, e := range osubs {
		if _, ok := fsubs[n]; !ok {
			fsubs[n] = e
			fmt.Fprintf(os.Stderr, "args.json: %s kept (the server does not have it)\n", n)
		}
	}
	return f
}

// collectInfo adds a COMMAND INFO entry (and its subcommands') to info
// and its ACL categories, sorted, to acl.
func collectInfo(e []any, info, acl entries) {
	name := e[0].(string)
	cats := strs(e[6])
	info[name] = map[string]any{
		"arity":     e[1],
		"flags":     strs(e[2]),
		"first":     e[3],
		"last":      e[4],
		"step":      e[5],
		"acl":       cats,
		"tips":      strs(e[7]),
		"key_specs": keySpecs(e[8].([]any)),
	}
	sorted := slices.Clone(cats)
	slices.Sort(sorted)
	acl[name] = sorted
	for _, sub := range e[9].([]any) {
		collectInfo(sub.([]any), info, acl)
	}
}

// keySpecs converts RESP2 key specifications (flat key-value arrays)
// into the JSON form.
func keySpecs(specs []any) []any {
	out := []any{}
	for _, s := range specs {
		m := pairs(s)
		ks := map[string]any{"flags": strs(m["flags"])}
		if n, ok := m["notes"]; ok {
			ks["notes"] = n
		}
		for _, part := range []string{"begin_search", "find_keys"} {
			p := pairs(m[part])
			ks[part] = map[string]any{"type": p["type"], "spec": pairs(p["spec"])}
		}
		out = append(out, ks)
	}
	return out
}

// docEntry converts a RESP2 COMMAND DOCS entry into the JSON form:
// group, since, doc_flags, deprecated_since, arguments and subcommands
// (summary and complexity are rekv's own, in summaries.txt).
func docEntry(flat []any) map[string]any {
	m := pairs(flat)
	out := map[string]any{}
	for _, k := range []string{"group", "since", "deprecated_since"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if v, ok := m["doc_flags"]; ok {
		out["doc_flags"] = strs(v)
	}
	if v, ok := m["arguments"]; ok {
		out["arguments"] = arguments(v.([]any))
	}
	if v, ok := m["subcommands"]; ok {
		subs := map[string]any{}
		flatSubs := v.([]any)
		for i := 0; i+1 < len(flatSubs); i += 2 {
			subs[flatSubs[i].(string)] = docEntry(flatSubs[i+1].([]any))
		}
		out["subcommands"] = subs
	}
	return out
}

func arguments(args []any) []any {
	out := []any{}
	for _, a := range args {
		m := pairs(a)
		arg := map[string]any{}
		for _, k := range []string{"name", "type", "display_text", "key_spec_index", "token"} {
			if v, ok := m[k]; ok {
				arg[k] = v
			}
		}
		if v, ok := m["flags"]; ok { // a set: kept sorted
			f := strs(v)
			slices.Sort(f)
			arg["flags"] = f
		}
		if v, ok := m["arguments"]; ok {
			arg["arguments"] = arguments(v.([]any))
		}
		out = append(out, arg)
	}
	return out
}

// pairs turns a RESP2 flat key-value array into a map.
func pairs(v any) map[string]any {
	flat, _ := v.([]any)
	m := map[string]any{}
	for i := 0; i+1 < len(flat); i += 2 {
		m[fmt.Sprint(flat[i])] = flat[i+1]
	}
	return m
}

func strs(v any) []string {
	out := []string{}
	for _, x := range v.([]any) {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// moduleRoot finds the directory of rekv's go.mod from the working
// directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(data), "module github.com/rekv/rekv\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no rekv go.mod above the working directory")
		}
		dir = parent
	}
}
