"""The plugin registry: targets come from the `p4odp.targets` entry-point group.

Built-in targets register through the same group as third-party ones (see
setup.py), so a plugin needs nothing but an entry point naming a `Target`.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from p4odp.backend.target import Target

__all__ = ["TARGET_GROUP", "load_targets"]

TARGET_GROUP = "p4odp.targets"


def load_targets() -> dict:
    """Every installed target by name; a broken plugin is reported by name, not raised."""
    targets, broken = {}, {}
    for entry in entry_points(group=TARGET_GROUP):
        try:
            target = entry.load()
        except Exception as err:  # noqa: BLE001 - a third-party plugin may fail in any way
            broken[entry.name] = f"{type(err).__name__}: {err}"
            continue
        if not isinstance(target, Target):  # `targets` and the build would crash on it
            broken[entry.name] = f"{entry.value} is a {type(target).__name__}, not a p4odp.backend.target.Target"
            continue
        targets[entry.name] = target
    return {"targets": targets, "broken": broken}
