"""Data shipped with `tau_emotion.emotions`: phrase banks, anchors, embedder and classifier.

A package (not a plain folder) so that setuptools' package-data rules pick the files up.
"""
