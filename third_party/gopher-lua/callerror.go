package lua

import "fmt"

// callError is Lua 5.1's message for a call of lv, which is not a
// function: "attempt to call global 'f' (a nil value)", naming what the
// called register held as Lua's getobjname does (a local, global, field,
// method or upvalue), or "attempt to call a nil value" when no name is
// known. cf is the calling Lua frame (nil: none), reg the register
// called, relative to the frame's base, by the instruction before cf.Pc.
func callError(cf *callFrame, reg int, lv LValue) string {
	typ := lv.Type().String()
	if cf != nil && cf.Fn != nil && !cf.Fn.IsG && cf.Fn.Proto != nil {
		if kind, name := objName(cf.Fn.Proto, cf.Pc-1, reg); kind != "" {
			return fmt.Sprintf("attempt to call %s '%s' (a %s value)", kind, name, typ)
		}
	}
	return fmt.Sprintf("attempt to call a %s value", typ)
}

// objName names what register reg holds at instruction pc of p: the
// local it is, or how the last instruction before pc that wrote it got
// its value (a backward scan, where Lua 5.1 simulates the code; both
// name the usual calls alike).
func objName(p *FunctionProto, pc, reg int) (kind, name string) {
	if n := localName(p, reg, pc); n != "" {
		return "local", n
	}
	for i := pc - 1; i >= 0 && i < len(p.Code); i-- {
		inst := p.Code[i]
		op, a := opGetOpCode(inst), opGetArgA(inst)
		switch op {
		case OP_GETGLOBAL:
			if k := opGetArgBx(inst); a == reg && k < len(p.Constants) {
				return "global", p.Constants[k].String()
			}
		case OP_GETTABLE, OP_GETTABLEKS:
			if a == reg {
				return "field", keyName(p, opGetArgC(inst))
			}
		case OP_SELF:
			if a == reg {
				return "method", keyName(p, opGetArgC(inst))
			}
			if a+1 == reg {
				return "", ""
			}
		case OP_GETUPVAL:
			if a == reg {
				if b := opGetArgB(inst); b < len(p.DbgUpvalues) {
					return "upvalue", p.DbgUpvalues[b]
				}
				return "upvalue", "?"
			}
		case OP_MOVE, OP_MOVEN:
			if a == reg {
				if b := opGetArgB(inst); b < a {
					return objName(p, i, b)
				}
				return "", ""
			}
		case OP_LOADNIL:
			if a <= reg && reg <= opGetArgB(inst) {
				return "", ""
			}
		case OP_CALL, OP_TFORLOOP, OP_VARARG:
			if reg >= a {
				return "", "" // a result of a call: no name
			}
		case OP_LOADK, OP_LOADBOOL, OP_NEWTABLE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW,
			OP_UNM, OP_NOT, OP_LEN, OP_CONCAT, OP_TESTSET, OP_CLOSURE, OP_FORLOOP, OP_FORPREP:
			if a == reg {
				return "", ""
			}
		}
	}
	return "", ""
}

// localName returns the name of the local variable held in register reg
// at pc, or "".
func localName(p *FunctionProto, reg, pc int) string {
	n := 0
	for _, l := range p.DbgLocals {
		if l.StartPc > pc {
			break
		}
		if pc < l.EndPc {
			if n == reg {
				return l.Name
			}
			n++
		}
	}
	return ""
}

// keyName is Lua 5.1's kname: operand c of p when it is a constant
// string, else "?".
func keyName(p *FunctionProto, c int) string {
	if opIsK(c) {
		if k := opIndexK(c); k < len(p.Constants) {
			if s, ok := p.Constants[k].(LString); ok {
				return string(s)
			}
		}
	}
	return "?"
}
