"""Run a coroutine to completion from synchronous code, even inside a running event loop.

`asyncio.run` refuses to start while a loop is running in the thread, which is always the
case in Jupyter. There the coroutine gets a fresh loop in a helper thread, and the caller
blocks until it is done, exactly as it would outside a notebook.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_in_loop(coro: Coroutine[Any, Any, T]) -> T:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tau-emotion") as pool:
        return pool.submit(asyncio.run, coro).result()
