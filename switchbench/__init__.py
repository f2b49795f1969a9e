"""`p4odp bench`: the switch under load, its packet rate per frame size.

- `spec`: the generator spec of `--gen` (kinds, fields, flows);
- `traffic`: frames of each size, from a pcap file or a spec; the bundled ODP's flow hash;
- `counters`: the counters blocks the switch prints on SIGUSR1 and at exit;
- `linerate`: RFC 2544 arithmetic (Mpps, Gbit/s, line-rate shares) and the CPU's frequency;
- `runner`: building the switch, attaching replaying and sink ports, sampling its counters;
- `report`: the table, the JSON document and the plot.
"""
