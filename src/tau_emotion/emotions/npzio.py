"""Byte-stable `.npz` files.

`numpy.savez_compressed` stamps each member with the current time, so two identical saves
differ on disk. Artifacts here are committed and must be reproducible, so members are written
in a fixed order with a fixed timestamp.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

_EPOCH = (1980, 1, 1, 0, 0, 0)
_META_KEY = "__meta__"


def save_npz(path: Path, arrays: Mapping[str, NDArray[Any]], meta: Mapping[str, Any]) -> None:
    """Write arrays (sorted by name) plus a JSON metadata member, deterministically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    members: dict[str, NDArray[Any]] = dict(sorted(arrays.items()))
    members[_META_KEY] = np.frombuffer(
        json.dumps(dict(meta), sort_keys=True).encode(), dtype=np.uint8
    )
    tmp = path.with_suffix(path.suffix + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, array in members.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.ascontiguousarray(array), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buffer.getvalue(), compresslevel=9)
    tmp.replace(path)


def load_npz(path: Path) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
    """Arrays and metadata written by `save_npz` (no pickle)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files if name != _META_KEY}
        meta: dict[str, Any] = (
            json.loads(data[_META_KEY].tobytes().decode()) if _META_KEY in data.files else {}
        )
    return arrays, meta
