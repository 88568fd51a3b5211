"""Tracer: tasks from a domain's tools, one stage after another.

The pipeline, in the order a build runs it (one module per stage; a stage's helpers sit in
the folder named for it):

1. `graph` - the tool dependency graph (`graph/render.py` draws it);
2. `walks` - goal-first random walks over the graph, split into test and train pools;
3. `ground` - each walk on real entities: customers screened (`ground/screen.py`), argument
   values searched (`ground/search.py`, `ground/arguments.py`, `ground/fill.py`) over what
   a `ground/scene.py` has seen;
4. `write` - the customer's side of a grounded trace: instruction, facts, requests;
5. `feel` - a feeling in words (`feel/cues.py`), mapped to an emotion condition; the test set's
   coverage (`feel/coverage.py`);
6. `validate` - every check a task must pass (`oracle.py` replays gold actions);
7. `select` - the accepted tasks, selected and exported.

`build` runs them all; `profile` is the build context of one domain (made once and passed to
every stage), `declaration` what a domain declares for the Tracer (`Domain.tracer`),
`records` and `jsonl` the records the stages hand each other and their files. Each stage is
a plain function from the previous stage's JSONL file to its own (see `docs/tracer.md`).
Importing this package is cheap: it loads no domain and no model.
"""
