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
		{Name: "georadius", Arity: -6, Flags: command.Write, KeysFunc: georadiusKeys, Class: command.NotifyZSet,
			KeyEvent: storeEvent("georadiusstore"), Parse: searchParser("georadius", byCoords, false, false)},
		{Name: "georadiusbymember", Arity: -5, Flags: command.Write, KeysFunc: georadiusKeys, Class: command.NotifyZSet,
			KeyEvent: storeEvent("georadiusstore"), Parse: searchParser("georadiusbymember", byMember, false, false)},
		{Name: "georadius_ro", Arity: -6, Flags: command.ReadOnly, Keys: first, Parse: searchParser("georadius_ro", byCoords, true, false)},
		{Name: "georadiusbymember_ro", Arity: -5, Flags: command.ReadOnly, Keys: first, Parse: searchParser("georadiusbymember_ro", byMember, true, false)},
		{Name: "geosearch", Arity: -7, Flags: command.ReadOnly, Keys: first, Parse: searchParser("geosearch", generic, true, false)},
		{Name: "geosearchstore", Arity: -8, Flags: command.Write, Keys: command.KeySpec{First: 1, Last: 2, Step: 1},
			KeyEvent: storeEvent("geosearchstore"), Parse: searchParser("geosearchstore", generic, false, true)},
	}
}

// storeEvent names a search's event on its destination, or nothing when
// an empty result deleted it (the generic "del" is added then).
func storeEvent(name string) func(int, bool) string {
	return func(_ int, gone bool) string {
		if gone {
			return ""
		}
		return name
	}
}
