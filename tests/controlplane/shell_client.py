"""A P4Runtime controller written with p4runtime-shell, the reference client: run by
test_p4runtime_shell.py in p4runtime-shell's own environment (it pins protobuf 3.20), so it
imports nothing of p4odp.

    python shell_client.py HOST:PORT P4INFO.txtpb DEVICE_CONFIG

Sets the pipeline, inserts entries of every match kind, reads them and a counter back, tries
a duplicate insert and prints what it saw as one JSON object."""

import json
import sys
import time

import p4runtime_sh.shell as sh
from p4runtime_sh.p4runtime import P4RuntimeWriteException


def main() -> None:
    target, p4info, device_config = sys.argv[1:4]
    seen = {}
    sh.setup(device_id=0, grpc_addr=target, election_id=(0, 1), verbose=False,
             config=sh.FwdPipeConfig(p4info, device_config))
    try:
        entry = sh.TableEntry("Ing.classify")(action="Ing.count")
        entry.match["hdr.h.kind"] = "1"
        entry.match["hdr.h.b"] = "0x10&&&0xf0"
        entry.match["hdr.h.c"] = "1..10"
        entry.match["hdr.h.d"] = "9"
        entry.action["cell"] = "1"
        entry.priority = 10
        entry.insert()
        route = sh.TableEntry("Ing.routes")(action="Ing.route")
        route.match["hdr.h.addr"] = "10.1.0.0/16"
        route.action["cell"] = "2"
        route.insert()
        seen["entries"] = sorted(str(e.match).replace("\n", " ") for e in sh.TableEntry("Ing.classify").read())
        seen["routes"] = [str(e.match).replace("\n", " ") for e in sh.TableEntry("Ing.routes").read()]
        deadline = time.monotonic() + 10
        while True:
            counter = sh.CounterEntry("Ing.seen")
            counter.index = 1
            seen["packets"] = next(iter(counter.read())).data.packet_count
            if seen["packets"] > 10 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        try:
            entry.insert()
            seen["duplicate"] = "accepted"
        except P4RuntimeWriteException as err:
            seen["duplicate"] = [e.canonical_code for _, e in err.errors]
        route.delete()
        seen["routes_after_delete"] = len(list(sh.TableEntry("Ing.routes").read()))
    finally:
        sh.teardown()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
