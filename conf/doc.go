// Package conf loads rekv's configuration: defaults, then a YAML file
// (--config), then REKV_SECTION__KEY environment variables, then flags,
// each layer overriding the one before. Config is a plain struct; each
// subsystem is handed only its own section. Validate reports every problem
// at once, naming the offending key; unknown keys are problems too.
package conf
