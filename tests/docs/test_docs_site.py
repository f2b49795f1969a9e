"""The documentation: the site builds with `mkdocs build --strict` (a broken link, a missing anchor or
a page left out of the navigation fails), the README stays short, and no commit hash is in the
user's text (figures with their commits belong in bench/results/)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"

# A hex word of 7 to 40 digits with a letter and a digit, as git abbreviates commits; not part of a
# longer word, a path, an address (MAC, IPv6) or a number written 0x...
COMMIT_HASH = re.compile(r"(?<![\w./:#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w:])")


def user_text() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_mkdocs_build_strict(tmp_path: Path):
    pytest.importorskip("mkdocs", reason="mkdocs is in the test extras: make setup installs it")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                          str(REPO / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}{run.stderr}"
    assert (tmp_path / "site" / "index.html").exists()


def test_every_page_is_in_the_navigation():
    nav = (REPO / "mkdocs.yml").read_text()
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    missing = sorted(p for p in pages if f": {p}" not in nav)
    assert not missing, f"pages not in mkdocs.yml's nav: {missing}"


def test_readme_is_short():
    lines = (REPO / "README.md").read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: the details belong in docs/"


def test_readme_starts_with_the_two_commands():
    text = (REPO / "README.md").read_text()
    first_block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first_block, "README.md has no sh block"
    commands = [line.split("#")[0].strip() for line in first_block[1].splitlines() if line.strip()]
    assert commands[:2] == ["make example", "make test"], commands


@pytest.mark.parametrize("path", user_text(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_commit_hash(path: Path):
    found = [(n, m[0]) for n, line in enumerate(path.read_text().splitlines(), 1)
             for m in COMMIT_HASH.finditer(line)]
    assert not found, (f"{path.relative_to(REPO)}: commit hashes {found}: put figures with their commits in "
                       f"bench/results/history/*.json, and the latest figures in the text without them")


def test_commit_hash_pattern():
    assert COMMIT_HASH.search("measured at 81227ed gave")
    assert COMMIT_HASH.search("(c2c4e8f)")
    for text in ("0x88b5", "00:00:00:00:01:01", "deadbeef-free", "fe80::1a2b3c4d", "1234567", "abcdefab", "crash-3423...b439"):
        assert not COMMIT_HASH.search(text), text
