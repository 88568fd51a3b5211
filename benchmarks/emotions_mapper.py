"""Figures for docs/emotions.md: the mapper on the independent set, every option, speed, memory.

    .venv/bin/python benchmarks/emotions_mapper.py [--json out.json] [--skip OPTION ...]
    .venv/bin/python benchmarks/emotions_mapper.py --quick     # what the test suite runs

- Accuracy on the independent evaluation set (benchmarks/emotion_eval: second-person
  descriptions, first-person messages, and the negation/contrast cases among them), for:
  the shipped default; its embedding half and its n-gram half alone; the same classifier
  trained without its phrase-bank augmentation (written anchors only); the previous default
  (trained on phrase-bank anchors only); the full all-MiniLM-L6-v2 (sentence-transformers,
  the `minilm` extra); and an
  OpenAI-compatible embeddings endpoint (a loopback server serving that MiniLM, or your own
  with --endpoint-url/--endpoint-model). Every trained option learns from the shipped anchors.
- Anchor cross-validation: how the settings were chosen, on the anchors alone.
- Speed: `Mapper.map` throughput of the shipped default on the evaluation texts, after a
  warm-up; load time in a fresh process; peak resident memory (VmHWM) of that process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench_args import (
    QUICK_RULE,
    fill_defaults,
    http_url,
    int_at_least,
    output_file,
    positive_int,
    refuse_under_quick,
    write_output,
)

from tau_emotion.emotions.anchors import AnchorSet, default_anchor_set
from tau_emotion.emotions.classifier import TrainConfig
from tau_emotion.emotions.defaults import DEFAULT_LEXICAL_WEIGHT
from tau_emotion.emotions.embedders import Embedder, default_embedder
from tau_emotion.emotions.evalset import REPO_EVAL_DIR, EvalSet, EvalSetError, load_eval_set
from tau_emotion.emotions.generator import generate_anchor_set
from tau_emotion.emotions.mapper import Mapper
from tau_emotion.emotions.training import (
    HeadReport,
    anchor_cross_validation,
    independent_evaluation,
    report_text,
    train_artifact,
)

LOAD_AND_MAP = """
import json, sys, time
t0 = time.perf_counter()
from tau_emotion.emotions.mapper import Mapper
mapper = Mapper.default()
mapper.map(["warm-up text so every array is touched"])
load_s = time.perf_counter() - t0
texts = json.loads(sys.stdin.read())
mapper.map(texts[:500])
t1 = time.perf_counter()
mapper.map(texts)
map_s = time.perf_counter() - t1
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork + exec.
status = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
print(json.dumps({"load_s": load_s, "texts": len(texts), "map_s": map_s,
                  "texts_per_s": len(texts) / map_s, "peak_rss_mb": int(status) / 1024,
                  "torch_loaded": "torch" in sys.modules}))
"""


def speed(texts: list[str], n: int) -> dict[str, float]:
    batch = (texts * (n // len(texts) + 1))[:n]
    out = subprocess.run(
        [sys.executable, "-c", LOAD_AND_MAP],
        input=json.dumps(batch),
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def trained(
    embedder: Embedder, anchors: AnchorSet, lexical_weight: float, config: TrainConfig | None = None
) -> Mapper:
    artifact = train_artifact(embedder, anchors, config or TrainConfig())
    return Mapper(embedder, artifact, anchors, lexical_weight=lexical_weight)


@contextmanager
def minilm_endpoint() -> Iterator[str]:
    """A loopback OpenAI-compatible /v1/embeddings server backed by the packaged MiniLM."""
    from tau_emotion.emotions.embedders import SentenceTransformerEmbedder

    model = SentenceTransformerEmbedder()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            vectors = model.embed(texts)
            data = [
                {"object": "embedding", "index": i, "embedding": [float(x) for x in row]}
                for i, row in enumerate(vectors)
            ]
            out = json.dumps({"object": "list", "data": data, "model": body["model"]}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def options(args: argparse.Namespace, servers: ExitStack) -> dict[str, Callable[[], Mapper]]:
    """Every mapper the docs compare, built lazily (some train for minutes).

    A loopback endpoint is entered on `servers`, so it keeps serving while the mapper trained
    through it is evaluated, and closes when the caller's stack does.
    """
    static = default_embedder
    shipped = default_anchor_set
    w = DEFAULT_LEXICAL_WEIGHT

    def minilm() -> Mapper:
        from tau_emotion.emotions.embedders import SentenceTransformerEmbedder

        return trained(SentenceTransformerEmbedder(), shipped(), w)

    def endpoint() -> Mapper:
        from tau_emotion.emotions.embedders import OpenAIEmbedder

        if args.endpoint_url:
            return trained(
                OpenAIEmbedder(args.endpoint_model, base_url=args.endpoint_url), shipped(), w
            )
        url = servers.enter_context(minilm_endpoint())
        return trained(OpenAIEmbedder("all-MiniLM-L6-v2", base_url=url), shipped(), w)

    return {
        "default (static + n-gram blend)": Mapper.default,
        "embedding half only": lambda: Mapper.default(lexical_weight=0.0),
        "n-gram half only": lambda: Mapper.default(lexical_weight=1.0),
        "written anchors only (no phrase-bank augmentation)": lambda: trained(
            static(), shipped(), w, TrainConfig(augment=0)
        ),
        "previous default (phrase-bank anchors only)": lambda: trained(
            static(), generate_anchor_set(16), w, TrainConfig(augment=0)
        ),
        "MiniLM (sentence-transformers)": minilm,
        "OpenAI-compatible endpoint": endpoint,
    }


def quick_eval_set(full: EvalSet, per_part: int) -> EvalSet:
    return EvalSet(full.descriptions[::31][:per_part], full.messages[::7][:per_part])


def measure_options(
    args: argparse.Namespace,
    eval_set: EvalSet,
    chosen: dict[str, Callable[[], Mapper]],
    figures: dict[str, Any],
) -> None:
    """Build and evaluate each option not skipped; its figures go into `figures`."""
    if args.quick:
        chosen = {name: build for name, build in chosen.items() if name.startswith("default")}
    for name, build in chosen.items():
        if any(name.startswith(prefix) for prefix in args.skip):
            continue
        t = time.perf_counter()
        try:
            mapper = build()
        except (ImportError, OSError) as exc:  # e.g. the minilm extra is not installed
            print(f"{name}: skipped ({type(exc).__name__}: {exc})\n")
            continue
        reports: dict[str, HeadReport] = independent_evaluation(mapper, eval_set)
        for part, report in reports.items():
            print(report_text(f"{name} / {part}", report))
        print(f"({time.perf_counter() - t:.0f} s)\n")
        figures["options"][name] = {part: r.to_json() for part, r in reports.items()}


def eval_folder(text: str) -> Path:
    """An evaluation folder that loads, checked while parsing (before minutes of training)."""
    folder = Path(text)
    try:
        load_eval_set(folder)
    except EvalSetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=QUICK_RULE)
    parser.add_argument("--json", type=output_file, default=None, help="write all figures here")
    parser.add_argument(
        "--eval-set", type=eval_folder, default=REPO_EVAL_DIR, help="evaluation folder"
    )
    parser.add_argument(
        "--texts",
        type=positive_int,
        default=None,
        help="texts for the speed run (default 20000; 2000 under --quick)",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        help="skip options (or anchor cross-validation) whose name starts with this",
    )
    # --quick runs the shipped default only, without cross-validation: the options below
    # would be silently ignored there, so they are refused with it (`refuse_under_quick`).
    parser.add_argument(
        "--endpoint-url",
        type=http_url,
        default=None,
        help="your own embeddings endpoint (not with --quick)",
    )
    parser.add_argument(
        "--endpoint-model",
        default=None,
        help="its model (default text-embedding-3-small; not with --quick)",
    )
    # One fold would train on nothing and hold every anchor out.
    parser.add_argument(
        "--folds",
        type=int_at_least(2),
        default=None,
        help="anchor cross-validation folds (default 5; not with --quick)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="shipped default only, few texts (for the tests)"
    )
    args = parser.parse_args()
    refuse_under_quick(parser, args, "endpoint_url", "endpoint_model", "folds")
    fill_defaults(
        args,
        {"texts": 20000, "endpoint_model": "text-embedding-3-small", "folds": 5},
        quick={"texts": 2000},
    )

    eval_set = load_eval_set(args.eval_set)
    if args.quick:
        eval_set = quick_eval_set(eval_set, 40)
    figures: dict[str, Any] = {"options": {}}
    with ExitStack() as servers:
        measure_options(args, eval_set, options(args, servers), figures)
    if not args.quick and not any("anchor cross-validation".startswith(p) for p in args.skip):
        t = time.perf_counter()
        cv = anchor_cross_validation(default_embedder(), default_anchor_set(), folds=args.folds)
        print(report_text(f"anchor cross-validation ({args.folds} folds)", cv))
        print(f"({time.perf_counter() - t:.0f} s)\n")
        figures["anchor_cross_validation"] = cv.to_json()
    texts = [t.text for t in eval_set.descriptions + eval_set.messages]
    figures["speed"] = s = speed(texts, args.texts)
    print(
        f"speed: {s['texts_per_s']:.0f} texts/s over {s['texts']} texts; "
        f"load {s['load_s'] * 1000:.0f} ms; peak RSS {s['peak_rss_mb']:.0f} MB; "
        f"torch loaded: {s['torch_loaded']}"
    )
    if args.json is not None:
        write_output(args.json, json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
