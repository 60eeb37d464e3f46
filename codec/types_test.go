package codec

import "testing"

// TestTypeTable checks every stored type is described whole: a name that
// ParseType maps back, encodings, meta fields for collections, and a
// meta that round-trips through AppendMeta and DecodeMeta with the
// length MetaLen says.
func TestTypeTable(t *testing.T) {
	if len(Types()) != 12 {
		t.Fatalf("Types() = %v", Types())
	}
	for _, ty := range Types() {
		info := ty.Info()
		if info.Name == "" || info.Name == "none" || ParseType(info.Name) != ty || ty.String() != info.Name {
			t.Errorf("type %d: name %q does not round-trip", ty, info.Name)
		}
		if len(info.Encodings) == 0 {
			t.Errorf("type %s: no encodings", ty)
		}
		if info.Collection != (info.MetaFields > 0) {
			t.Errorf("type %s: collection %v with %d meta fields", ty, info.Collection, info.MetaFields)
		}
		m := Meta{Type: ty, Version: 7, ExpireAt: 9}
		var payload []byte
		if ty == TypeString {
			payload = []byte("v")
		}
		enc := AppendMeta(nil, m, payload)
		if len(enc) != MetaLen(m, payload) {
			t.Errorf("type %s: encoded %d bytes, MetaLen %d", ty, len(enc), MetaLen(m, payload))
		}
		got, p, err := DecodeMeta(enc)
		if err != nil || got.Type != ty || got.Version != 7 || string(p) != string(payload) {
			t.Errorf("type %s: decoded %+v %q %v", ty, got, p, err)
		}
	}
	if Type(15).String() != "none" || Type(15).IsCollection() || ParseType("frob") != TypeNone {
		t.Error("an unknown type is not described as none")
	}
}
