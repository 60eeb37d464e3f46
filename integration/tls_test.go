package integration

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	stdnet "net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rekv/rekv/conf"
)

// testCA is a throwaway certificate authority for TLS tests.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns a PEM certificate and key signed by the CA: a server's
// for 127.0.0.1, or a client's.
func (ca *testCA) issue(t *testing.T, serial int64, server bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "rekv test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []stdnet.IP{stdnet.ParseIP("127.0.0.1")}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTLS: a TLS port beside the plaintext one, feeding the same command
// path: mutual TLS with go-redis (commands, Pub/Sub between a TLS and a
// plaintext client, CLIENT LIST with the real address), a client with a
// certificate from another CA or with none refused, redis-cli --tls, and
// CONFIG SET tls-cert-file reloading the certificate for new connections.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, other := newTestCA(t, "rekv test CA"), newTestCA(t, "someone else")
	srvCert, srvKey := ca.issue(t, 10, true)
	cliCert, cliKey := ca.issue(t, 11, false)
	badCert, badKey := other.issue(t, 12, false)
	caFile := writeFile(t, dir, "ca.pem", ca.pem)
	files := map[string]string{}
	for name, data := range map[string][]byte{"srv.pem": srvCert, "srv.key": srvKey, "cli.pem": cliCert, "cli.key": cliKey} {
		files[name] = writeFile(t, dir, name, data)
	}
	n := startNode(t, "badger", func(c *conf.Config) {
		c.Server.TLSPort = freePort(t)
		c.Server.TLSCertFile, c.Server.TLSKeyFile, c.Server.TLSCACertFile = files["srv.pem"], files["srv.key"], caFile
	})
	tlsAddr := n.TLSAddr()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca.pem)
	pair := func(c, k []byte) tls.Certificate {
		p, err := tls.X509KeyPair(c, k)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tlsClient := func(certs ...tls.Certificate) *redis.Client {
		c := redis.NewClient(&redis.Options{Addr: tlsAddr, MaxRetries: -1, DialTimeout: 5 * time.Second,
			TLSConfig: &tls.Config{RootCAs: pool, Certificates: certs, MinVersion: tls.VersionTLS12}})
		t.Cleanup(func() { c.Close() })
		return c
	}
	ctx := context.Background()
	c := tlsClient(pair(cliCert, cliKey))
	must(t, c.Set(ctx, "k", "over tls", 0).Err())
	plain := newClient(t, n.Addr(), 2)
	if v := plain.Get(ctx, "k").Val(); v != "over tls" {
		t.Fatalf("plaintext GET of a TLS write: %q", v)
	}
	big := strings.Repeat("z", 3<<20)
	must(t, c.Set(ctx, "big", big, 0).Err())
	if v := c.Get(ctx, "big").Val(); v != big {
		t.Fatalf("3 MiB value over TLS: %d bytes back", len(v))
	}
	sub := c.Subscribe(ctx, "news")
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	if got := plain.Publish(ctx, "news", "hello").Val(); got != 1 {
		t.Fatalf("PUBLISH reached %d subscribers", got)
	}
	msg, err := sub.ReceiveMessage(ctx)
	if err != nil || msg.Payload != "hello" {
		t.Fatalf("TLS subscriber: %v %v", msg, err)
	}
	list := plain.ClientList(ctx).Val()
	if !strings.Contains(list, "laddr="+tlsAddr) {
		t.Fatalf("CLIENT LIST lacks the TLS client's real addresses (laddr=%s):\n%s", tlsAddr, list)
	}

	if err := tlsClient(pair(badCert, badKey)).Ping(ctx).Err(); err == nil {
		t.Fatal("a client certificate from another CA was accepted")
	}
	if err := tlsClient().Ping(ctx).Err(); err == nil {
		t.Fatal("a client without a certificate was accepted (tls-auth-clients yes)")
	}

	if _, err := exec.LookPath("redis-cli"); err == nil {
		host, port, _ := stdnet.SplitHostPort(tlsAddr)
		out, err := exec.Command("redis-cli", "-h", host, "-p", port, "--tls", "--cacert", caFile,
			"--cert", files["cli.pem"], "--key", files["cli.key"], "GET", "k").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "over tls" {
			t.Fatalf("redis-cli --tls: %v %q", err, out)
		}
	}

	// Reload: a new server certificate for new connections.
	srv2Cert, srv2Key := ca.issue(t, 20, true)
	cert2, key2 := writeFile(t, dir, "srv2.pem", srv2Cert), writeFile(t, dir, "srv2.key", srv2Key)
	if err := plain.Do(ctx, "CONFIG", "SET", "tls-cert-file", cert2, "tls-key-file", key2).Err(); err != nil {
		t.Fatalf("CONFIG SET tls-cert-file: %v", err)
	}
	conn, err := tls.Dial("tcp", tlsAddr, &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{pair(cliCert, cliKey)}})
	if err != nil {
		t.Fatal(err)
	}
	serial := conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
	conn.Close()
	if serial != 20 {
		t.Fatalf("after CONFIG SET the server still shows certificate %d", serial)
	}
	err = plain.Do(ctx, "CONFIG", "SET", "tls-cert-file", filepath.Join(dir, "missing.pem")).Err()
	if err == nil || !strings.Contains(err.Error(), "Unable to update TLS configuration") {
		t.Fatalf("CONFIG SET of a missing certificate: %v", err)
	}
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("an established TLS connection after the reloads: %v", err)
	}

	// tls-ciphers (TLS 1.2, OpenSSL names) chooses the suites offered.
	dialSuite := func(suite uint16) error {
		conn, err := tls.Dial("tcp", tlsAddr, &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{pair(cliCert, cliKey)},
			MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{suite}})
		if err == nil {
			conn.Close()
		}
		return err
	}
	gcm128, chacha := tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305
	if err := dialSuite(chacha); err != nil {
		t.Fatalf("ChaCha20 with Go's default suites: %v", err)
	}
	must(t, plain.Do(ctx, "CONFIG", "SET", "tls-ciphers", "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:!aNULL").Err())
	if err := dialSuite(chacha); err == nil {
		t.Fatal("a suite left out of tls-ciphers was still negotiated")
	}
	if err := dialSuite(gcm128); err != nil {
		t.Fatalf("a suite named in tls-ciphers: %v", err)
	}
	for _, bad := range [][2]string{{"tls-ciphers", "NOT-A-CIPHER"}, {"tls-ciphersuites", "TLS_AES_128_GCM_SHA256"}} {
		if err := plain.Do(ctx, "CONFIG", "SET", bad[0], bad[1]).Err(); err == nil ||
			!strings.Contains(err.Error(), "Unable to update TLS configuration") {
			t.Fatalf("CONFIG SET %s %s (cannot be applied): %v", bad[0], bad[1], err)
		}
	}
	must(t, plain.Do(ctx, "CONFIG", "SET", "tls-ciphers", "DEFAULT",
		"tls-ciphersuites", "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256").Err())
	if err := dialSuite(chacha); err != nil {
		t.Fatalf("ChaCha20 after tls-ciphers DEFAULT: %v", err)
	}
}
