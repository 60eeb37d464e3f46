package command

import "testing"

func TestLongDouble(t *testing.T) {
	sum := func(vals ...string) string {
		acc := ZeroLongDouble()
		for _, v := range vals {
			x, ok := ParseLongDouble([]byte(v))
			if !ok {
				return "invalid " + v
			}
			if acc, ok = acc.Add(x); !ok {
				return "overflow"
			}
			acc, _ = ParseLongDouble(acc.Format()) // Redis stores the text
		}
		return string(acc.Format())
	}
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"10.5", "0.1"}, "10.6"},
		{[]string{"10.5", "0.1", "-5", "5.0e3"}, "5005.60000000000000009"},
		{[]string{"0x10"}, "16"},
		{[]string{".5", "5."}, "5.5"},
		{[]string{"-0"}, "0"},
		{[]string{"3", "1.5", "-4.5"}, "0"},
		{[]string{"1e2", "inf"}, "overflow"},
		{[]string{"nan"}, "invalid nan"},
		{[]string{"1_0"}, "invalid 1_0"},
		{[]string{" 1"}, "invalid  1"},
		{[]string{"1e5000"}, "invalid 1e5000"},
		{[]string{"1e-5000"}, "invalid 1e-5000"},
	}
	for _, c := range cases {
		if got := sum(c.in...); got != c.want {
			t.Errorf("%v = %q, want %q", c.in, got, c.want)
		}
	}
}
