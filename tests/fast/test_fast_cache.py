"""The numba cache's folder is named by a digest of every source a kernel may read, so a change
to a table a kernel reads as a constant (not only to the kernel's own module) compiles afresh
instead of loading a stale kernel (the failure the differential tests caught)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taverntable.fast import jit

PACKAGE = Path(jit.__file__).resolve().parent.parent


def copy_sources(to: Path) -> Path:
    for package in jit.KERNEL_SOURCES:
        shutil.copytree(PACKAGE / package, to / package, ignore=shutil.ignore_patterns("*.nb?"))
    return to


def test_the_digest_changes_with_any_module_a_kernel_may_read(tmp_path: Path) -> None:
    root = copy_sources(tmp_path)
    before = jit.source_digest(root)
    assert jit.source_digest(root) == before  # the same sources, the same folder
    table = root / "games" / "tonk" / "spreads.py"  # a table a Tonk kernel reads as constants
    table.write_text(table.read_text() + "\n# changed\n")
    assert jit.source_digest(root) != before


def test_the_folder_is_under_numba_cache_dir_or_the_users_cache() -> None:
    digest = jit.source_digest()
    assert jit.cache_folder({"NUMBA_CACHE_DIR": "/tmp/n"}) == Path("/tmp/n") / f"numba-{digest}"
    assert jit.cache_folder({"XDG_CACHE_HOME": "/tmp/x"}) == Path(
        f"/tmp/x/taverntable/numba-{digest}"
    )
    assert jit.cache_folder({"HOME": str(Path.home())}).parent == Path.home() / ".cache/taverntable"


@pytest.mark.skipif(not jit.COMPILED, reason="numba is not installed (the fast extra)")
def test_compiled_kernels_are_cached_in_that_folder(tmp_path: Path) -> None:
    code = (
        "from taverntable.fast import jit\n"
        "assert jit.bit_length(1 << 40) == 41\n"
        "print(jit._NUMBA.config.CACHE_DIR)\n"
    )
    env = {"NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    folder = Path(out.stdout.strip())
    assert folder.parent == tmp_path and folder.name == f"numba-{jit.source_digest()}"
    assert any(folder.rglob("*.nbi")), "numba wrote no index into the digest's folder"
