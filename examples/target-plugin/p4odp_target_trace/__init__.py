"""x86-trace: the x86 target with a packet I/O template that traces each packet sent.

A target is a `p4odp.backend.target.Target`; this one reuses x86's toolchain and
ODP and adds a template folder that p4odp searches before its own templates.
"""

from dataclasses import replace
from pathlib import Path

from p4odp.backend.targets import X86

__all__ = ["TRACE"]

TRACE = replace(
    X86,
    name="x86-trace",
    description="x86 with a trace line on stderr for every packet sent (example out-of-tree target)",
    template_dirs=(str(Path(__file__).parent / "templates"),),
)
