"""The parser of the counters the switch prints (switchbench/counters.py)."""

from p4odp.switchbench.counters import CounterParser, PortCounters, parse_counters

SIGUSR1_BLOCK = """\
counters at 1.500000 s
port  rx  tx  interface
   0  1000  10  pcap:in=/tmp/x/in0.pcap:loops=0:cache
   1  0  2970  null1
  63  0  0  null63
dropped 20: dropped by the program
dropped 3: sent to a port without an interface
"""


def test_a_sigusr1_block():
    [block] = parse_counters(SIGUSR1_BLOCK).blocks
    assert block.time == 1.5
    assert block.ports == {0: PortCounters(1000, 10, "pcap:in=/tmp/x/in0.pcap:loops=0:cache"),
                           1: PortCounters(0, 2970, "null1"), 63: PortCounters(0, 0, "null63")}
    assert block.drops == {"dropped by the program": 20, "sent to a port without an interface": 3}
    assert (block.rx, block.tx) == (1000, 2980)


def test_blocks_among_other_lines_and_the_exit_table():
    text = ("odp: a warning\n" + SIGUSR1_BLOCK + "note: interface 'x' has 1 input queue(s)\n"
            + SIGUSR1_BLOCK.replace("1.500000", "2.75").replace("2970", "5970")
            + "port  rx  tx  interface\n   0  5  6  loop\n")
    parser = parse_counters(text)
    assert [b.time for b in parser.blocks] == [1.5, 2.75, None]
    assert parser.blocks[1].tx == 5980 and parser.blocks[2].ports == {0: PortCounters(5, 6, "loop")}
    assert parser.other == ["odp: a warning", "note: interface 'x' has 1 input queue(s)"]
    assert len(parser.samples(3)) == 2 and parser.samples(4) == []


def test_lines_arrive_one_by_one():
    """A block grows as its lines come: samples() counts it once every port's row is there."""
    parser = CounterParser()
    lines = SIGUSR1_BLOCK.splitlines(keepends=True)
    for count, line in enumerate(lines, 1):
        parser.feed(line)
        assert len(parser.samples(3)) == (1 if count >= 5 else 0)
    assert parser.samples(3)[0].drops["dropped by the program"] == 20


def test_a_time_line_without_a_table_is_not_a_block():
    parser = parse_counters("counters at 1.0 s\nsomething else\nport  rx  tx  interface\n   0  1  2  a\n")
    assert [(b.time, b.tx) for b in parser.blocks] == [(None, 2)]
