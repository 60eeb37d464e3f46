package net

import (
	"crypto/tls"
	"slices"
	"strings"
	"testing"
)

func TestParseCiphers(t *testing.T) {
	var defaults []uint16
	for _, c := range tls.CipherSuites() {
		if c.SupportedVersions[0] < tls.VersionTLS13 {
			defaults = append(defaults, c.ID)
		}
	}
	without := func(ids []uint16, drop uint16) []uint16 {
		return slices.DeleteFunc(slices.Clone(ids), func(id uint16) bool { return id == drop })
	}
	for _, tc := range []struct {
		list string
		want []uint16
		err  string
	}{
		{list: "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256",
			want: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}},
		{list: "ecdhe-rsa-aes128-gcm-sha256, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
			want: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}},
		{list: "DEFAULT", want: defaults},
		{list: "HIGH:!aNULL:!MD5:!3DES", want: defaults},
		{list: "DEFAULT:!ECDHE-RSA-CHACHA20-POLY1305", want: without(defaults, tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305)},
		{list: "AES128-SHA:-AES128-SHA", err: "leaves no suite"},
		{list: "RC4-SHA", err: "not a TLS 1.2 suite"},
		{list: "DEFAULT:!FOO", err: "cannot exclude"},
	} {
		got, err := parseCiphers(tc.list)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.list, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v %v, want %v", tc.list, got, err, tc.want)
		}
	}
	for list, ok := range map[string]bool{
		"": true, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256": true,
		"TLS_AES_256_GCM_SHA384": false, "TLS_FOO": false,
	} {
		if err := checkSuites13(list); (err == nil) != ok {
			t.Errorf("tls-ciphersuites %q: %v", list, err)
		}
	}
}
