"""Tracer: tool graph -> walks -> grounded traces -> instructions -> feelings -> validation.

Each stage is a plain function from the previous stage's JSONL file to its own (see
`docs/tracer.md`). Importing this package is cheap: it loads no domain and no model.
"""
