"""The traffic generator's spec (`p4odp bench --gen SPEC`).

    KIND[:KEY=VALUE[,KEY=VALUE...]]

KIND is `eth` (Ethernet only, EtherType 0x88b5, the IEEE's local experimental one), `udp` or
`tcp` (over IPv4), `udp6` or `tcp6` (over IPv6).  The keys:

    flows=N          distinct flows (1..1,000,000; default 1)
    seed=N           seed of the random choices (default 1): the same spec gives the same frames
    dst-mac, src-mac a MAC address, or MAC+N: N consecutive addresses from MAC
    vlan=ID          an 802.1Q tag with this VLAN id (0..4095), none by default
    dst-ip, src-ip   an address, ADDR+N (N consecutive addresses) or a prefix ADDR/LEN
                     (IPv4 for udp/tcp, IPv6 for udp6/tcp6)
    dst-port, src-port  a port or a range P-Q (udp, tcp, udp6, tcp6)
    ttl=N            IPv4 TTL or IPv6 hop limit (default 64)

Each field with several values spreads them over the flows: when it has at most as many values
as there are flows, flow i takes value i modulo their number (so every value is used); when it
has more, each flow takes a different one drawn at random.  Unless the spec sets it, the field
that tells flows apart is numbered by flow, so that no two flows are the same: the source MAC
address for `eth`; for IP kinds the source port (1024 + i modulo 64,512) and, beyond 64,512
flows and unless the spec sets it, the source address (one more every 64,512 flows).  The addresses default to the benchmarking ranges: 198.18.0.0/15
(RFC 2544) and 2001:2::/48 (RFC 5180).  The frames are the flows, one each, in a random order.
Example, random destinations over 1,000 routes' worth of addresses:

    udp:flows=1000,dst-ip=10.0.0.0/16,dst-mac=00:00:00:00:00:01
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field

__all__ = ["SpecError", "FieldValues", "GenSpec", "parse_spec", "KINDS", "MAX_FLOWS"]

KINDS = ("eth", "udp", "tcp", "udp6", "tcp6")
MAX_FLOWS = 1_000_000

PORT_FIRST, PORT_COUNT = 1024, 65536 - 1024  # the source ports that tell flows apart
_MAC = re.compile(r"^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$")


class SpecError(ValueError):
    """A spec that cannot be parsed; the message says what is wrong, for one line of output."""


@dataclass(frozen=True, slots=True)
class FieldValues:
    """The values of one header field: `count` values from `first` (integers: MAC and IP
    addresses and ports as numbers).  One value when count is 1."""

    first: int
    count: int = 1

    def value(self, index: int) -> int:
        return self.first + index


@dataclass(frozen=True, slots=True)
class GenSpec:
    kind: str
    flows: int = 1
    seed: int = 1
    fields: dict = field(default_factory=dict)  # name -> FieldValues
    vlan: int | None = None
    ttl: int = 64
    text: str = ""
    # Flow i has source port PORT_FIRST + i % PORT_COUNT and source address number i // PORT_COUNT
    # (source MAC number i for eth), instead of the spreading rule: flows always differ.
    by_flow: bool = False

    @property
    def ipv6(self) -> bool:
        return self.kind.endswith("6")

    @property
    def l4(self) -> str | None:
        return None if self.kind == "eth" else self.kind.rstrip("6")


_DEFAULTS = {
    "dst-mac": "02:00:00:00:00:02",
    "src-mac": "02:00:00:00:00:01",
    "src-ip": "198.18.0.1",
    "dst-ip": "198.19.0.1",
    "src-ip6": "2001:2::1",
    "dst-ip6": "2001:2::2",
    "src-port": "1024",
    "dst-port": "1024",
}
_KEYS = {"flows", "seed", "dst-mac", "src-mac", "vlan", "dst-ip", "src-ip", "dst-port", "src-port", "ttl"}


def parse_spec(text: str) -> GenSpec:
    """The spec `text` as a GenSpec; raises SpecError."""
    kind, _, rest = text.strip().partition(":")
    if kind not in KINDS:
        raise SpecError(f"--gen {text}: unknown kind '{kind}' (known: {', '.join(KINDS)})")
    given: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not value.strip():
            raise SpecError(f"--gen {text}: expected KEY=VALUE, got '{item}'")
        if key not in _KEYS:
            raise SpecError(f"--gen {text}: unknown key '{key}' (known: {', '.join(sorted(_KEYS))})")
        if key in given:
            raise SpecError(f"--gen {text}: '{key}' is given twice")
        if kind == "eth" and key in ("dst-ip", "src-ip", "dst-port", "src-port", "ttl"):
            raise SpecError(f"--gen {text}: '{key}' needs an IP kind (udp, tcp, udp6, tcp6), not eth")
        given[key] = value.strip()
    flows = _number(text, "flows", given.get("flows", "1"), 1, MAX_FLOWS)
    seed = _number(text, "seed", given.get("seed", "1"), 0, 2**63)
    vlan = _number(text, "vlan", given["vlan"], 0, 4095) if "vlan" in given else None
    ttl = _number(text, "ttl", given.get("ttl", "64"), 0, 255)
    ipv6 = kind.endswith("6")
    fields = {}
    for name in ("dst-mac", "src-mac"):
        fields[name] = _mac_values(text, name, given.get(name, _DEFAULTS[name]))
    if kind != "eth":
        for name in ("src-ip", "dst-ip"):
            default = _DEFAULTS[name + ("6" if ipv6 else "")]
            fields[name] = _ip_values(text, name, given.get(name, default), ipv6)
        for name in ("src-port", "dst-port"):
            fields[name] = _port_values(text, name, given.get(name, _DEFAULTS[name]))
    # The fields that tell flows apart, unless the spec sets them: the source MAC address, or
    # the source port, and the source address past the ports' 64,512 values.
    vary = ("src-mac",) if kind == "eth" else ("src-port", "src-ip")
    if flows > 1 and vary[0] not in given:
        if kind == "eth":
            fields["src-mac"] = FieldValues(fields["src-mac"].first, flows)
        else:
            fields["src-port"] = FieldValues(PORT_FIRST, min(flows, PORT_COUNT))
            if flows > PORT_COUNT and "src-ip" not in given:
                fields["src-ip"] = FieldValues(fields["src-ip"].first, -(-flows // PORT_COUNT))
        return GenSpec(kind, flows, seed, fields, vlan, ttl, text, by_flow=True)
    return GenSpec(kind, flows, seed, fields, vlan, ttl, text)


def _number(text: str, key: str, value: str, low: int, high: int) -> int:
    try:
        number = int(value, 0)
    except ValueError:
        raise SpecError(f"--gen {text}: {key}={value} is not a number") from None
    if not low <= number <= high:
        raise SpecError(f"--gen {text}: {key}={value} is out of range ({low}..{high:,})")
    return number


def _split_count(text: str, key: str, value: str) -> tuple[str, int]:
    """'V+N' -> (V, N); 'V' -> (V, 1)."""
    base, plus, count = value.partition("+")
    if not plus:
        return value, 1
    return base, _number(text, key, count, 1, 1 << 32)


def _mac_values(text: str, key: str, value: str) -> FieldValues:
    base, count = _split_count(text, key, value)
    if not _MAC.match(base):
        raise SpecError(f"--gen {text}: {key}={value}: expected a MAC address such as 02:00:00:00:00:01 "
                        f"or a range MAC+N")
    first = int(base.replace(":", ""), 16)
    if first + count > 1 << 48:
        raise SpecError(f"--gen {text}: {key}={value}: the range runs past ff:ff:ff:ff:ff:ff")
    return FieldValues(first, count)


def _ip_values(text: str, key: str, value: str, ipv6: bool) -> FieldValues:
    version = 6 if ipv6 else 4
    try:
        if "/" in value:
            net = ipaddress.ip_network(value, strict=False)
            if net.version != version:
                raise ValueError
            return FieldValues(int(net.network_address), net.num_addresses)
        base, count = _split_count(text, key, value)
        address = ipaddress.ip_address(base)
        if address.version != version:
            raise ValueError
    except ValueError:
        raise SpecError(f"--gen {text}: {key}={value}: expected an IPv{version} address, ADDR+N or a prefix "
                        f"ADDR/LEN") from None
    if int(address) + count > 1 << (128 if ipv6 else 32):
        raise SpecError(f"--gen {text}: {key}={value}: the range runs past the last address")
    return FieldValues(int(address), count)


def _port_values(text: str, key: str, value: str) -> FieldValues:
    low, dash, high = value.partition("-")
    first = _number(text, key, low, 0, 65535)
    last = _number(text, key, high, first, 65535) if dash else first
    return FieldValues(first, last - first + 1)
