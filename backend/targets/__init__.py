"""The built-in targets, registered in setup.py under `p4odp.targets` like any plugin."""

from p4odp.backend.target import Target

X86 = Target(
    name="x86",
    description="native build; Linux interfaces through AF_PACKET socket-mmap, pcap files, loop",
)

ARM64 = Target(
    name="arm64",
    description="cross build for 64-bit ARM SoCs (CROSS_COMPILE defaults to aarch64-linux-gnu-)",
    cc="gcc",
    cflags=("-O2", "-g", "-march=armv8-a"),
    cross_compile="aarch64-linux-gnu-",
)
