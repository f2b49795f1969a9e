from setuptools import setup

# One importable package, p4odp; its stages live in top-level folders.
PACKAGES = {
    "p4odp": "p4odp",
    "p4odp.frontend": "frontend",
    "p4odp.transpiler": "transpiler",
    "p4odp.transpiler.architectures": "transpiler/architectures",
    "p4odp.transpiler.codegen": "transpiler/codegen",
    "p4odp.transpiler.passes": "transpiler/passes",
    "p4odp.backend": "backend",
    "p4odp.backend.targets": "backend/targets",
    "p4odp.controlplane": "controlplane",
    "p4odp.stf": "stf",
    "p4odp.ptfharness": "ptfharness",
    "p4odp.throughput": "throughput",
    "p4odp.templates": "templates",
    "p4odp.runtime": "runtime",
}

setup(
    name="p4odp",
    version="0.1.0",
    description="P4_16 to OpenDataPlane compiler: v1model programs become software switches",
    python_requires=">=3.11",
    packages=list(PACKAGES),
    package_dir=PACKAGES,
    package_data={
        "p4odp.frontend": ["include/*.p4"],
        "p4odp.templates": ["*.j2", "target/*.j2", "v1model/*.j2"],
        "p4odp.runtime": ["*/*.c", "*/*.h", "*/Makefile", "include/*.h", "odp/include/*.h", "odp/include/*/*.h",
                          "odp/include/*/*/*.h"],
    },
    # P4Runtime: protobuf with its compiled (upb) parser, which parses a 10,000-entry Write in
    # milliseconds where protobuf 3's pure-Python one takes seconds; the p4runtime package's
    # generated code predates it, so controlplane/protos.py builds its classes from the descriptors
    # the package holds.  p4runtime 1.4.1 is what p4runtime-shell, the reference client, asks for.
    install_requires=["Jinja2>=3.1,<4", "protobuf>=4.25,<7", "p4runtime==1.4.1", "grpcio>=1.49",
                      "googleapis-common-protos>=1.63,<2"],
    extras_require={"test": ["pytest>=7", "pytest-xdist>=3", "matplotlib>=3.5"], "bench": ["matplotlib>=3.5"],
                    "ptf": ["ptf>=0.10", "scapy>=2.5"]},
    entry_points={
        "console_scripts": ["p4odp = p4odp.cli:main"],
        # Built-in architectures and targets register like third-party ones.
        "p4odp.architectures": [
            "v1model = p4odp.transpiler.architectures.v1model:V1MODEL",
        ],
        "p4odp.targets": [
            "x86 = p4odp.backend.targets:X86",
            "x86-dpdk = p4odp.backend.targets:X86_DPDK",
            "x86-xdp = p4odp.backend.targets:X86_XDP",
            "netmap = p4odp.backend.targets:NETMAP",
            "arm64 = p4odp.backend.targets:ARM64",
            "armhf = p4odp.backend.targets:ARMHF",
        ],
    },
)
