package rjson

// Kind is a JSON value's type.
type Kind uint8

// The kinds. Numbers are Int (an int64), Uint (a uint64 above
// MaxInt64) or Float (had a decimal point or exponent, or was out of
// the integers' range), as RedisJSON keeps them: 3 and 3.0 differ.
const (
	Null Kind = iota
	Bool
	Int
	Uint
	Float
	String
	Array
	Object
)

// Value is one JSON value. Object members keep their insertion order;
// removing one moves the last member into its place (RedisJSON's
// objects do the same).
type Value struct {
	Kind Kind
	B    bool
	I    int64
	U    uint64
	F    float64
	S    string
	A    []*Value
	O    *Obj
}

// Obj is an object's members in order.
type Obj struct {
	Keys []string
	Vals []*Value
}

// Get returns the member named k, or nil.
func (o *Obj) Get(k string) *Value {
	if i := o.Index(k); i >= 0 {
		return o.Vals[i]
	}
	return nil
}

// Index returns the position of member k, or -1.
func (o *Obj) Index(k string) int {
	for i, key := range o.Keys {
		if key == k {
			return i
		}
	}
	return -1
}

// Set replaces member k's value in place, or appends the member.
func (o *Obj) Set(k string, v *Value) {
	if i := o.Index(k); i >= 0 {
		o.Vals[i] = v
		return
	}
	o.Keys, o.Vals = append(o.Keys, k), append(o.Vals, v)
}

// Remove deletes member k (the last member takes its place) and
// reports whether it was there.
func (o *Obj) Remove(k string) bool {
	i := o.Index(k)
	if i < 0 {
		return false
	}
	last := len(o.Keys) - 1
	o.Keys[i], o.Vals[i] = o.Keys[last], o.Vals[last]
	o.Keys, o.Vals = o.Keys[:last], o.Vals[:last]
	return true
}

// Len is the number of members.
func (o *Obj) Len() int { return len(o.Keys) }

// Constructors.
func NewNull() *Value            { return &Value{Kind: Null} }
func NewBool(b bool) *Value      { return &Value{Kind: Bool, B: b} }
func NewInt(i int64) *Value      { return &Value{Kind: Int, I: i} }
func NewFloat(f float64) *Value  { return &Value{Kind: Float, F: f} }
func NewString(s string) *Value  { return &Value{Kind: String, S: s} }
func NewArray(a []*Value) *Value { return &Value{Kind: Array, A: a} }
func NewObject() *Value          { return &Value{Kind: Object, O: &Obj{}} }

// IsNumber reports whether v is a number.
func (v *Value) IsNumber() bool { return v.Kind == Int || v.Kind == Uint || v.Kind == Float }

// Float64 is a number's value as a float64.
func (v *Value) Float64() float64 {
	switch v.Kind {
	case Int:
		return float64(v.I)
	case Uint:
		return float64(v.U)
	}
	return v.F
}

// TypeName is JSON.TYPE's name for v's type.
func (v *Value) TypeName() string {
	switch v.Kind {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Int, Uint:
		return "integer"
	case Float:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	}
	return "object"
}

// Clone returns a deep copy of v.
func (v *Value) Clone() *Value {
	c := *v
	switch v.Kind {
	case Array:
		c.A = make([]*Value, len(v.A))
		for i, e := range v.A {
			c.A[i] = e.Clone()
		}
	case Object:
		c.O = &Obj{Keys: append([]string(nil), v.O.Keys...), Vals: make([]*Value, len(v.O.Vals))}
		for i, e := range v.O.Vals {
			c.O.Vals[i] = e.Clone()
		}
	}
	return &c
}

// Equal reports whether a and b are the same JSON value, numbers of
// the same kind only (JSON.ARRINDEX: 3 does not match 3.0), objects
// whatever their members' order.
func Equal(a, b *Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.B == b.B
	case Int:
		return a.I == b.I
	case Uint:
		return a.U == b.U
	case Float:
		return a.F == b.F
	case String:
		return a.S == b.S
	case Array:
		if len(a.A) != len(b.A) {
			return false
		}
		for i := range a.A {
			if !Equal(a.A[i], b.A[i]) {
				return false
			}
		}
		return true
	}
	if a.O.Len() != b.O.Len() {
		return false
	}
	for i, k := range a.O.Keys {
		bv := b.O.Get(k)
		if bv == nil || !Equal(a.O.Vals[i], bv) {
			return false
		}
	}
	return true
}
