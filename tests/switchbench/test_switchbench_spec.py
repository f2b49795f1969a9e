"""The generator spec of `p4odp bench --gen` (switchbench/spec.py)."""

import pytest

from p4odp.switchbench.spec import PORT_COUNT, PORT_FIRST, FieldValues, SpecError, parse_spec


def test_defaults_are_the_benchmarking_ranges():
    spec = parse_spec("udp")
    assert (spec.kind, spec.flows, spec.seed, spec.ttl, spec.vlan, spec.by_flow) == ("udp", 1, 1, 64, None, False)
    assert spec.fields["src-ip"] == FieldValues(0xC6120001)  # 198.18.0.1
    assert spec.fields["dst-ip"] == FieldValues(0xC6130001)  # 198.19.0.1
    assert spec.l4 == "udp" and not spec.ipv6
    six = parse_spec("tcp6")
    assert six.ipv6 and six.l4 == "tcp"
    assert six.fields["dst-ip"] == FieldValues(0x20010002 << 96 | 2)  # 2001:2::2
    assert "src-ip" not in parse_spec("eth").fields


def test_values_ranges_and_prefixes():
    spec = parse_spec("udp:flows=1000,dst-ip=10.0.0.0/16,src-ip=10.1.0.1+4,dst-mac=00:00:00:00:00:01+1000,"
                      "src-port=5000-5009,dst-port=53,vlan=7,ttl=3,seed=9")
    assert spec.fields["dst-ip"] == FieldValues(0x0A000000, 65536)
    assert spec.fields["src-ip"] == FieldValues(0x0A010001, 4)
    assert spec.fields["dst-mac"] == FieldValues(1, 1000)
    assert spec.fields["src-port"] == FieldValues(5000, 10)
    assert spec.fields["dst-port"] == FieldValues(53, 1)
    assert (spec.vlan, spec.ttl, spec.seed, spec.flows) == (7, 3, 9, 1000)
    assert not spec.by_flow, "the spec sets the source port: it is spread, not numbered by flow"
    assert parse_spec("udp6:dst-ip=2001:db8::/120").fields["dst-ip"].count == 256


def test_flows_are_told_apart_by_default():
    udp = parse_spec("udp:flows=100")
    assert udp.by_flow and udp.fields["src-port"] == FieldValues(PORT_FIRST, 100)
    many = parse_spec("udp:flows=200000")
    assert many.fields["src-port"] == FieldValues(PORT_FIRST, PORT_COUNT)
    assert many.fields["src-ip"].count == 4  # ceil(200000 / 64512)
    eth = parse_spec("eth:flows=10")
    assert eth.by_flow and eth.fields["src-mac"].count == 10


@pytest.mark.parametrize("text, message", [
    ("sctp", "unknown kind 'sctp'"),
    ("udp:flows", "expected KEY=VALUE"),
    ("udp:flows=", "expected KEY=VALUE"),
    ("udp:flows=0", "out of range"),
    ("udp:flows=2000000", "out of range"),
    ("udp:flows=ten", "not a number"),
    ("udp:color=red", "unknown key 'color'"),
    ("udp:ttl=1,ttl=2", "given twice"),
    ("eth:dst-ip=10.0.0.1", "needs an IP kind"),
    ("udp:dst-mac=00:11:22", "expected a MAC address"),
    ("udp:dst-mac=ff:ff:ff:ff:ff:ff+2", "runs past"),
    ("udp:dst-ip=10.0.0.300", "expected an IPv4 address"),
    ("udp:dst-ip=2001:db8::1", "expected an IPv4 address"),
    ("udp6:dst-ip=10.0.0.1", "expected an IPv6 address"),
    ("udp:dst-ip=255.255.255.255+2", "runs past"),
    ("udp:dst-port=70000", "out of range"),
    ("udp:dst-port=2000-1000", "out of range"),
    ("udp:vlan=4096", "out of range"),
])
def test_bad_specs_say_what_is_wrong(text, message):
    with pytest.raises(SpecError) as err:
        parse_spec(text)
    assert message in str(err.value)
    assert str(err.value).startswith(f"--gen {text}:") and "\n" not in str(err.value)
