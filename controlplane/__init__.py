"""The control plane's Python side: the P4Info of a program (p4info.py), written as P4Runtime
files (files.py)."""
