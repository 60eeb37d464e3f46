package facts

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
)

//go:generate go run ./gen -addr 127.0.0.1:6379

var (
	//go:embed info.json
	infoJSON []byte
	//go:embed args.json
	argsJSON []byte
	//go:embed summaries.txt
	summariesTxt string
)

// Info is a command's entry in Redis's command table (COMMAND INFO).
type Info struct {
	// Name is the full name the entry belongs to.
	Name string `json:"-"`
	// Arity is Redis's: N exact arguments (the name included), -N at
	// least N; 0 for an entry not read from a server (kept by hand).
	Arity int      `json:"arity"`
	Flags []string `json:"flags"`
	// First, Last and Step are the legacy key range COMMAND INFO shows.
	First    int       `json:"first"`
	Last     int       `json:"last"`
	Step     int       `json:"step"`
	ACL      []string  `json:"acl"` // ACL categories, in Redis's order
	Tips     []string  `json:"tips"`
	KeySpecs []KeySpec `json:"key_specs"`
}

// Has reports whether Redis flags the command with flag ("denyoom"...).
func (i *Info) Has(flag string) bool { return i != nil && slices.Contains(i.Flags, flag) }

// KeySpec is one Redis 7 key specification: where the search for keys
// begins (an index, or after a keyword) and how keys are found from there
// (a range, or a count argument).
type KeySpec struct {
	Notes       string      `json:"notes"`
	Flags       []string    `json:"flags"`
	BeginSearch BeginSearch `json:"begin_search"`
	FindKeys    FindKeys    `json:"find_keys"`
}

// BeginSearch is where a key specification starts looking: "index",
// "keyword" or "unknown".
type BeginSearch struct {
	Type string `json:"type"`
	Spec struct {
		Index     int    `json:"index"`
		Keyword   string `json:"keyword"`
		StartFrom int    `json:"startfrom"`
	} `json:"spec"`
}

// FindKeys is how a key specification finds keys from its start:
// "range", "keynum" or "unknown".
type FindKeys struct {
	Type string `json:"type"`
	Spec struct {
		LastKey   int `json:"lastkey"`
		KeyStep   int `json:"keystep"`
		Limit     int `json:"limit"`
		KeyNumIdx int `json:"keynumidx"`
		FirstKey  int `json:"firstkey"`
	} `json:"spec"`
}

// Doc is a command's COMMAND DOCS entry.
type Doc struct {
	// Summary and Complexity are rekv's own (summaries.txt).
	Summary    string `json:"-"`
	Complexity string `json:"-"`

	Group           string   `json:"group"`
	Since           string   `json:"since"`
	DocFlags        []string `json:"doc_flags"`
	DeprecatedSince string   `json:"deprecated_since"`
	Arguments       []Arg    `json:"arguments"`
	// Subcommands holds the subcommands' entries in args.json; Table
	// flattens them into its own entries by full name.
	Subcommands map[string]*Doc `json:"subcommands"`
}

// Arg is one argument in a command's documented argument structure.
type Arg struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	DisplayText  string   `json:"display_text"`
	KeySpecIndex *int     `json:"key_spec_index"`
	Token        string   `json:"token"`
	Flags        []string `json:"flags"`
	Arguments    []Arg    `json:"arguments"`
}

// Table holds the facts of every command, by full name.
type Table struct {
	info map[string]*Info
	docs map[string]*Doc
}

// Load parses the embedded facts into a new table.
func Load() (*Table, error) {
	t := &Table{docs: map[string]*Doc{}}
	if err := json.Unmarshal(infoJSON, &t.info); err != nil {
		return nil, err
	}
	for name, i := range t.info {
		i.Name = name
	}
	var top map[string]*Doc
	if err := json.Unmarshal(argsJSON, &top); err != nil {
		return nil, err
	}
	var flatten func(m map[string]*Doc)
	flatten = func(m map[string]*Doc) {
		for name, d := range m {
			t.docs[name] = d
			flatten(d.Subcommands)
		}
	}
	flatten(top)
	for _, line := range strings.Split(summariesTxt, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, '|')
		j := strings.LastIndexByte(line[:max(i, 0)], '|')
		if i < 0 || j < 0 {
			continue
		}
		name := line[:j]
		d := t.docs[name]
		if d == nil {
			d = &Doc{}
			t.docs[name] = d
		}
		d.Summary, d.Complexity = line[i+1:], line[j+1:i]
	}
	return t, nil
}

// Info returns the command-table entry of a full name, nil when Redis
// has none.
func (t *Table) Info(full string) *Info { return t.info[full] }

// Doc returns the documentation of a full name, nil when there is none.
func (t *Table) Doc(full string) *Doc { return t.docs[full] }
