package net

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// TLS. gnet has no TLS, so TLS connections take their own accept path and
// then join the plaintext one: each accepted connection is handshaken by
// Go's crypto/tls, a socket pair is made, one end is enrolled into gnet's
// event loops (with the TLS client's real addresses as its context) and
// two goroutines copy bytes between the TLS connection and the other end.
// From there a TLS client is an ordinary client — the same parser,
// command path, reply order, limits, Pub/Sub, CLIENT LIST (with its real
// address) and protected mode — at the cost of one local copy each way.
//
// Options.TLS configures it as Redis's tls-* parameters do: tls-port,
// tls-cert-file, tls-key-file, tls-ca-cert-file (client certificates are
// verified against it), tls-auth-clients (yes: a client certificate is
// required; optional: checked if given; no), tls-protocols ("TLSv1.2
// TLSv1.3"). CONFIG SET of the files or of tls-auth-clients / tls-protocols
// reloads them: new connections use the new certificates, established ones
// keep theirs. tls-ciphers (TLS 1.2, OpenSSL names) selects Go's suites by
// name, see parseCiphers; tls-ciphersuites (TLS 1.3) can only name all
// three of TLS 1.3's suites, which Go always offers (a subset is refused,
// not silently ignored).

// TLSOptions are the tls-* settings.
type TLSOptions struct {
	Port        int // 0: no TLS
	CertFile    string
	KeyFile     string
	CAFile      string
	AuthClients string // yes | optional | no
	Protocols   string // "TLSv1.2 TLSv1.3"; empty: both
	Ciphers     string // tls-ciphers, OpenSSL's list syntax; empty: Go's defaults
	Suites13    string // tls-ciphersuites; empty or all three TLS 1.3 suites
}

// tlsOrigin is the gnet context of an enrolled TLS connection: its real
// addresses.
type tlsOrigin struct{ remote, local string }

type tlsFront struct {
	s    *Server
	ln   stdnet.Listener
	cfg  atomic.Pointer[tls.Config]
	wg   sync.WaitGroup
	mu   sync.Mutex
	open map[stdnet.Conn]struct{}
}

// buildTLSConfig loads the certificates and settings of o.
func buildTLSConfig(o TLSOptions) (*tls.Config, error) {
	if o.CertFile == "" || o.KeyFile == "" {
		return nil, errors.New("tls-cert-file and tls-key-file are required")
	}
	cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("load tls-cert-file / tls-key-file: %w", err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("load tls-ca-cert-file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls-ca-cert-file %s: no certificate", o.CAFile)
		}
		cfg.ClientCAs = pool
	}
	switch strings.ToLower(o.AuthClients) {
	case "", "yes":
		if cfg.ClientCAs == nil {
			return nil, errors.New("tls-auth-clients yes needs tls-ca-cert-file")
		}
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	case "optional":
		cfg.ClientAuth = tls.VerifyClientCertIfGiven
	case "no":
		cfg.ClientAuth = tls.NoClientCert
	default:
		return nil, fmt.Errorf("tls-auth-clients: %q is not yes, optional or no", o.AuthClients)
	}
	if o.Ciphers != "" {
		ids, err := parseCiphers(o.Ciphers)
		if err != nil {
			return nil, err
		}
		cfg.CipherSuites = ids
	}
	if err := checkSuites13(o.Suites13); err != nil {
		return nil, err
	}
	if p := strings.Fields(o.Protocols); len(p) > 0 {
		versions := map[string]uint16{"tlsv1.2": tls.VersionTLS12, "tlsv1.3": tls.VersionTLS13}
		cfg.MinVersion, cfg.MaxVersion = 0, 0
		for _, name := range p {
			v, ok := versions[strings.ToLower(name)]
			if !ok {
				return nil, fmt.Errorf("tls-protocols: %q is not TLSv1.2 or TLSv1.3", name)
			}
			if cfg.MinVersion == 0 || v < cfg.MinVersion {
				cfg.MinVersion = v
			}
			if v > cfg.MaxVersion {
				cfg.MaxVersion = v
			}
		}
	}
	return cfg, nil
}

// openSSLSuites maps OpenSSL's names of the TLS 1.2 suites Go implements
// to Go's names.
var openSSLSuites = map[string]string{
	"ECDHE-ECDSA-AES128-GCM-SHA256": "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-RSA-AES128-GCM-SHA256":   "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-ECDSA-AES256-GCM-SHA384": "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-RSA-AES256-GCM-SHA384":   "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-ECDSA-CHACHA20-POLY1305": "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
	"ECDHE-RSA-CHACHA20-POLY1305":   "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
	"ECDHE-ECDSA-AES128-SHA":        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
	"ECDHE-RSA-AES128-SHA":          "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
	"ECDHE-ECDSA-AES256-SHA":        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
	"ECDHE-RSA-AES256-SHA":          "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
	"AES128-GCM-SHA256":             "TLS_RSA_WITH_AES_128_GCM_SHA256",
	"AES256-GCM-SHA384":             "TLS_RSA_WITH_AES_256_GCM_SHA384",
	"AES128-SHA":                    "TLS_RSA_WITH_AES_128_CBC_SHA",
	"AES256-SHA":                    "TLS_RSA_WITH_AES_256_CBC_SHA",
}

// parseCiphers reads tls-ciphers, OpenSSL's cipher list (entries split by
// ':', ',' or spaces) as far as Go can honour it: suite names select
// those suites in that order; DEFAULT, HIGH, ALL and the like start from
// Go's secure defaults; "!name" or "-name" removes a suite; exclusions of
// classes Go never offers (!aNULL, !MD5, !RC4, !3DES...) change nothing.
// Anything else is an error: a list rekv cannot apply is refused, not
// silently ignored.
func parseCiphers(list string) ([]uint16, error) {
	byName := map[string]uint16{}
	for _, c := range tls.CipherSuites() {
		byName[c.Name] = c.ID
	}
	for _, c := range tls.InsecureCipherSuites() {
		byName[c.Name] = c.ID
	}
	idOf := func(name string) (uint16, bool) {
		goName, ok := openSSLSuites[strings.ToUpper(name)]
		if !ok {
			goName = strings.ToUpper(name) // Go's own names are accepted too
		}
		id, ok := byName[goName]
		return id, ok
	}
	var ids []uint16
	removed := map[uint16]bool{}
	for _, tok := range splitSuites(list) {
		up := strings.ToUpper(strings.TrimPrefix(tok, "+"))
		switch {
		case up == "DEFAULT" || up == "HIGH" || up == "ALL" || up == "SECURE" || up == "ECDHE" || up == "EECDH" ||
			up == "AESGCM" || up == "CHACHA20" || up == "@STRENGTH" || strings.HasPrefix(up, "@SECLEVEL="):
			for _, c := range tls.CipherSuites() {
				if !slices.Contains(ids, c.ID) && len(c.SupportedVersions) > 0 && c.SupportedVersions[0] < tls.VersionTLS13 {
					ids = append(ids, c.ID)
				}
			}
		case strings.HasPrefix(up, "!") || strings.HasPrefix(up, "-"):
			name := up[1:]
			if id, ok := idOf(name); ok {
				removed[id] = true
				continue
			}
			switch name {
			case "ANULL", "ENULL", "NULL", "EXPORT", "EXP", "LOW", "MEDIUM", "DES", "3DES", "RC4", "MD5", "PSK", "SRP",
				"DSS", "ADH", "AECDH", "CAMELLIA", "SEED", "IDEA", "KRB5", "DH", "EDH", "DHE", "KDHE", "SSLV3":
				// Go offers none of these
			default:
				return nil, fmt.Errorf("tls-ciphers: cannot exclude %q (not a suite or class rekv knows)", tok)
			}
		default:
			id, ok := idOf(up)
			if !ok {
				return nil, fmt.Errorf("tls-ciphers: %q is not a TLS 1.2 suite Go implements (OpenSSL names such as "+
					"ECDHE-RSA-AES128-GCM-SHA256, or DEFAULT)", tok)
			}
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	ids = slices.DeleteFunc(ids, func(id uint16) bool { return removed[id] })
	if len(ids) == 0 {
		return nil, fmt.Errorf("tls-ciphers: %q leaves no suite", list)
	}
	return ids, nil
}

// splitSuites splits a cipher list at ':', ',' or spaces, as OpenSSL does.
func splitSuites(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return r == ':' || r == ',' || r == ' ' })
}

// checkSuites13 accepts a tls-ciphersuites value Go can honour: empty, or
// naming all three TLS 1.3 suites (Go always offers all of them).
func checkSuites13(list string) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	all := []string{"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}
	seen := map[string]bool{}
	for _, tok := range splitSuites(list) {
		name := strings.ToUpper(tok)
		if !slices.Contains(all, name) {
			return fmt.Errorf("tls-ciphersuites: %q is not a TLS 1.3 suite (%s)", tok, strings.Join(all, ", "))
		}
		seen[name] = true
	}
	if len(seen) < len(all) {
		return fmt.Errorf("tls-ciphersuites: Go's TLS 1.3 always offers %s; a subset cannot be enforced "+
			"(use tls-protocols TLSv1.2 with tls-ciphers to choose suites)", strings.Join(all, ", "))
	}
	return nil
}

// startTLS listens on the TLS port (the plaintext engine must be up).
func (s *Server) startTLS() error {
	o := s.opts.TLS
	cfg, err := buildTLSConfig(o)
	if err != nil {
		return fmt.Errorf("tls: %w", err)
	}
	host, _, err := stdnet.SplitHostPort(s.opts.Addr)
	if err != nil {
		return err
	}
	ln, err := stdnet.Listen("tcp", stdnet.JoinHostPort(host, fmt.Sprint(o.Port)))
	if err != nil {
		return fmt.Errorf("tls: listen: %w", err)
	}
	f := &tlsFront{s: s, ln: ln, open: map[stdnet.Conn]struct{}{}}
	f.cfg.Store(cfg)
	s.tls = f
	f.wg.Add(1)
	go f.accept()
	s.log.Info("TLS listening", "addr", ln.Addr().String())
	return nil
}

// reloadTLS rebuilds the listener's configuration when pairs, given at
// start (server.redis), set tls-* parameters.
func (s *Server) reloadTLS(pairs [][2]string) error {
	if s.tls == nil || !slices.ContainsFunc(pairs, func(kv [2]string) bool { return isTLSOption(strings.ToLower(kv[0])) }) {
		return nil
	}
	s.tlsMu.Lock()
	defer s.tlsMu.Unlock()
	cfg, err := buildTLSConfig(s.opts.TLS)
	if err != nil {
		return fmt.Errorf("tls: %w", err)
	}
	s.tls.cfg.Store(cfg)
	return nil
}

// TLSAddr returns the TLS listener's address ("" without TLS).
func (s *Server) TLSAddr() string {
	if s.tls == nil {
		return ""
	}
	return s.tls.ln.Addr().String()
}

// tlsField returns the field of o that the tls-* parameter name sets, nil
// for any other name: the one list of the TLS parameters.
func tlsField(o *TLSOptions, name string) *string {
	switch name {
	case "tls-cert-file":
		return &o.CertFile
	case "tls-key-file":
		return &o.KeyFile
	case "tls-ca-cert-file":
		return &o.CAFile
	case "tls-auth-clients":
		return &o.AuthClients
	case "tls-protocols":
		return &o.Protocols
	case "tls-ciphers":
		return &o.Ciphers
	case "tls-ciphersuites":
		return &o.Suites13
	}
	return nil
}

func isTLSOption(name string) bool { return tlsField(&TLSOptions{}, name) != nil }

// setTLSOption sets one tls-* parameter in o.
func setTLSOption(o *TLSOptions, name, value string) {
	if f := tlsField(o, name); f != nil {
		*f = value
	}
}

func (f *tlsFront) accept() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			if errors.Is(err, stdnet.ErrClosed) {
				return
			}
			f.s.log.Warn("TLS accept", "err", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		f.wg.Add(1)
		go f.serve(c)
	}
}

func (f *tlsFront) track(c stdnet.Conn, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if on {
		f.open[c] = struct{}{}
	} else {
		delete(f.open, c)
	}
}

// serve handshakes one TLS connection and joins it to the event loops.
func (f *tlsFront) serve(raw stdnet.Conn) {
	defer f.wg.Done()
	f.track(raw, true)
	defer f.track(raw, false)
	tc := tls.Server(raw, f.cfg.Load())
	defer tc.Close()
	_ = tc.SetDeadline(time.Now().Add(10 * time.Second))
	if err := tc.Handshake(); err != nil {
		f.s.log.Debug("TLS handshake failed", "addr", raw.RemoteAddr().String(), "err", err)
		return
	}
	_ = tc.SetDeadline(time.Time{})
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		f.s.log.Warn("TLS: socket pair", "err", err)
		return
	}
	inner, err1 := fileConn(fds[0])
	outer, err2 := fileConn(fds[1])
	if err := errors.Join(err1, err2); err != nil {
		f.s.log.Warn("TLS: socket pair", "err", err)
		return
	}
	defer outer.Close()
	origin := &tlsOrigin{remote: raw.RemoteAddr().String(), local: raw.LocalAddr().String()}
	ctx := gnet.NewContext(gnet.NewNetConnContext(context.Background(), inner), origin)
	ch, err := f.s.eng.Register(ctx)
	if err == nil {
		if res := <-ch; res.Err != nil {
			err = res.Err
		}
	}
	inner.Close() // gnet holds its own copy of the descriptor
	if err != nil {
		f.s.log.Warn("TLS: enrol the connection", "err", err)
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(outer, tc) // client -> server
		_ = outer.(*stdnet.UnixConn).CloseWrite()
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(tc, outer) // server -> client
		_ = tc.CloseWrite()
		done <- struct{}{}
	}()
	<-done // either side ended: end both
	_ = tc.Close()
	_ = outer.Close()
	<-done
}

// fileConn returns a net.Conn on descriptor fd, which it then owns (a TLS
// socket pair's end, a connection handed off by SYNC).
func fileConn(fd int) (stdnet.Conn, error) {
	file := os.NewFile(uintptr(fd), "conn")
	defer file.Close()
	return stdnet.FileConn(file)
}

// stop closes the listener and every TLS connection, then waits.
func (f *tlsFront) stop() {
	_ = f.ln.Close()
	f.mu.Lock()
	for c := range f.open {
		_ = c.Close()
	}
	f.mu.Unlock()
	f.wg.Wait()
}
