package geo

import "github.com/rekv/rekv/actors/command"

// Commands returns the geo commands' registration table.
func Commands() []*command.Spec {
	first := command.KeySpec{First: 1, Last: 1, Step: 1}
	return []*command.Spec{
		{Name: "geoadd", Arity: -5, Flags: command.Write, Keys: first, Event: "zadd", Parse: parseGeoAdd},
		{Name: "geopos", Arity: -2, Flags: command.ReadOnly, Keys: first, Parse: parseGeoPos},
		{Name: "geodist", Arity: -4, Flags: command.ReadOnly, Keys: first, Parse: parseGeoDist},
		{Name: "geohash", Arity: -2, Flags: command.ReadOnly, Keys: first, Parse: parseGeoHash},
	}
}
