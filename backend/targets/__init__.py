"""The built-in targets, registered in setup.py under `p4odp.targets` like any plugin."""

from pathlib import Path

from p4odp.backend.target import OdpProvider, PortFiles, RunWrapper, Target, Toolchain

__all__ = ["X86", "X86_DPDK", "X86_XDP", "NETMAP", "ARM64", "ARMHF"]

# EAL arguments of a pcap-driven DPDK run: no hugepages, no PCI scan, no files shared
# between processes (tests run in parallel), no telemetry socket.
DPDK_PCAP_EAL = "--no-huge --no-pci --no-shconf --no-telemetry -m 512 --log-level=lib.eal:error"


def dpdk_pcap_vdevs(files: dict[int, tuple[Path, Path]]) -> PortFiles:
    """Each port is a net_pcap vdev; DPDK numbers vdevs in the order they are given, and
    the DPDK ODPs name a port by that number (ODP_PLATFORM_PARAMS holds the EAL arguments)."""
    ports = sorted(files)
    vdevs = " ".join(f"--vdev net_pcap{i},rx_pcap={files[port][0]},tx_pcap={files[port][1]}"
                     for i, port in enumerate(ports))
    return PortFiles({port: str(i) for i, port in enumerate(ports)},
                     {"ODP_PLATFORM_PARAMS": f"{DPDK_PCAP_EAL} {vdevs}"})


X86 = Target(
    name="x86",
    description="native build; Linux interfaces through AF_PACKET socket-mmap, pcap files, loop",
)

X86_DPDK = Target(
    name="x86-dpdk",
    description="native build with DPDK ports (zero-copy mbufs); a system odp-dpdk when pkg-config finds one",
    odp=OdpProvider(system=("libodp-dpdk",), pktio=("dpdk",), pkg_config=("libdpdk",),
                    debian=("libdpdk-dev", "pkg-config")),
    interfaces="DPDK port ids (-i 0=0 -i 1=1) in probe order; EAL arguments in ODP_PLATFORM_PARAMS "
               "(or ODP_PKTIO_DPDK_PARAMS); pcap files and loop as on x86",
    pcap_ports=dpdk_pcap_vdevs,
)

X86_XDP = Target(
    name="x86-xdp",
    description="native build with AF_XDP sockets (libxdp), kernel bypass on any interface a stock kernel drives",
    odp=OdpProvider(system=(), pktio=("xdp",), pkg_config=("libxdp", "libbpf"),
                    debian=("libxdp-dev", "libbpf-dev", "pkg-config")),
    interfaces="xdp:IFNAME (AF_XDP); pcap files, loop and Linux interface names as on x86",
)

NETMAP = Target(
    name="netmap",
    description="native build with netmap ports",
    odp=OdpProvider(system=(), pktio=("netmap",), headers=(("net/netmap_user.h", "NETMAP_INCLUDE"),),
                    note="no Debian package ships netmap: build its kernel module and use the sys/ folder "
                         "of its source tree"),
    interfaces="netmap:IFNAME, vale ports (valeX:Y); pcap files, loop and Linux interface names as on x86",
)

ARM64 = Target(
    name="arm64",
    description="cross build for 64-bit ARM SoCs; runs here under qemu-user",
    toolchain=Toolchain(cc="gcc", cflags=("-O2", "-g", "-march=armv8-a"), cross_compile="aarch64-linux-gnu-",
                        sysroot="/usr/aarch64-linux-gnu", debian=("gcc-aarch64-linux-gnu", "libc6-dev-arm64-cross")),
    odp=OdpProvider(system=()),
    run_wrapper=RunWrapper(("qemu-aarch64-static", "qemu-aarch64"), "QEMU_LD_PREFIX", ("qemu-user-static",)),
)

ARMHF = Target(
    name="armhf",
    description="cross build for 32-bit ARM SoCs (ARMv7, hard float); runs here under qemu-user",
    toolchain=Toolchain(cc="gcc", cflags=("-O2", "-g"), cross_compile="arm-linux-gnueabihf-",
                        sysroot="/usr/arm-linux-gnueabihf", debian=("gcc-arm-linux-gnueabihf", "libc6-dev-armhf-cross")),
    odp=OdpProvider(system=()),
    run_wrapper=RunWrapper(("qemu-arm-static", "qemu-arm"), "QEMU_LD_PREFIX", ("qemu-user-static",)),
)
