"""Every file under a folder with its bytes: what a refused command must leave as it was."""

from __future__ import annotations

from pathlib import Path


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """{relative POSIX path: bytes} for every file under `folder` (empty if it has none)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
