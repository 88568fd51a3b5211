"""Analyses over stored episode records; nothing here re-runs an episode.

One module per analysis, each a plain function from episodes (plus the tasks they ran) to a
pydantic report that the HTML report renders:

- `paired`: emotional vs neutral success, paired by task, with paired bootstrap CIs;
- `tooluse`: tool calls vs follow-up questions, and questions the agent could have looked up;
- `empathy`: agent turns that acknowledge feelings, and success with / without them;
- `policy`: every domain policy check on every trajectory;
- `failures`: fault and category of each failed episode (pre-checks, then an optional judge);
- `hallucination`: user turns stating facts the simulated user was never given.

`runs`, `stats`, `values` and `judge` are the shared plumbing. Importing this package is cheap.
"""
