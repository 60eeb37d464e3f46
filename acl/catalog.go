package acl

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// Categories lists Redis's ACL categories in Redis's order (ACL CAT), and
// Redis 8's categories of the built-in types rekv serves.
var categoryOrder = []string{"keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap",
	"hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous", "connection",
	"transaction", "scripting", "bloom", "cms", "cuckoo", "topk", "tdigest", "json"}

// Categories returns Redis's ACL categories in Redis's order.
func Categories() []string { return slices.Clone(categoryOrder) }

// Catalog is the command table as ACL sees it: every leaf command (a
// command, or a container's subcommand, "config|get") with its
// categories.
type Catalog struct {
	leaves   []string            // sorted
	cats     map[string][]string // leaf -> categories, without '@'
	children map[string][]string // container -> its leaves
	known    map[string]bool     // leaves and containers
	given    map[string][]string // as given to NewCatalog: name -> "@cat"...
}

// categoriesJSON holds Redis 7's ACL categories of every command Redis
// has (and of the Redis 7.2 commands rekv adds), by full name, sorted:
// what "+@read" and ACL CAT mean, whether or not rekv serves the command.
// Generated with the command facts (actors/command/facts/gen).
//
//go:embed categories.json
var categoriesJSON []byte

// RedisCatalog returns the catalog of Redis's command table.
func RedisCatalog() (*Catalog, error) {
	var m map[string][]string
	if err := json.Unmarshal(categoriesJSON, &m); err != nil {
		return nil, err
	}
	return NewCatalog(m), nil
}

// CommandCategories returns the categories ("@read"...) of a full
// command name, leaf or container, as the table gives them.
func (c *Catalog) CommandCategories(name string) []string { return c.given[name] }

// NewCatalog builds a catalog from full command names and their ACL
// categories ("@read"...): a name with '|' is a subcommand.
func NewCatalog(categories map[string][]string) *Catalog {
	c := &Catalog{cats: map[string][]string{}, children: map[string][]string{}, known: map[string]bool{}, given: categories}
	for name := range categories {
		if i := strings.IndexByte(name, '|'); i > 0 {
			c.children[name[:i]] = append(c.children[name[:i]], name)
		}
	}
	for name, cats := range categories {
		c.known[name] = true
		if _, container := c.children[name]; container {
			continue
		}
		c.leaves = append(c.leaves, name)
		for _, cat := range cats {
			c.cats[name] = append(c.cats[name], strings.TrimPrefix(cat, "@"))
		}
	}
	sort.Strings(c.leaves)
	for k := range c.children {
		sort.Strings(c.children[k])
	}
	return c
}

// InCategory returns the leaf commands of a category, sorted (ACL CAT).
func (c *Catalog) InCategory(cat string) []string {
	var out []string
	for _, l := range c.leaves {
		if slices.Contains(c.cats[l], cat) {
			out = append(out, l)
		}
	}
	return out
}

func (c *Catalog) leavesOf(name string) []string {
	if ch, ok := c.children[name]; ok {
		return ch
	}
	if c.known[name] {
		return []string{name}
	}
	return nil
}
