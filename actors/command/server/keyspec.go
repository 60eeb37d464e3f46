package server

import (
	_ "embed"

	"github.com/rekv/rekv/actors/command/facts"
	"github.com/rekv/rekv/resp"
)

// write writes the key specification as Redis's COMMAND INFO does: a map
// of notes (when any), flags, begin_search and find_keys.
func writeKeySpec(w *resp.Writer, k facts.KeySpec) {
	n := 3
	if k.Notes != "" {
		n++
	}
	w.Map(n)
	if k.Notes != "" {
		w.BulkString("notes")
		w.BulkString(k.Notes)
	}
	w.BulkString("flags")
	w.Set(len(k.Flags))
	for _, f := range k.Flags {
		w.Simple(f)
	}
	bs := k.BeginSearch
	w.BulkString("begin_search")
	w.Map(2)
	w.BulkString("type")
	w.BulkString(bs.Type)
	w.BulkString("spec")
	switch bs.Type {
	case "index":
		w.Map(1)
		w.BulkString("index")
		w.Int(int64(bs.Spec.Index))
	case "keyword":
		w.Map(2)
		w.BulkString("keyword")
		w.BulkString(bs.Spec.Keyword)
		w.BulkString("startfrom")
		w.Int(int64(bs.Spec.StartFrom))
	default:
		w.Map(0)
	}
	fk := k.FindKeys
	w.BulkString("find_keys")
	w.Map(2)
	w.BulkString("type")
	w.BulkString(fk.Type)
	w.BulkString("spec")
	switch fk.Type {
	case "range":
		w.Map(3)
		w.BulkString("lastkey")
		w.Int(int64(fk.Spec.LastKey))
		w.BulkString("keystep")
		w.Int(int64(fk.Spec.KeyStep))
		w.BulkString("limit")
		w.Int(int64(fk.Spec.Limit))
	case "keynum":
		w.Map(3)
		w.BulkString("keynumidx")
		w.Int(int64(fk.Spec.KeyNumIdx))
		w.BulkString("firstkey")
		w.Int(int64(fk.Spec.FirstKey))
		w.BulkString("keystep")
		w.Int(int64(fk.Spec.KeyStep))
	default:
		w.Map(0)
	}
}
