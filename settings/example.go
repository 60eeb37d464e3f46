package settings

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// exampleHeader opens the example file (%s: the flags).
const exampleHeader = "rekv configuration: every key with its default. Generated from the " +
	"settings table (package settings): edit the table, then run go generate ./settings. " +
	"Layers: these defaults, then this file (--config path), then environment variables " +
	"REKV_SECTION__KEY (e.g. REKV_SERVER__PORT=6390, REKV_STORAGE__BADGER__DIR=/var/lib/rekv), " +
	"then flags (%s). Lists from the environment or flags are comma separated " +
	"(REKV_STORAGE__TIKV__PD=pd1:2379,pd2:2379)."

// Example returns the example configuration file: every setting with a
// file key, its default (a computed one shown commented out) and what it
// does, in the table's order.
func Example(table []Setting) []byte {
	var b bytes.Buffer
	var flags []string
	for _, s := range table {
		if s.Flag != "" {
			flags = append(flags, "--"+s.Flag)
		}
	}
	b.WriteString("# " + wrapWords(fmt.Sprintf(exampleHeader, strings.Join(flags, ", ")), 72, "# ") + "\n")
	var open []string // the mappings open at the previous key
	for _, s := range table {
		if s.Key == "" {
			continue
		}
		path := strings.Split(s.Key, ".")
		same := 0
		for same < len(open) && same < len(path)-1 && open[same] == path[same] {
			same++
		}
		if same == 0 {
			b.WriteString("\n")
		}
		for i := same; i < len(path)-1; i++ {
			fmt.Fprintf(&b, "%s%s:\n", indent(i), path[i])
		}
		open = path[:len(path)-1]
		in := indent(len(path) - 1)
		for _, line := range strings.Split(strings.TrimSuffix(s.Doc, "\n"), "\n") {
			if line != "" {
				fmt.Fprintf(&b, "%s# %s\n", in, line)
			}
		}
		name := path[len(path)-1]
		if s.Sized {
			fmt.Fprintf(&b, "%s# %s: %s\n", in, name, s.Example)
			continue
		}
		fmt.Fprintf(&b, "%s%s: %s\n", in, name, yamlValue(s))
		if s.Type == Map && s.Example != "" {
			for _, line := range strings.Split(s.Example, "\n") {
				fmt.Fprintf(&b, "%s#   %s\n", in, line)
			}
		}
	}
	return b.Bytes()
}

func indent(depth int) string { return strings.Repeat("  ", depth) }

// yamlValue writes a default as YAML: strings YAML would read as
// something else quoted.
func yamlValue(s Setting) string {
	switch s.Type {
	case List:
		return "[]"
	case Map:
		return "{}"
	case String, Enum:
		v := s.Default
		switch strings.ToLower(v) {
		case "", "yes", "no", "true", "false", "on", "off", "y", "n", "null", "~":
			return strconv.Quote(v)
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.Quote(v)
		}
		return v
	}
	return s.Default
}

// wrapWords joins words into lines of at most width characters, each
// line after the first starting with prefix.
func wrapWords(text string, width int, prefix string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && n+1+len(w) > width {
			b.WriteString("\n" + prefix)
			n = 0
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// Markdown returns the reference of every setting, as docs/settings.md
// holds it: rekv's settings with their CONFIG names, then the Redis
// parameters CONFIG knows and what rekv does with them.
func Markdown(table []Setting) []byte {
	var b bytes.Buffer
	b.WriteString("# Settings\n\n" +
		"Generated from the settings table (package `settings`): edit the table,\n" +
		"then run `go generate ./settings`. How settings are given (file,\n" +
		"environment, flags) is in [configuration](configuration.md).\n\n" +
		"## rekv's settings\n\n" +
		"| key | default | CONFIG name | CONFIG SET | flag | what it does |\n" +
		"|---|---|---|---|---|---|\n")
	prev := ""
	for _, s := range table {
		if s.Key == "" {
			continue
		}
		def := "`" + s.Default + "`"
		if s.Sized {
			def = "sized (e.g. `" + s.Example + "`)"
		} else if s.Default == "" {
			def = ""
		}
		doc := strings.Join(strings.Fields(s.Doc), " ")
		if doc == "" {
			doc = "see `" + prev + "`"
		} else {
			prev = s.Key
		}
		doc = strings.ReplaceAll(doc, "|", "\\|")
		redis, apply, flag := "", "", ""
		if s.Redis != "" {
			redis, apply = "`"+s.Redis+"`", s.Apply.String()
		}
		if s.Flag != "" {
			flag = "`--" + s.Flag + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", s.Key, def, redis, apply, flag, doc)
	}
	b.WriteString("\n## Redis parameters\n\n" +
		"Redis 7.0's other parameters: CONFIG GET shows them and CONFIG SET checks\n" +
		"them as Redis does. *live* ones take effect at once; *kept* ones are\n" +
		"remembered with no effect in rekv; *at start* ones are given in the file\n" +
		"under `server.redis`. An alias is another name of the parameter it names.\n\n" +
		"| name | default | CONFIG SET |\n|---|---|---|\n")
	for _, s := range table {
		if s.Key != "" || s.Redis == "" {
			continue
		}
		if s.Alias != "" {
			fmt.Fprintf(&b, "| `%s` | alias of `%s` | |\n", s.Redis, s.Alias)
			continue
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", s.Redis, s.Default, s.Apply)
	}
	return b.Bytes()
}

// String names how a setting applies, as docs/settings.md says it.
func (a Apply) String() string {
	return [...]string{AtStart: "at start", Live: "live", Kept: "kept", Protected: "protected"}[a]
}
