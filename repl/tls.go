package repl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	stdnet "net"
	"os"
	"time"
)

// dial connects to the master: over TLS when tls-replication is yes, as
// Redis does, with this node's client certificate (tls-client-cert-file,
// else tls-cert-file) and the master's chain checked against
// tls-ca-cert-file (the system's roots without one). As Redis (OpenSSL
// without a host check), the master's name is not checked: replicas
// name their master by address.
func (r *Replica) dial(ctx context.Context, addr string) (stdnet.Conn, error) {
	d := &stdnet.Dialer{Timeout: 10 * time.Second}
	if r.config("tls-replication") != "yes" {
		return d.DialContext(ctx, "tcp", addr)
	}
	cfg, err := r.tlsConfig()
	if err != nil {
		return nil, fmt.Errorf("tls-replication: %w", err)
	}
	return (&tls.Dialer{NetDialer: d, Config: cfg}).DialContext(ctx, "tcp", addr)
}

func (r *Replica) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	certFile, keyFile := r.config("tls-client-cert-file"), r.config("tls-client-key-file")
	if certFile == "" {
		certFile, keyFile = r.config("tls-cert-file"), r.config("tls-key-file")
	}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	if ca := r.config("tls-ca-cert-file"); ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, err
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls-ca-cert-file %s: no certificate", ca)
		}
	}
	// The chain is checked here, the name is not (see dial).
	cfg.InsecureSkipVerify = true
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("the master sent no certificate")
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
		return err
	}
	return cfg, nil
}
