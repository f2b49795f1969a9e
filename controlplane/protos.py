"""The P4Runtime protocol's message classes, built from the `p4runtime` package.

The package's `_pb2` modules are protoc output of the form protobuf 4 and later refuse to load
("Descriptors cannot be created directly"), and protobuf 3, which loads them, parses in pure
Python on current interpreters: 10,000 table entries take seconds.  Each of those modules holds
its .proto file's serialized descriptor, though; this module builds the classes from it as
current protoc output does, and registers them under the package's module names, so that
`p4.v1.p4runtime_pb2_grpc` and every client that imports `p4.v1.p4runtime_pb2` get them.
Import this module before anything imports the `p4` modules.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from pathlib import Path

from google.protobuf import any_pb2  # noqa: F401  (the pool needs google/protobuf/any.proto)
from google.protobuf import descriptor_pool
from google.protobuf.internal import builder
from google.rpc import status_pb2  # noqa: F401  (and google/rpc/status.proto)

__all__ = ["p4data_pb2", "p4info_pb2", "p4runtime_pb2", "p4runtime_pb2_grpc", "p4types_pb2"]


def _serialized_descriptor(source: str, module: str) -> bytes:
    """The serialized FileDescriptorProto in a protoc-generated module's source, old form
    (`FileDescriptor(serialized_pb=...)`) or new (`AddSerializedFile(...)`)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.keyword) and node.arg == "serialized_pb":
            return ast.literal_eval(node.value)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "AddSerializedFile":
            return ast.literal_eval(node.args[0])
    raise ImportError(f"{module}: no serialized descriptor in the p4runtime package's module")


def _generated_module(name: str) -> types.ModuleType:
    """The module `name` of the p4runtime package, as current protoc would have generated it."""
    if name in sys.modules:  # built already, or loaded from the package under protobuf 3
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ImportError(f"{name}: the p4runtime package is not installed")
    module = types.ModuleType(name)
    module.__file__ = spec.origin
    serialized = _serialized_descriptor(Path(spec.origin).read_text(encoding="utf-8"), name)
    module.DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(serialized)
    builder.BuildMessageAndEnumDescriptors(module.DESCRIPTOR, module.__dict__)
    builder.BuildTopDescriptorsAndMessages(module.DESCRIPTOR, name, module.__dict__)
    sys.modules[name] = module
    package, _, leaf = name.rpartition(".")
    setattr(sys.modules[package], leaf, module)
    return module


# In dependency order: each file's imports are in the pool before it.
p4types_pb2 = _generated_module("p4.config.v1.p4types_pb2")
p4info_pb2 = _generated_module("p4.config.v1.p4info_pb2")
p4data_pb2 = _generated_module("p4.v1.p4data_pb2")
p4runtime_pb2 = _generated_module("p4.v1.p4runtime_pb2")
from p4.v1 import p4runtime_pb2_grpc  # noqa: E402  (imports the module registered above)
