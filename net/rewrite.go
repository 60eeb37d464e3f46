package net

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/atomicfile"
	"github.com/rekv/rekv/settings"
)

// CONFIG REWRITE writes the parameters changed since the start (CONFIG
// SET) back into the YAML configuration file the server was started
// with, editing its YAML tree so that comments and the order of what is
// there are kept. A parameter with a rekv setting of its own (a row of
// the settings table with a file key) goes there, in the file's form;
// every other goes under server.redis, the map of Redis parameters
// applied at start. The file is replaced whole (a temporary
// file renamed over it). Without a configuration file, or if the file
// cannot be read, parsed or written, it answers why.

// StartConfig applies the Redis parameters of the configuration
// (server.redis) as CONFIG SET would, then records the values in force
// for CONFIG REWRITE.
func (s *Server) StartConfig(params map[string]string) error {
	if len(params) > 0 {
		pairs := make([][2]string, 0, len(params))
		for k, v := range params {
			pairs = append(pairs, [2]string{k, v})
		}
		sort.Slice(pairs, func(i, j int) bool { return pairs[i][0] < pairs[j][0] })
		if err := s.conf.set(pairs, s.applyConfig, true); err != nil {
			return err
		}
		if err := s.reloadTLS(pairs); err != nil {
			return err
		}
	}
	s.conf.snapshot()
	return nil
}

// SyncStore implements command.Server.
func (vw nodeRole) SyncStore() error {
	s := vw.s
	if s.opts.Sync != nil {
		return s.opts.Sync()
	}
	return nil
}

// SetActiveExpire implements command.Server.
func (vw nodeRole) SetActiveExpire(on bool) {
	s := vw.s
	if s.opts.ActiveExpire != nil {
		s.opts.ActiveExpire(on)
	}
}

// SetScriptDebug implements command.Server.
func (vw nodeRole) SetScriptDebug(on bool) { vw.s.scriptDebug.Store(on) }

// PauseCron implements command.Server (DEBUG PAUSE-CRON).
func (vw nodeRole) PauseCron(on bool) { vw.s.cronPaused.Store(on) }

// ScriptDebug implements command.Server.
func (vw nodeRole) ScriptDebug() bool { return vw.s.scriptDebug.Load() }

// snapshot records the values in force once the server started,
// which CONFIG REWRITE compares with.
func (c *config) snapshot() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.initial = make(map[string]string, len(c.values))
	for k, v := range c.values {
		c.initial[k] = v
	}
}

// changed returns the parameters whose value changed since snapshot, by
// canonical name, sorted.
func (c *config) changed() [][2]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out [][2]string
	for k, v := range c.values {
		if c.initial[k] != v {
			out = append(out, [2]string{k, v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// ConfigRewrite implements command.Server.
func (vw configRole) ConfigRewrite() error {
	s := vw.s
	file := s.info.ConfigFile
	if file == "" {
		return rerr.Errorf("ERR The server is running without a config file")
	}
	changed := s.conf.changed()
	if err := rewriteFile(file, changed); err != nil {
		s.log.Warn("CONFIG REWRITE failed", "file", file, "err", err)
		return rerr.Errorf("ERR Rewriting config file: %v", err)
	}
	s.conf.snapshot() // what the file says now
	s.log.Info("CONFIG REWRITE executed with success", "file", file, "parameters", len(changed))
	return nil
}

func rewriteFile(file string, changed [][2]string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("parse %s: %w", file, err)
	}
	if doc.Kind == 0 { // an empty file
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("%s is not a YAML mapping", file)
	}
	root := doc.Content[0]
	own := map[string]settings.Setting{}
	for _, row := range settings.Config(settings.Table()) {
		if row.Key != "" {
			own[row.Redis] = row
		}
	}
	for _, kv := range changed {
		name, value := kv[0], kv[1]
		if row, ok := own[name]; ok {
			v, tag := row.FileValue(value)
			if err := setYAML(root, strings.Split(row.Key, "."), v, tag); err != nil {
				return err
			}
			continue
		}
		if err := setYAML(root, []string{"server", "redis", name}, value, "!!str"); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2) // rekv.example.yaml's
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	out := buf.Bytes()
	mode := os.FileMode(0o644)
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	return atomicfile.Write(file, mode, func(w io.Writer) error {
		_, err := w.Write(out)
		return err
	})
}

// setYAML sets path (mapping keys from root) to a scalar, creating the
// mappings on the way; an existing key keeps its comments.
func setYAML(root *yaml.Node, path []string, value, tag string) error {
	n := root
	for i, key := range path {
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("%v is not a mapping", path[:i])
		}
		var child *yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == key {
				child = n.Content[j+1]
				break
			}
		}
		last := i == len(path)-1
		if child == nil {
			child = &yaml.Node{Kind: yaml.MappingNode}
			if last {
				child = &yaml.Node{Kind: yaml.ScalarNode}
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, child)
		}
		if last {
			if child.Kind != yaml.ScalarNode {
				return fmt.Errorf("%v is not a scalar", path)
			}
			child.Tag, child.Value, child.Style = tag, value, 0
			if tag == "!!str" {
				child.Style = yaml.DoubleQuotedStyle
			}
		}
		n = child
	}
	return nil
}
