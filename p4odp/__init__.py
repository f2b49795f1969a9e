"""p4odp: a P4_16 compiler that turns v1model, PSA and PNA programs into switches over the ODP API.

This package holds the pieces every stage shares: source positions and
diagnostics, the IR (the only contract between the front end and the rest),
the plugin registry and the command line.  The stages themselves are the
subpackages ``p4odp.frontend``, ``p4odp.transpiler`` and ``p4odp.backend``.
"""

__version__ = "0.1.0"
