package settings

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Type is what a setting's value is.
type Type uint8

// The types. The zero Type is none: a Setting's Config type when it is
// the same as its Type.
const (
	String Type = iota + 1
	Bool
	Int
	// Mem is a number of bytes; CONFIG SET takes units (1gb, 64mb).
	Mem
	// MemPct is bytes or a percentage of maxmemory (maxmemory-clients).
	MemPct
	Enum
	// Duration is a Go duration in the file ("10s", "100ms").
	Duration
	// List is a list of strings (comma-separated from the environment
	// and flags).
	List
	// Map is a map of strings (server.redis).
	Map
	// Special is a format of its own, checked by its own code
	// (notify-keyspace-events, save, client-output-buffer-limit...).
	Special
)

// Apply is whether and how CONFIG SET changes a setting.
type Apply uint8

// The ways a setting applies.
const (
	// AtStart: read at start only; CONFIG SET refuses it ("can't set
	// immutable config"). A Redis-only one may be given at start under
	// server.redis.
	AtStart Apply = iota
	// Live: CONFIG SET takes effect at once (package net applies it).
	Live
	// Kept: CONFIG SET checks and remembers it; it has no effect in rekv
	// (an encoding threshold, a persistence option...).
	Kept
	// Protected: CONFIG SET refuses it ("can't set protected config",
	// enable-protected-configs being no).
	Protected
)

// Setting is one row of the table: everything rekv knows of a setting.
type Setting struct {
	// Key is the setting's key in the configuration file, the
	// environment (REKV_SERVER__PORT) and koanf ("server.port"); empty
	// for a Redis parameter with no setting of its own (given under
	// server.redis).
	Key string
	// Redis is the setting's CONFIG GET/SET name; empty when CONFIG does
	// not show it.
	Redis string
	// Alias, when set, makes this row another CONFIG name for the
	// parameter it names (slaveof for replicaof): nothing else is set.
	Alias string
	// Type is the value's type (in the file when Key is set).
	Type Type
	// Config is the type CONFIG SET checks when it differs from Type
	// (Mem where the file has a byte count, Special...).
	Config Type
	// Default is the value when nothing sets it, as the file writes it
	// (as CONFIG GET shows it for a Redis-only parameter).
	Default string
	// Min and Max bound an Int, Mem or Duration (nanoseconds) value when
	// Bounded is set (always for CONFIG's integers).
	Min, Max int64
	Bounded  bool
	// Values are an Enum's values.
	Values []string
	// Hint says what a special value means, in the error naming a value
	// out of bounds ("0 disables").
	Hint string
	// Apply is whether and how CONFIG SET changes it.
	Apply Apply
	// Hidden: CONFIG GET shows it only when asked for by its exact name,
	// not through a pattern (Redis's HIDDEN_CONFIG: test switches).
	Hidden bool
	// Flag is the command-line flag that sets it, if any.
	Flag string
	// Sized: the default is computed (from the memory budget...) unless
	// the setting is given; the example file shows Example, commented
	// out.
	Sized   bool
	Example string
	// Doc says what it does, in lines (the example file's comments).
	Doc string
}

// ConfigType is the type CONFIG SET checks.
func (s Setting) ConfigType() Type {
	if s.Config != 0 {
		return s.Config
	}
	return s.Type
}

// Table returns every setting: rekv's own (with their CONFIG names where
// they have one), then the Redis parameters that have no setting of
// their own, each once.
func Table() []Setting {
	return append(rekvRows(), redisRows()...)
}

// ByKey returns the settings that have a file key, by key.
func ByKey(table []Setting) map[string]Setting {
	out := map[string]Setting{}
	for _, s := range table {
		if s.Key != "" {
			out[s.Key] = s
		}
	}
	return out
}

// Config returns the settings CONFIG shows (aliases included), sorted by
// name as CONFIG GET lists them.
func Config(table []Setting) []Setting {
	var out []Setting
	for _, s := range table {
		if s.Redis != "" {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b Setting) int { return strings.Compare(a.Redis, b.Redis) })
	return out
}

// Flags maps the command-line flags to their keys.
func Flags(table []Setting) map[string]Setting {
	out := map[string]Setting{}
	for _, s := range table {
		if s.Flag != "" {
			out[s.Flag] = s
		}
	}
	return out
}

// Defaults returns the defaults of the settings with a file key, in the
// form koanf loads (a nested key per dot): strings, bools, int64s,
// durations, lists and maps.
func Defaults(table []Setting) map[string]any {
	out := map[string]any{}
	for _, s := range table {
		if s.Key == "" {
			continue
		}
		v, err := s.Parse(s.Default)
		if err != nil {
			panic(fmt.Sprintf("settings: %s: default %q: %v", s.Key, s.Default, err)) // the table is wrong
		}
		out[s.Key] = v
	}
	return out
}

// Parse turns v, as the file or the environment writes it, into the
// setting's value ("" is the zero value).
func (s Setting) Parse(v string) (any, error) {
	switch s.Type {
	case Bool:
		if v == "" {
			return false, nil
		}
		return strconv.ParseBool(v)
	case Int, Mem, MemPct:
		if v == "" {
			return int64(0), nil
		}
		return strconv.ParseInt(v, 10, 64)
	case Duration:
		if v == "" {
			return time.Duration(0), nil
		}
		return time.ParseDuration(v)
	case List:
		if v == "" {
			return []string{}, nil
		}
		return strings.Split(v, ","), nil
	case Map:
		return map[string]string{}, nil
	}
	return v, nil
}

// Check reports what is wrong with v, the setting's value read from the
// file (an int64, a time.Duration, a string), against its bounds and
// values: "" when nothing is.
func (s Setting) Check(v any) string {
	switch x := v.(type) {
	case int64:
		if s.Bounded && (x < s.Min || x > s.Max) {
			return s.bounds(strconv.FormatInt(s.Min, 10), strconv.FormatInt(s.Max, 10)) + ", got " + strconv.FormatInt(x, 10)
		}
	case time.Duration:
		if s.Bounded && (int64(x) < s.Min || int64(x) > s.Max) {
			return s.bounds(time.Duration(s.Min).String(), time.Duration(s.Max).String()) + ", got " + x.String()
		}
	case string:
		if s.Type == Enum && !slices.Contains(s.Values, x) {
			return "must be " + oneOf(s.Values) + ", got " + strconv.Quote(x)
		}
	}
	return ""
}

// bounds says what Min..Max allow.
func (s Setting) bounds(lo, hi string) string {
	hint := ""
	if s.Hint != "" {
		hint = " (" + s.Hint + ")"
	}
	switch {
	case s.Max != math.MaxInt64:
		return "must be " + lo + ".." + hi + hint
	case s.Min == 0:
		return "must not be negative" + hint
	case s.Min == 1:
		return "must be positive" + hint
	}
	return "must be at least " + lo + hint
}

// oneOf writes values as "a, b or c".
func oneOf(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// ConfigValue turns a file value (as Flatten writes it) into CONFIG's
// form: yes/no for a bool, whole seconds for a duration.
func (s Setting) ConfigValue(file string) string {
	switch s.Type {
	case Bool:
		if file == "true" {
			return "yes"
		}
		return "no"
	case Duration:
		d, _ := time.ParseDuration(file)
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return file
}

// FileValue turns a CONFIG value into the file's form, the inverse of
// ConfigValue (CONFIG REWRITE), with its YAML tag.
func (s Setting) FileValue(config string) (value, tag string) {
	switch s.Type {
	case Bool:
		return strconv.FormatBool(config == "yes"), "!!bool"
	case Int, Mem, MemPct:
		if _, err := strconv.ParseInt(config, 10, 64); err == nil {
			return config, "!!int"
		}
	case Duration:
		if n, err := strconv.ParseInt(config, 10, 64); err == nil {
			return (time.Duration(n) * time.Second).String(), "!!str"
		}
	}
	return config, "!!str"
}
