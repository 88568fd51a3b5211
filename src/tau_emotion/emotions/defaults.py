"""The defaults of the emotion tools, in a module that imports nothing.

The mapper, the embedders and the anchor generators take their defaults from here, and so do
the `tau-emotion emotions` commands: `--help` shows them without loading numpy or openai, and
a caller from Python gets what the command line gives.
"""

from __future__ import annotations

from typing import Final

DEFAULT_EMBEDDER: Final[str] = "static"
"""The embedder a mapper uses unless told otherwise: the shipped one, numpy only."""
DEFAULT_KEY_ENV: Final[str] = "OPENAI_API_KEY"
"""The environment variable an OpenAI-compatible endpoint's key is read from."""

DEFAULT_K: Final[int] = 9
"""Neighbouring anchors that vote for a text's condition."""
DEFAULT_ALPHA: Final[float] = 0.5
"""Weight of the kNN vote against the classifier's head probabilities (1.0 = pure kNN)."""
DEFAULT_LEXICAL_WEIGHT: Final[float] = 0.6
"""Weight of the n-gram model against the embedding side (kNN + heads); 0 = embedding only."""

DEFAULT_SEED: Final[int] = 0
"""Seed of the template generator and of the instruction a mapping samples."""
MINIMUM_ANCHORS: Final[int] = 10
"""Distinct anchors each condition needs in a set the mapper is trained on (the anchors
command writes a set with fewer only with --partial)."""
DEFAULT_PER_CONDITION: Final[int] = 16
"""Anchors generated per condition (templates or an LLM)."""
DEFAULT_TEMPERATURE: Final[float] = 0.9
"""Sampling temperature when an LLM writes anchors: varied phrasings are the point."""
DEFAULT_MAX_ROUNDS: Final[int] = 4
"""Rounds of asking again for the conditions an LLM left short."""
DEFAULT_CONCURRENCY: Final[int] = 4
"""Parallel requests to the LLM endpoint writing anchors."""
