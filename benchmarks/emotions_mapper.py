"""Figures for docs/emotions.md: held-out accuracy, hand-written accuracy, speed and memory.

    .venv/bin/python benchmarks/emotions_mapper.py [--json out.json] [--skip-heldout]

- Held-out accuracy: a fresh classifier is trained on anchors generated from the training
  sentence plans and phrase variants only, and scored on anchors generated from the held-out
  plans and variants only (`tau_emotion.emotions.generator`), with the within-family emotion
  confusion.
- Hand-written accuracy: the shipped mapper on assets/handwritten.jsonl (never trained on).
- Speed: `Mapper.map` throughput with the shipped static embedder on texts of realistic
  length (the hand-written descriptions, repeated), after a warm-up; load time of the shipped
  model in a fresh process; peak resident memory (VmHWM) of that process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

LOAD_AND_MAP = """
import time, resource, json, sys
t0 = time.perf_counter()
from tau_emotion.emotions.mapper import Mapper
mapper = Mapper.default()
mapper.map(["warm-up text so every array is touched"])
load_s = time.perf_counter() - t0
from tau_emotion.emotions.training import load_handwritten
texts = [item.text for item in load_handwritten()]
batch = (texts * (N // len(texts) + 1))[:N]
# Fresh words each round would be unrealistic; the tokenizer's word cache is part of the design.
mapper.map(batch[:1000])
t1 = time.perf_counter()
mapper.map(batch)
map_s = time.perf_counter() - t1
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork + exec.
status = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
rss_mb = int(status) / 1024
print(json.dumps({"load_s": load_s, "texts": N, "map_s": map_s,
                  "texts_per_s": N / map_s, "peak_rss_mb": rss_mb,
                  "torch_loaded": "torch" in sys.modules}))
"""


def speed(n: int) -> dict[str, float]:
    code = LOAD_AND_MAP.replace("N //", f"{n} //").replace("[:N]", f"[:{n}]")
    code = code.replace('texts": N', f'texts": {n}').replace("N / map_s", f"{n} / map_s")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, default=None, help="write all figures here")
    parser.add_argument("--texts", type=int, default=20000, help="texts for the speed run")
    parser.add_argument("--skip-heldout", action="store_true", help="skip the slow retraining")
    args = parser.parse_args()

    from tau_emotion.emotions.embedders import default_embedder
    from tau_emotion.emotions.mapper import Mapper
    from tau_emotion.emotions.training import (
        confusion_text,
        handwritten_evaluation,
        heldout_evaluation,
        report_text,
    )

    figures: dict[str, object] = {}
    if not args.skip_heldout:
        t = time.perf_counter()
        heldout = heldout_evaluation(default_embedder())
        print(report_text("held-out plans and phrase variants", heldout))
        print(confusion_text(heldout))
        print(f"(train + evaluate: {time.perf_counter() - t:.0f} s)\n")
        figures["heldout"] = heldout.to_json()
    handwritten = handwritten_evaluation(Mapper.default())
    print(report_text("hand-written descriptions", handwritten))
    print(confusion_text(handwritten))
    figures["handwritten"] = handwritten.to_json()

    figures["speed"] = speed(args.texts)
    s = figures["speed"]
    print(
        f"\nspeed: {s['texts_per_s']:.0f} texts/s over {s['texts']} texts; "
        f"load {s['load_s'] * 1000:.0f} ms; peak RSS {s['peak_rss_mb']:.0f} MB; "
        f"torch loaded: {s['torch_loaded']}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
