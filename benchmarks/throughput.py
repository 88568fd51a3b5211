"""Framework cost against an endpoint: CPU per model request, achieved request rate, memory.

Runs the CLI as users run it (``tau-emotion run`` in a subprocess) with a tool-calling agent
against a scripted OpenAI-compatible endpoint in a separate process
(`benchmarks/scripted_endpoint.py`, fixed latency) and the scripted emotional user, so every
request is one agent step. The user never walks away (``--no-user-exit``) and every episode
runs to ``--max-steps``: all episodes have the same length, which keeps the end-of-run tail
(fewer episodes than slots in flight) from diluting the rate.

Reported per concurrency (episodes in flight = requests in flight):

- CPU per request: the run process's user + system CPU (from ``wait4``) over the requests
  the endpoint served, all in, and without the fixed start-up (imports, database load,
  metrics), which a one-request run measures;
- achieved vs ideal request rate: requests over the window from the first to the last
  request, against ``concurrency / latency``;
- peak memory: the run process's maximum RSS.

A second table holds CPU per request against conversation length (``--max-steps``), which
must stay flat. The load average is printed with every table: the figures are only as quiet
as the machine.

    python benchmarks/throughput.py                 # 1, 16, 64, 256 in flight at 200 ms
    python benchmarks/throughput.py --quick         # a few seconds; the test suite runs this
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass
class Measure:
    concurrency: int
    max_steps: int
    episodes: int
    requests: int
    cpu_s: float
    wall_s: float
    window_s: float
    peak_rss_mb: float

    def rate(self) -> float:
        # Episodes advance in waves of `concurrency` requests; the window runs from the first
        # wave's arrival to the last one's, so it spans all requests but one wave.
        done = self.requests - self.concurrency
        return done / self.window_s if self.window_s > 0 and done > 0 else 0.0


class Endpoint:
    """The scripted endpoint process; its /stats and /reset are plain GETs."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "scripted_endpoint.py"), "--latency", str(latency)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"endpoint did not start: {line!r}")
        self.base_url = f"http://127.0.0.1:{int(line.split()[1])}/v1"

    def get(self, path: str) -> dict[str, float]:
        handler = urllib.request.ProxyHandler({})  # loopback never goes through a proxy
        with urllib.request.build_opener(handler).open(self.base_url + path, timeout=10) as r:
            data: dict[str, float] = json.loads(r.read())
        return data

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def run_cli(
    endpoint: Endpoint, out: Path, concurrency: int, episodes: int, max_steps: int
) -> Measure:
    """One `tau-emotion run` against the endpoint; CPU and RSS come from wait4."""
    trials = max(1, episodes // 8)
    num_tasks = -(-episodes // trials)
    # `python -m` runs the same entry point as the `tau-emotion` script, and honours a
    # PYTHONPATH pointing at another checkout (how the "before" figures were taken).
    command = [
        sys.executable,
        "-m",
        "tau_emotion.cli.main",
        "run",
        "--domain",
        "airline",
        "--num-tasks",
        str(num_tasks),
        "--trials",
        str(trials),
        "--agent-model",
        "scripted",
        "--agent-base-url",
        endpoint.base_url,
        "--concurrency",
        str(concurrency),
        "--max-steps",
        str(max_steps),
        "--no-user-exit",
        "--out",
        str(out),
    ]
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost", "OPENAI_API_KEY": "sk-bench"}
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        env.pop(var, None)
    endpoint.get("/reset")
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise RuntimeError(f"tau-emotion run failed ({proc.returncode}): {stderr[-2000:]}")
    stats = endpoint.get("/stats")
    lines = (out / "results.jsonl").read_text().splitlines()
    return Measure(
        concurrency=concurrency,
        max_steps=max_steps,
        episodes=len(lines),
        requests=int(stats["requests"]),
        cpu_s=usage.ru_utime + usage.ru_stime,
        wall_s=wall,
        window_s=stats["last"] - stats["first"],
        peak_rss_mb=usage.ru_maxrss / 1024,  # KiB on Linux
    )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="A few seconds, for the tests.")
    parser.add_argument("--latency", type=float, default=0.2, help="Endpoint latency (s).")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64, 256])
    parser.add_argument("--max-steps", type=int, default=62, help="Messages per episode.")
    parser.add_argument(
        "--lengths", type=int, nargs="+", default=[12, 62, 200], help="max-steps sweep."
    )
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args()
    if args.quick:
        args.latency, args.concurrency, args.max_steps, args.lengths = 0.02, [1, 8], 12, [6, 24]

    figures: dict[str, list[dict[str, float]]] = {"rates": [], "lengths": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        endpoint = Endpoint(args.latency)
        try:
            # the fixed cost of a run, to take out of the marginal figures: the cheaper of two
            startup = min(
                (run_cli(endpoint, root / f"startup{i}", 1, 1, 2) for i in range(2)),
                key=lambda m: m.cpu_s,
            )
            print(f"endpoint latency {args.latency * 1000:.0f} ms; {load()}")
            print(
                f"start-up (one request): {startup.cpu_s:.2f} s CPU, "
                f"{startup.peak_rss_mb:.0f} MB peak RSS"
            )
            print(
                "in flight | episodes | requests | CPU/request all-in | CPU/request marginal "
                "| achieved rate | ideal rate | % of ideal | peak RSS"
            )
            for c in args.concurrency:
                episodes = 8 if c == 1 and not args.quick else max(c, 2)
                m = run_cli(endpoint, root / f"c{c}", c, episodes, args.max_steps)
                ideal = c / args.latency
                marginal = (m.cpu_s - startup.cpu_s) / max(1, m.requests - startup.requests)
                print(
                    f"{c:9d} | {m.episodes:8d} | {m.requests:8d} | "
                    f"{1000 * m.cpu_s / m.requests:15.2f} ms | {1000 * marginal:17.2f} ms | "
                    f"{m.rate():9.1f}/s | {ideal:8.1f}/s | {100 * m.rate() / ideal:9.1f}% | "
                    f"{m.peak_rss_mb:.0f} MB"
                )
                figures["rates"].append(
                    {
                        "concurrency": c,
                        "requests": m.requests,
                        "cpu_ms_per_request": 1000 * m.cpu_s / m.requests,
                        "marginal_cpu_ms_per_request": 1000 * marginal,
                        "rate": m.rate(),
                        "ideal_rate": ideal,
                        "peak_rss_mb": m.peak_rss_mb,
                    }
                )
            print(f"after the rate runs: {load()}")
        finally:
            endpoint.close()

        # Conversation length: CPU per request at one in flight, low latency (CPU, not waiting).
        endpoint = Endpoint(0.002)
        try:
            print("max steps | requests | CPU/request marginal")
            for steps in args.lengths:
                m = run_cli(endpoint, root / f"len{steps}", 1, 2 if args.quick else 8, steps)
                marginal = (m.cpu_s - startup.cpu_s) / max(1, m.requests - startup.requests)
                print(f"{steps:9d} | {m.requests:8d} | {1000 * marginal:17.2f} ms")
                figures["lengths"].append(
                    {"max_steps": steps, "requests": m.requests, "marginal_cpu_ms": 1000 * marginal}
                )
        finally:
            endpoint.close()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
