"""The runtime library cache (backend/runtime_cache.py): what its key covers, where the library
goes when the cache cannot be used, and that an edit during a build never reaches the cache."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from p4odp.backend import runtime_cache
from p4odp.backend.runtime_cache import build_key, cache_dir, runtime_library


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A tiny runtime: one source that includes a header from an outside folder."""
    (tmp_path / "runtime" / "core").mkdir(parents=True)
    (tmp_path / "ext").mkdir()
    (tmp_path / "ext" / "ext.h").write_text("#define EXT 1\n")
    (tmp_path / "runtime" / "core" / "a.c").write_text('#include "ext.h"\nint a(void) { return EXT; }\n')
    return tmp_path


def _key_of(tree: Path, cflags: list[str]) -> str:
    return build_key(["cc"], cflags, [str(tree / "runtime" / "core" / "a.c")], tree / "runtime")


@pytest.mark.parametrize("flags", [["-I{ext}"], ["-I", "{ext}"], ["-isystem", "{ext}"], ["-iquote{ext}"],
                                   ["-include", "{ext}/ext.h"]])
def test_a_header_edit_changes_the_key_however_its_folder_is_given(tree, flags, monkeypatch):
    monkeypatch.chdir("/")  # `-I DIR` once read the current folder (here: the whole file system)
    cflags = [f.format(ext=tree / "ext") for f in flags]
    before = _key_of(tree, cflags)
    assert _key_of(tree, cflags) == before  # stable while nothing changes
    (tree / "ext" / "ext.h").write_text("#define EXT 2\n")
    assert _key_of(tree, cflags) != before


def test_cpath_headers_are_in_the_key(tree, monkeypatch):
    monkeypatch.setenv("CPATH", str(tree / "ext"))
    before = _key_of(tree, [])
    (tree / "ext" / "ext.h").write_text("#define EXT 2\n")
    assert _key_of(tree, []) != before


def _cc_counting(tree: Path, edit: str = "") -> list[str]:
    """A compiler that logs each compilation (and may edit a header while it compiles)."""
    script = tree / "cc.sh"
    script.write_text(f"#!/bin/sh\ncase \" $* \" in *' -c '*) echo x >> {tree}/count; {edit} ;; esac\nexec cc \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return [str(script)]


def _library(tree: Path, compiler: list[str], private: Path) -> Path:
    return runtime_library(compiler, [f"-I{tree / 'ext'}"], [str(tree / "runtime" / "core" / "a.c")],
                           tree / "runtime", private)


def _count(tree: Path) -> int:
    return len((tree / "count").read_text().split()) if (tree / "count").exists() else 0


def test_the_library_is_built_once_and_shared(tree, monkeypatch):
    monkeypatch.setenv("P4ODP_CACHE_DIR", str(tree / "cache"))
    compiler = _cc_counting(tree)
    (tree / "out1").mkdir()
    (tree / "out2").mkdir()
    first = _library(tree, compiler, tree / "out1")
    assert first.is_file() and first.is_relative_to(tree / "cache") and _count(tree) == 1
    assert _library(tree, compiler, tree / "out2") == first and _count(tree) == 1


def test_an_unusable_cache_folder_builds_privately(tree, monkeypatch):
    (tree / "not-a-folder").write_text("")
    monkeypatch.setenv("P4ODP_CACHE_DIR", str(tree / "not-a-folder"))
    (tree / "out").mkdir()
    library = _library(tree, ["cc"], tree / "out")
    assert library == tree / "out" / "libp4odp-runtime.a" and library.is_file()


def test_no_home_folder_means_no_cache(monkeypatch):
    for variable in ("P4ODP_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(variable, raising=False)
    # Without HOME and a password entry, expanduser leaves "~" as it is: a folder named "~" here.
    monkeypatch.setattr(runtime_cache.os.path, "expanduser", lambda path: path)
    assert cache_dir() is None


def test_a_source_edited_during_the_build_is_not_cached(tree, monkeypatch):
    monkeypatch.setenv("P4ODP_CACHE_DIR", str(tree / "cache"))
    compiler = _cc_counting(tree, edit=f"echo '#define EXT 3' > {tree}/ext/ext.h")
    (tree / "out").mkdir()
    library = _library(tree, compiler, tree / "out")
    assert library == tree / "out" / "libp4odp-runtime.a"
    assert not list((tree / "cache").rglob("*.a"))  # under the old key these objects would be wrong
    assert _library(tree, ["cc"], tree / "out").is_relative_to(tree / "cache")  # now stable: shared
