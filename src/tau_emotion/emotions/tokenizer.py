"""A pure-Python lower-case WordPiece tokenizer (BERT's scheme) over a shipped vocabulary.

Runtime needs no `tokenizers`/`transformers`: text is lower-cased, accents stripped, split into
words and punctuation, and each word is cut greedily into the longest vocabulary pieces
("unbelievable" -> "un", "##bel", "##ie", "##vable"). Words that cannot be cut are dropped
(a static embedding has nothing useful to say about [UNK]). Word results are memoised, which
is what makes the tokenizer fast: customer texts reuse a small working vocabulary.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Final

_WORD_RE: Final[re.Pattern[str]] = re.compile(r"[^\W_]+|[^\w\s]|_")
_MAX_WORD_CHARS: Final[int] = 100
_CACHE_LIMIT: Final[int] = 200_000


def _strip_accents(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn"
    )


def read_vocab(path: Path) -> list[str]:
    """One token per line; the id of a token is its line number (a final newline is optional)."""
    vocab = path.read_text(encoding="utf-8").split("\n")
    if vocab and vocab[-1] == "":
        vocab.pop()
    return vocab


class WordPieceTokenizer:
    """Text -> vocabulary ids; `vocab[i]` is the token of id i."""

    def __init__(self, vocab: Sequence[str]) -> None:
        self.vocab = list(vocab)
        self._index = {token: i for i, token in enumerate(self.vocab)}
        self._cache: dict[str, tuple[int, ...]] = {}

    def split_words(self, text: str) -> list[str]:
        text = text.lower()
        if not text.isascii():
            text = _strip_accents(text)
        return _WORD_RE.findall(text)

    def word_ids(self, word: str) -> tuple[int, ...]:
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        ids = self._wordpiece(word)
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[word] = ids
        return ids

    def _wordpiece(self, word: str) -> tuple[int, ...]:
        if len(word) > _MAX_WORD_CHARS:
            return ()
        ids: list[int] = []
        start = 0
        index = self._index
        while start < len(word):
            end = len(word)
            found = -1
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = index.get(piece, -1)
                if found >= 0:
                    break
                end -= 1
            if found < 0:
                # BERT maps the whole word to [UNK] when any part fails; we drop it.
                return ()
            ids.append(found)
            start = end
        return tuple(ids)

    def ids(self, text: str) -> list[int]:
        out: list[int] = []
        for word in self.split_words(text):
            out.extend(self.word_ids(word))
        return out
