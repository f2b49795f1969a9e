from setuptools import setup

# One importable package, p4odp; its stages live in top-level folders.
PACKAGES = {
    "p4odp": "p4odp",
    "p4odp.frontend": "frontend",
    "p4odp.transpiler": "transpiler",
    "p4odp.backend": "backend",
}

setup(
    name="p4odp",
    version="0.1.0",
    description="P4_16 to OpenDataPlane compiler: v1model programs become software switches",
    python_requires=">=3.11",
    packages=list(PACKAGES),
    package_dir=PACKAGES,
    package_data={"p4odp.frontend": ["include/*.p4"]},
    install_requires=["Jinja2>=3.1,<4"],
    extras_require={"test": ["pytest>=7"]},
    entry_points={"console_scripts": ["p4odp = p4odp.cli:main"]},
)
