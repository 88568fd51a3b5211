"""Framework cost against an endpoint: CPU per model request, achieved request rate, memory.

Runs the CLI as users run it (``tau-emotion run`` in a subprocess) with a tool-calling agent
against a scripted OpenAI-compatible endpoint in a separate process
(`benchmarks/scripted_endpoint.py`, fixed latency) and the scripted emotional user, so every
request is one agent step. The user never walks away (``--no-user-exit``) and every episode
runs to ``--max-steps``: all episodes have the same length, which keeps the end-of-run tail
(fewer episodes than slots in flight) from diluting the rate.

Reported per concurrency (episodes in flight = requests in flight):

- CPU per request: the run process's user + system CPU (from ``wait4``) over the requests
  the endpoint served, all in (start-up, imports, database load, the end-of-run metrics and
  report included); and "in run": sampled from ``/proc`` every 20 ms, from the first sample
  that saw a request to the first that saw them all, which leaves out the fixed costs;
- achieved vs ideal request rate: requests over the window from the first to the last
  request, against ``concurrency / latency``;
- peak memory: the run process's maximum RSS (``wait4``), and the largest RSS sampled while
  episodes were playing (the end-of-run metrics and HTML report come after).

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
from typing import Any

from bench_args import (
    QUICK_RULE,
    fill_defaults,
    int_at_least,
    output_file,
    positive_float,
    positive_int,
    write_output,
)

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
    rss_in_run_mb: float
    """The largest RSS sampled while episodes played (before the end-of-run report)."""
    steady_ms: float | None
    """CPU per request while requests flow: from the first sample that saw a request to the
    first that saw them all, so start-up and the end-of-run report are left out."""

    def rate(self) -> float:
        # Episodes advance in waves of `concurrency` requests; the window runs from the first
        # wave's arrival to the last one's, so it spans all requests but one wave.
        done = self.requests - self.concurrency
        return done / self.window_s if self.window_s > 0 and done > 0 else 0.0


SAMPLE_S = 0.02
TICK_S = 1 / os.sysconf("SC_CLK_TCK")


PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20


def process_cpu_rss(pid: int) -> tuple[float, float] | None:
    """User + system CPU seconds and resident MB of a running process (None once gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # fields 14 and 15 (utime, stime) and 24 (rss, in pages) of proc(5)
    return (int(fields[11]) + int(fields[12])) * TICK_S, int(fields[21]) * PAGE_MB


def steady_ms_per_request(samples: list[tuple[float, int]], total: int) -> float | None:
    flowing = [(cpu, n) for cpu, n in samples if n > 0]
    done = [(cpu, n) for cpu, n in flowing if n >= total]
    if not flowing or not done or done[0][1] - flowing[0][1] < 1:
        return None
    (cpu_a, n_a), (cpu_b, n_b) = flowing[0], done[0]
    return 1000 * (cpu_b - cpu_a) / (n_b - n_a)


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
    log = out.with_suffix(".log")
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with log.open("w") as err:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=env)
        # Sample the run's CPU (from /proc) against the requests served, so that the CPU of
        # the episodes can be told apart from start-up and the end-of-run report.
        samples: list[tuple[float, int]] = []
        rss: list[tuple[float, int]] = []
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            sample = process_cpu_rss(proc.pid)
            if sample is not None:
                requests = int(endpoint.get("/stats")["requests"])
                samples.append((sample[0], requests))
                rss.append((sample[1], requests))
            time.sleep(SAMPLE_S)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"tau-emotion run failed ({proc.returncode}): {log.read_text()[-2000:]}")
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
        steady_ms=steady_ms_per_request(samples, int(stats["requests"])),
        # while episodes play: before the last request (the metrics and report come after)
        rss_in_run_mb=max((mb for mb, n in rss if n < int(stats["requests"])), default=0.0),
        peak_rss_mb=usage.ru_maxrss / 1024,  # KiB on Linux
    )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


# `tau-emotion run` refuses fewer messages per episode than this (RunConfig.max_steps).
MIN_STEPS = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=QUICK_RULE)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="A few seconds, for the tests: 20 ms latency, 1 and 8 in flight, 12 steps, "
        "lengths 6 and 24, fewer episodes.",
    )
    # Checked here, not by the CLI each run starts: a value it refuses would only come back
    # as a failed run, and a latency of 0 has no ideal rate to compare with.
    parser.add_argument(
        "--latency",
        type=positive_float,
        default=None,
        help="Endpoint latency in seconds (default 0.2; 0.02 under --quick).",
    )
    parser.add_argument(
        "--concurrency",
        type=positive_int,
        nargs="+",
        default=None,
        help="Episodes in flight, one run each (default 1 16 64 256; 1 8 under --quick).",
    )
    parser.add_argument(
        "--max-steps",
        type=int_at_least(MIN_STEPS),
        default=None,
        help="Messages per episode (default 62; 12 under --quick).",
    )
    parser.add_argument(
        "--lengths",
        type=int_at_least(MIN_STEPS),
        nargs="+",
        default=None,
        help="max-steps sweep (default 12 62 200; 6 24 under --quick).",
    )
    parser.add_argument("--json", type=output_file, help="Also write the figures here.")
    args = parser.parse_args()
    fill_defaults(
        args,
        {
            "latency": 0.2,
            "concurrency": [1, 16, 64, 256],
            "max_steps": 62,
            "lengths": [12, 62, 200],
        },
        quick={"latency": 0.02, "concurrency": [1, 8], "max_steps": 12, "lengths": [6, 24]},
    )

    figures: dict[str, Any] = {"rates": [], "lengths": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        endpoint = Endpoint(args.latency)
        try:
            startup = run_cli(endpoint, root / "startup", 1, 1, 2)
            figures["startup_cpu_s"] = startup.cpu_s
            print(f"endpoint latency {args.latency * 1000:.0f} ms; {load()}")
            print(
                f"a one-request run: {startup.cpu_s:.2f} s CPU (start-up, imports, database, "
                f"report), {startup.peak_rss_mb:.0f} MB peak RSS"
            )
            print(
                "in flight | episodes | requests | CPU/request all-in | CPU/request in run "
                "| achieved rate | ideal rate | % of ideal | peak RSS | RSS while playing"
            )
            for c in args.concurrency:
                episodes = 8 if c == 1 and not args.quick else max(c, 2)
                m = run_cli(endpoint, root / f"c{c}", c, episodes, args.max_steps)
                ideal = c / args.latency
                print(
                    f"{c:9d} | {m.episodes:8d} | {m.requests:8d} | "
                    f"{1000 * m.cpu_s / m.requests:15.2f} ms | {fmt(m.steady_ms):>15} | "
                    f"{m.rate():11.1f}/s | {ideal:8.1f}/s | {100 * m.rate() / ideal:9.1f}% | "
                    f"{m.peak_rss_mb:8.0f} MB | {m.rss_in_run_mb:.0f} MB"
                )
                figures["rates"].append(
                    {
                        "concurrency": c,
                        "requests": m.requests,
                        "cpu_ms_per_request": 1000 * m.cpu_s / m.requests,
                        "cpu_ms_per_request_in_run": m.steady_ms,
                        "rate": m.rate(),
                        "ideal_rate": ideal,
                        "peak_rss_mb": m.peak_rss_mb,
                        "rss_while_playing_mb": m.rss_in_run_mb,
                    }
                )
            print(f"after the rate runs: {load()}")
        finally:
            endpoint.close()

        # Conversation length: CPU per request at one in flight, low latency (CPU, not waiting).
        endpoint = Endpoint(0.002)
        try:
            print("2 ms endpoint, one in flight: max steps | requests | CPU/request in run")
            for steps in args.lengths:
                m = run_cli(endpoint, root / f"len{steps}", 1, 2 if args.quick else 8, steps)
                print(f"{steps:9d} | {m.requests:8d} | {fmt(m.steady_ms):>15}")
                figures["lengths"].append(
                    {"max_steps": steps, "requests": m.requests, "cpu_ms_in_run": m.steady_ms}
                )
        finally:
            endpoint.close()
    if args.json:
        write_output(args.json, json.dumps(figures, indent=2))


def fmt(ms: float | None) -> str:
    return "n/a" if ms is None else f"{ms:.2f} ms"


if __name__ == "__main__":
    main()
