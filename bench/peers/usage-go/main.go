// usage-go: POST /v1/cidr-usage (CONTRACT §12) in Go with the standard library alone
// (net/http, encoding/json, net/netip), as a performance peer for bench/'s usage-1000 workload.
// It is written for this project, in the style and with the server settings of the reference Go
// peer (shared/bench-peers/peer-go, which does not serve cidr-usage): one http.Server with a
// 10 s ReadHeaderTimeout and its error log discarded, the contract's per-response headers, the
// body read whole (at most 65536 bytes) and decoded with unknown fields refused, success bodies
// appended into a pooled buffer without reflection, GOMAXPROCS left at Go's default (every core
// the process may use).
//
// What it computes is bench/README.md's "The Go peer and cidr-usage": each list merged into sorted
// disjoint intervals, the free space as pool minus used, exact counts in 129-bit arithmetic,
// largestFree and freeBySize from the free intervals (never enumerating addresses). Its answer on
// bench/data/usage-1000.json is byte-identical to the service's (bench/peers/usage-go/check.sh).
//
// Build: cd bench/peers/usage-go && GOTOOLCHAIN=local GOPROXY=off GOFLAGS= go build -o /tmp/benchbin/usage-go .
// Run:   PORT=3103 HOST=127.0.0.1 /tmp/benchbin/usage-go
// Env:   PORT (default 3000), HOST (default 127.0.0.1), PEER_HEADERS=0 drops the per-response
// headers (X-Request-Id, X-Content-Type-Options, Access-Control-Allow-Origin).
package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"math/bits"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	maxBody     = 65536
	maxPool     = 1000
	maxUsed     = 10000
	maxLengths  = 64 // freeBySize holds at most this many prefix lengths
	family4Bits = 32
	family6Bits = 128
)

// --- 128-bit values, and 129-bit counts -----------------------------------

type u128 struct{ hi, lo uint64 }

func (a u128) less(b u128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

func (a u128) addOne() (u128, bool) {
	lo, c := bits.Add64(a.lo, 1, 0)
	hi, c2 := bits.Add64(a.hi, 0, c)
	return u128{hi, lo}, c2 != 0
}

func (a u128) subOne() u128 {
	lo, b := bits.Sub64(a.lo, 1, 0)
	hi, _ := bits.Sub64(a.hi, 0, b)
	return u128{hi, lo}
}

func (a u128) shr(n int) u128 {
	switch {
	case n == 0:
		return a
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{0, a.hi >> (n - 64)}
	}
	return u128{a.hi >> n, a.lo>>n | a.hi<<(64-n)}
}

// lowBits reports whether the n lowest bits of a are all ones (all, when ones) or all zeros.
func (a u128) lowBits(n int, ones bool) bool {
	var mask u128
	switch {
	case n <= 0:
		return true
	case n >= 128:
		mask = u128{^uint64(0), ^uint64(0)}
	case n >= 64:
		mask = u128{(uint64(1) << (n - 64)) - 1, ^uint64(0)}
	default:
		mask = u128{0, (uint64(1) << n) - 1}
	}
	got := u128{a.hi & mask.hi, a.lo & mask.lo}
	if ones {
		return got == mask
	}
	return got == u128{}
}

func (a u128) trailingZeros() int {
	if a.lo != 0 {
		return bits.TrailingZeros64(a.lo)
	}
	if a.hi != 0 {
		return 64 + bits.TrailingZeros64(a.hi)
	}
	return 128
}

func (a u128) bitLen() int {
	if a.hi != 0 {
		return 64 + bits.Len64(a.hi)
	}
	return bits.Len64(a.lo)
}

// count is an address count up to 2^128 (a whole IPv6 space): top is the 2^128 bit.
type count struct {
	top uint64
	v   u128
}

func (c count) add(d count) count {
	lo, k := bits.Add64(c.v.lo, d.v.lo, 0)
	hi, k2 := bits.Add64(c.v.hi, d.v.hi, k)
	return count{c.top + d.top + k2, u128{hi, lo}}
}

func (c count) sub(d count) count {
	lo, b := bits.Sub64(c.v.lo, d.v.lo, 0)
	hi, b2 := bits.Sub64(c.v.hi, d.v.hi, b)
	return count{c.top - d.top - b2, u128{hi, lo}}
}

func (c count) isZero() bool { return c.top == 0 && c.v == u128{} }

// size is last − first + 1.
func size(first, last u128) count {
	lo, b := bits.Sub64(last.lo, first.lo, 0)
	hi, _ := bits.Sub64(last.hi, first.hi, b)
	next, carry := u128{hi, lo}.addOne()
	if carry {
		return count{1, u128{}}
	}
	return count{0, next}
}

func (c count) big() *big.Int {
	n := new(big.Int).SetUint64(c.top)
	n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(c.v.hi))
	return n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(c.v.lo))
}

func appendCount(b []byte, c count) []byte {
	if c.top == 0 && c.v.hi == 0 {
		return strconv.AppendUint(b, c.v.lo, 10)
	}
	return c.big().Append(b, 10)
}

// --- entries ---------------------------------------------------------------

type interval struct{ first, last u128 }

func addrValue(a netip.Addr) u128 {
	if a.Is4() {
		v := a.As4()
		return u128{0, uint64(v[0])<<24 | uint64(v[1])<<16 | uint64(v[2])<<8 | uint64(v[3])}
	}
	v := a.As16()
	var hi, lo uint64
	for i := 0; i < 8; i++ {
		hi = hi<<8 | uint64(v[i])
		lo = lo<<8 | uint64(v[8+i])
	}
	return u128{hi, lo}
}

func valueAddr(v u128, width int) netip.Addr {
	if width == family4Bits {
		x := uint32(v.lo)
		return netip.AddrFrom4([4]byte{byte(x >> 24), byte(x >> 16), byte(x >> 8), byte(x)})
	}
	var a [16]byte
	for i := 0; i < 8; i++ {
		a[7-i] = byte(v.hi >> (8 * i))
		a[15-i] = byte(v.lo >> (8 * i))
	}
	return netip.AddrFrom16(a)
}

// parseEntry reads an address or a CIDR (host bits cleared) as an interval and its family width.
func parseEntry(raw string) (interval, int, bool) {
	var prefix netip.Prefix
	if strings.IndexByte(raw, '/') >= 0 {
		p, err := netip.ParsePrefix(raw)
		if err != nil {
			return interval{}, 0, false
		}
		prefix = p.Masked()
	} else {
		a, err := netip.ParseAddr(raw)
		if err != nil || a.Zone() != "" {
			return interval{}, 0, false
		}
		prefix = netip.PrefixFrom(a, a.BitLen())
	}
	width := prefix.Addr().BitLen()
	first := addrValue(prefix.Addr())
	host := width - prefix.Bits()
	last := first
	switch {
	case host >= 128:
		last = u128{^uint64(0), ^uint64(0)}
	case host >= 64:
		last = u128{first.hi | (uint64(1)<<(host-64) - 1), ^uint64(0)}
	case host > 0:
		last = u128{first.hi, first.lo | (uint64(1)<<host - 1)}
	}
	return interval{first, last}, width, true
}

// merged sorts the intervals and joins those that overlap or touch.
func merged(list []interval) []interval {
	sort.Slice(list, func(i, j int) bool { return list[i].first.less(list[j].first) })
	out := list[:0]
	for _, iv := range list {
		if n := len(out); n > 0 {
			end, wrapped := out[n-1].last.addOne()
			if wrapped || !end.less(iv.first) {
				if out[n-1].last.less(iv.last) {
					out[n-1].last = iv.last
				}
				continue
			}
		}
		out = append(out, iv)
	}
	return out
}

// --- the usage --------------------------------------------------------------

type usage struct {
	total, used, free, outside count
	width                      int
	freeSpace                  []interval
}

// measure sweeps the merged pool and used intervals once: counts, and the free intervals.
func measure(pool, used []interval, width int) usage {
	u := usage{width: width}
	for _, p := range pool {
		u.total = u.total.add(size(p.first, p.last))
	}
	var usedAll count
	for _, x := range used {
		usedAll = usedAll.add(size(x.first, x.last))
	}
	j := 0
	for _, p := range pool {
		cursor, done := p.first, false
		for j < len(used) && used[j].last.less(p.first) {
			j++
		}
		for k := j; k < len(used) && !p.last.less(used[k].first); k++ {
			x := used[k]
			lo, hi := x.first, x.last
			if lo.less(p.first) {
				lo = p.first
			}
			if p.last.less(hi) {
				hi = p.last
			}
			u.used = u.used.add(size(lo, hi))
			if cursor.less(lo) {
				u.freeSpace = append(u.freeSpace, interval{cursor, lo.subOne()})
			}
			next, wrapped := hi.addOne()
			if wrapped || p.last.less(next) {
				done = true
				break
			}
			cursor = next
		}
		if !done {
			u.freeSpace = append(u.freeSpace, interval{cursor, p.last})
		}
	}
	u.free = u.total.sub(u.used)
	u.outside = usedAll.sub(u.used)
	return u
}

// largestBlock is the largest aligned block inside [first, last], the lowest of equals: its
// first address and host bits.
func largestBlock(iv interval) (u128, int) {
	best, bestHost := iv.first, -1
	x := iv.first
	for {
		remaining := size(x, iv.last)
		fits := 128
		if remaining.top == 0 {
			fits = remaining.v.bitLen() - 1
		}
		host := x.trailingZeros()
		if fits < host {
			host = fits
		}
		if host > bestHost {
			best, bestHost = x, host
		}
		step := size(u128{}, u128{}.shiftedOnes(host))
		if step.top != 0 {
			return best, bestHost
		}
		next := count{0, x}.add(step)
		if next.top != 0 || iv.last.less(next.v) {
			return best, bestHost
		}
		x = next.v
	}
}

// shiftedOnes is 2^n − 1 (n host bits set).
func (u128) shiftedOnes(n int) u128 {
	switch {
	case n >= 128:
		return u128{^uint64(0), ^uint64(0)}
	case n >= 64:
		return u128{uint64(1)<<(n-64) - 1, ^uint64(0)}
	}
	return u128{0, uint64(1)<<n - 1}
}

// blocksOf is how many aligned blocks of `host` host bits fit in the interval:
// max(0, ⌊(last + 1) / 2^host⌋ − ⌈first / 2^host⌉).
func blocksOf(iv interval, host int) count {
	upper := count{0, iv.last.shr(host)}
	if iv.last.lowBits(host, true) {
		upper = upper.add(count{0, u128{0, 1}})
	}
	lower := count{0, iv.first.shr(host)}
	if !iv.first.lowBits(host, false) {
		lower = lower.add(count{0, u128{0, 1}})
	}
	if upper.top == 0 && lower.top == 0 && !lower.v.less(upper.v) {
		return count{}
	}
	return upper.sub(lower)
}

// appendPercent appends ⌊(used · 20000 + total) / (2 · total)⌋ / 100 as a JSON number.
func appendPercent(b []byte, used, total count) []byte {
	var hundredths uint64
	if total.top == 0 && total.v.hi == 0 && total.v.lo < 1<<40 {
		hundredths = (used.v.lo*20000 + total.v.lo) / (2 * total.v.lo)
	} else {
		n := used.big()
		n.Mul(n, big.NewInt(20000)).Add(n, total.big())
		hundredths = n.Quo(n, new(big.Int).Lsh(total.big(), 1)).Uint64()
	}
	b = strconv.AppendUint(b, hundredths/100, 10)
	switch fraction := hundredths % 100; {
	case fraction == 0:
	case fraction%10 == 0:
		b = append(b, '.', byte('0'+fraction/10))
	default:
		b = append(b, '.', byte('0'+fraction/10), byte('0'+fraction%10))
	}
	return b
}

func appendUsage(b []byte, u usage) []byte {
	b = append(b, `{"total":"`...)
	b = appendCount(b, u.total)
	b = append(b, `","used":"`...)
	b = appendCount(b, u.used)
	b = append(b, `","free":"`...)
	b = appendCount(b, u.free)
	b = append(b, `","outsidePool":"`...)
	b = appendCount(b, u.outside)
	b = append(b, `","percentUsed":`...)
	b = appendPercent(b, u.used, u.total)
	if len(u.freeSpace) == 0 {
		return append(b, `,"largestFree":null,"freeBySize":[]}`...)
	}
	var best u128
	bestHost := -1
	for _, iv := range u.freeSpace {
		if first, host := largestBlock(iv); host > bestHost {
			best, bestHost = first, host
		}
	}
	shortest := u.width - bestHost
	b = append(b, `,"largestFree":"`...)
	b = valueAddr(best, u.width).AppendTo(b)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(shortest), 10)
	b = append(b, `","freeBySize":[`...)
	for n := shortest; n <= u.width && n < shortest+maxLengths; n++ {
		var blocks count
		for _, iv := range u.freeSpace {
			blocks = blocks.add(blocksOf(iv, u.width-n))
		}
		if n > shortest {
			b = append(b, ',')
		}
		b = append(b, `{"prefixLength":`...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, `,"blocks":"`...)
		b = appendCount(b, blocks)
		b = append(b, `"}`...)
	}
	return append(b, ']', '}')
}

// --- HTTP ------------------------------------------------------------------

type issue struct {
	Path    []interface{} `json:"path"`
	Message string        `json:"message"`
}

type errBody struct {
	Error struct {
		Code    string  `json:"code"`
		Message string  `json:"message"`
		Issues  []issue `json:"issues,omitempty"`
	} `json:"error"`
}

var (
	hJSON    = []string{"application/json"}
	hNosniff = []string{"nosniff"}
	hStar    = []string{"*"}
	fullHdrs = os.Getenv("PEER_HEADERS") != "0"
	ridMu    sync.Mutex
	ridBuf   = bufio.NewReaderSize(rand.Reader, 4096)
	bufPool  = sync.Pool{New: func() interface{} { b := make([]byte, 0, 4096); return &b }}
)

func newRequestID() string {
	var b [16]byte
	ridMu.Lock()
	_, err := io.ReadFull(ridBuf, b[:])
	ridMu.Unlock()
	if err != nil {
		return strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	hex.Encode(out[9:13], b[4:6])
	hex.Encode(out[14:18], b[6:8])
	hex.Encode(out[19:23], b[8:10])
	hex.Encode(out[24:], b[10:])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

func commonHeaders(w http.ResponseWriter, r *http.Request) http.Header {
	h := w.Header()
	if fullHdrs {
		h["X-Content-Type-Options"] = hNosniff
		h["Access-Control-Allow-Origin"] = hStar
		rid := r.Header.Get("X-Request-Id")
		if len(rid) < 1 || len(rid) > 128 || strings.Trim(rid, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
			rid = newRequestID()
		}
		h["X-Request-Id"] = []string{rid}
	}
	return h
}

func writeError(w http.ResponseWriter, status int, code, msg string, issues []issue) {
	var e errBody
	e.Error.Code, e.Error.Message, e.Error.Issues = code, msg, issues
	body, _ := json.Marshal(&e)
	w.Header()["Content-Type"] = hJSON
	w.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

// readJSON applies the size, media-type and JSON checks; false means an error answer was written.
func readJSON(w http.ResponseWriter, r *http.Request, dst interface{}) bool {
	if r.ContentLength > maxBody {
		writeError(w, 413, "PAYLOAD_TOO_LARGE", "Request body exceeds 65536 bytes.", nil)
		return false
	}
	ct := r.Header.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	if !strings.EqualFold(strings.TrimSpace(ct), "application/json") {
		writeError(w, 415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json.", nil)
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, 413, "PAYLOAD_TOO_LARGE", "Request body exceeds 65536 bytes.", nil)
		} else {
			writeError(w, 400, "INVALID_JSON", "Request body could not be read.", nil)
		}
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err = dec.Decode(dst); err == nil {
		if len(bytes.Trim(body[dec.InputOffset():], " \t\r\n")) != 0 {
			writeError(w, 400, "INVALID_JSON", "Request body is not valid JSON.", nil)
			return false
		}
		return true
	}
	if !json.Valid(body) {
		writeError(w, 400, "INVALID_JSON", "Request body is not valid JSON.", nil)
		return false
	}
	writeError(w, 400, "INVALID_INPUT", "The request does not match the expected shape.",
		[]issue{{Message: err.Error(), Path: []interface{}{}}})
	return false
}

// parseList reads one list into intervals; every bad entry is an issue; width is the family
// (0 until the first entry sets it).
func parseList(list []string, field string, width *int, issues *[]issue, mixed *bool) []interval {
	out := make([]interval, 0, len(list))
	for i, raw := range list {
		iv, w, ok := parseEntry(raw)
		if !ok {
			*issues = append(*issues, issue{Path: []interface{}{field, i}, Message: "Expected an IPv4/IPv6 address or CIDR."})
			continue
		}
		if *width == 0 {
			*width = w
		} else if *width != w {
			*mixed = true
			continue
		}
		out = append(out, iv)
	}
	return out
}

func cidrUsage(w http.ResponseWriter, pool, used *[]string) {
	var issues []issue
	if pool == nil || len(*pool) < 1 || len(*pool) > maxPool {
		issues = append(issues, issue{Path: []interface{}{"pool"}, Message: "Expected 1 to 1000 entries."})
	}
	if used == nil || len(*used) > maxUsed {
		issues = append(issues, issue{Path: []interface{}{"used"}, Message: "Expected 0 to 10000 entries."})
	}
	if issues != nil {
		writeError(w, 400, "INVALID_INPUT", "The request is not valid.", issues)
		return
	}
	width, mixed := 0, false
	poolIvs := parseList(*pool, "pool", &width, &issues, &mixed)
	usedIvs := parseList(*used, "used", &width, &issues, &mixed)
	if issues != nil {
		writeError(w, 400, "INVALID_INPUT", "The request is not valid.", issues)
		return
	}
	if mixed {
		writeError(w, 400, "MIXED_ADDRESS_FAMILIES", "Every entry must be of one address family.", nil)
		return
	}
	u := measure(merged(poolIvs), merged(usedIvs), width)
	bp := bufPool.Get().(*[]byte)
	b := appendUsage((*bp)[:0], u)
	h := w.Header()
	h["Content-Type"] = hJSON
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.Write(b)
	if cap(b) <= 1<<20 {
		*bp = b[:0]
		bufPool.Put(bp)
	}
}

var healthBody = []byte(`{"status":"ok"}`)

func handler(w http.ResponseWriter, r *http.Request) {
	h := commonHeaders(w, r)
	var method string
	switch r.URL.Path {
	case "/v1/health":
		method = "GET"
	case "/v1/cidr-usage":
		method = "POST"
	default:
		writeError(w, 404, "NOT_FOUND", "No such endpoint.", nil)
		return
	}
	if r.Method != method && !(method == "GET" && r.Method == "HEAD") {
		h["Allow"] = []string{method}
		writeError(w, 405, "METHOD_NOT_ALLOWED", "Method not allowed for this endpoint.", nil)
		return
	}
	if method == "GET" {
		h["Content-Type"] = hJSON
		h["Content-Length"] = []string{"15"}
		w.Write(healthBody)
		return
	}
	var req struct {
		Pool *[]string `json:"pool"`
		Used *[]string `json:"used"`
	}
	if readJSON(w, r, &req) {
		cidrUsage(w, req.Pool, req.Used)
	}
}

func main() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	host := os.Getenv("HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	srv := &http.Server{
		Addr:              net.JoinHostPort(host, port),
		Handler:           http.HandlerFunc(handler),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	fmt.Fprintf(os.Stderr, "usage-go listening on http://%s\n", srv.Addr)
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
