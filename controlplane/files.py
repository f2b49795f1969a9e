"""P4Info written as P4Runtime files, each file's format told by its extension as p4c tells it:
`.txtpb` (or `.txt`) protobuf text, `.json` JSON, `.bin` binary protobuf."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format, text_format

__all__ = ["P4RUNTIME_SUFFIXES", "write_p4runtime_files"]

P4RUNTIME_SUFFIXES = (".txtpb", ".txt", ".json", ".bin")

_TEXT_HEADER = "# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\n"


def write_p4runtime_files(info, paths: list[str]) -> None:
    """Write `info` (a p4.config.v1.P4Info) to each of `paths`, whose suffixes are among
    P4RUNTIME_SUFFIXES.  An OSError names the file it could not write."""
    for path in map(Path, paths):
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix in (".txtpb", ".txt"):
            path.write_text(_TEXT_HEADER + text_format.MessageToString(info))
        elif path.suffix == ".json":
            path.write_text(json_format.MessageToJson(info) + "\n")
        else:
            path.write_bytes(info.SerializeToString())
