package notify

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
)

// spellings are hosts that name a loopback, private, link-local, shared,
// multicast or otherwise special address, in every spelling a URL can
// carry: IPv4, the integer forms the C library reads (decimal, octal,
// hexadecimal, short), IPv6, IPv4-mapped, IPv4-compatible, NAT64, 6to4,
// Teredo, a zone, a trailing dot.
var spellings = map[string][]string{
	"loopback": {"127.0.0.1", "127.0.0.1.", "127.255.255.254", "127.1", "2130706433", "0x7f000001", "0X7F000001", "0x7f.1", "0x7f.0.0.1",
		"017700000001", "0177.0.0.1", "0177.1", "127.000.000.001", "127.0.1", "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]",
		"[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]", "[::127.0.0.1]", "[::7f00:1]", "[64:ff9b::127.0.0.1]", "[64:ff9b::7f00:1]",
		"[64:ff9b:1::7f00:1]", "[2002:7f00:1::1]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]", "localhost", "LocalHost.", "a.b.localhost"},
	"unspecified": {"0.0.0.0", "0", "0x0", "00", "0.0", "[::]", "[::ffff:0.0.0.0]"},
	"private": {"10.0.0.1", "167772161", "012.0.0.1", "0xa.0.0.1", "10.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "3232235777",
		"0xc0.0xa8.1.1", "0300.0250.1.1", "[::ffff:10.0.0.1]", "[::ffff:a00:1]", "[::10.0.0.1]", "[::ffff:192.168.1.1]",
		"[64:ff9b::10.0.0.1]", "[64:ff9b::a00:1]", "[64:ff9b::192.168.0.1]", "[fc00::1]", "[fd12:3456:789a::1]"},
	"link-local": {"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "[fe80::1]", "[fe80::1%25eth0]",
		"[::ffff:169.254.169.254]", "[64:ff9b::a9fe:a9fe]", "[fec0::1]"},
	"shared (carrier-grade NAT)": {"100.64.0.1", "100.127.255.254", "1681915905", "[::ffff:100.64.0.1]", "[64:ff9b::100.64.0.1]"},
	"multicast and broadcast": {"224.0.0.1", "239.255.255.250", "3758096385", "255.255.255.255", "4294967295", "[ff02::1]", "[ff05::1:3]",
		"[ff0e::1]", "[::ffff:224.0.0.1]"},
	"special-purpose": {"192.0.0.8", "192.0.0.170", "192.0.2.1", "192.31.196.1", "192.52.193.1", "192.88.99.1", "192.175.48.1", "198.18.0.1",
		"198.19.255.255", "198.51.100.1", "203.0.113.1", "240.0.0.1", "[100::1]", "[100:0:0:1::1]", "[2001::1]", "[2001:2::1]",
		"[2001:10::1]", "[2001:20::1]", "[2001:db8::1]", "[3fff::1]", "[2620:4f:8000::1]", "[5f00::1]", "[4000::1]", "[::ffff:192.0.2.1]"},
}

// public are addresses a target may have.
var public = []string{"8.8.8.8", "1.1.1.1", "93.184.215.14", "[2606:4700:4700::1111]", "[2001:4860:4860::8888]", "[2a00:1450:4001::1]"}

// dialled is the address a dialer connects to for host: what the C
// library (or the URL, for a literal) makes of it; false for a name.
func dialled(host string) (netip.Addr, bool) {
	h := strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	h = strings.Replace(h, "%25", "%", 1)
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip, true
	}
	return legacyIPv4(h)
}

// TestGuardRefusesEverySpelling: by default, every spelling of every
// special address is refused when a target is set (CheckURL) and again
// when it is dialled (the dialer's control, which sees the address after
// resolution); public addresses pass both; AllowPrivate lets all pass.
func TestGuardRefusesEverySpelling(t *testing.T) {
	ctx := context.Background()
	g := Guard{}
	for kind, hosts := range spellings {
		for _, host := range hosts {
			u := "http://" + host + ":9/x"
			_, err := g.CheckURL(ctx, "the webhook's URL", u)
			if fray.ErrorCode(err) != fray.EINVALID {
				t.Errorf("%s %s: accepted when set (%v)", kind, u, err)
			} else if msg := fray.ErrorMessage(err); !strings.Contains(msg, "special network address") {
				t.Errorf("%s %s: refused with %q, which does not say why", kind, u, msg)
			}
			if ip, ok := dialled(host); ok {
				if !Refused(ip) {
					t.Errorf("%s %s (%s): not refused", kind, host, ip)
				}
				network := "tcp4"
				if ip.Is6() {
					network = "tcp6"
				}
				if err := g.control(network, netip.AddrPortFrom(ip, 9).String(), nil); !errors.Is(err, ErrRefusedAddress) {
					t.Errorf("%s %s (%s): dialled (%v)", kind, host, ip, err)
				}
			}
			if _, err := (Guard{AllowPrivate: true}).CheckURL(ctx, "the webhook's URL", u); err != nil && !strings.Contains(host, "localhost") {
				t.Errorf("%s %s with AllowPrivate: %v", kind, u, err)
			}
		}
	}
	for _, host := range public {
		if _, err := g.CheckURL(ctx, "the webhook's URL", "https://"+host+"/x"); err != nil {
			t.Errorf("public %s refused: %v", host, err)
		}
		ip, _ := dialled(host)
		if err := g.control("tcp", netip.AddrPortFrom(ip, 443).String(), nil); err != nil {
			t.Errorf("public %s not dialled: %v", host, err)
		}
	}
	// A public address in an integer spelling is refused too, asking for
	// the usual one (8.8.8.8).
	if _, err := g.CheckURL(ctx, "the webhook's URL", "http://134744072/"); err == nil || !strings.Contains(fray.ErrorMessage(err), "four decimal numbers") {
		t.Errorf("8.8.8.8 as an integer: %v", err)
	}
}

// The client refuses at dial time what it is asked to reach, for every
// literal spelling: the address checked is the one connected to.
func TestGuardClientRefusesAtDialTime(t *testing.T) {
	client := Guard{}.Client(time.Minute)
	for kind, hosts := range spellings {
		for _, host := range hosts {
			ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
			if err != nil || ip.Zone() != "" {
				continue // a name, a zone, or a spelling Go's resolver would look up as a name
			}
			_, err = client.Get("http://" + host + ":9/x")
			if !errors.Is(err, ErrRefusedAddress) {
				t.Errorf("%s %s: %v, want the guard's refusal", kind, host, err)
			}
		}
	}
}

func TestLegacyIPv4(t *testing.T) {
	for in, want := range map[string]string{
		"2130706433": "127.0.0.1", "0x7f.1": "127.0.0.1", "017700000001": "127.0.0.1", "127.1": "127.0.0.1", "10.1.2": "10.1.0.2",
		"0xc0.0xa8.1.1": "192.168.1.1", "4294967295": "255.255.255.255", "0": "0.0.0.0", "8.8.8.8": "8.8.8.8",
	} {
		if got, ok := legacyIPv4(in); !ok || got.String() != want {
			t.Errorf("legacyIPv4(%q) = %v %v, want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"4294967296", "256.1.1.1", "1.2.3.4.5", "example.com", "0x", "08", "1..2", "", "1.2.3.256", "1.16777216"} {
		if got, ok := legacyIPv4(in); ok {
			t.Errorf("legacyIPv4(%q) = %v, want no address", in, got)
		}
	}
}
