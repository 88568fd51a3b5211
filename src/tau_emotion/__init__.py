"""tau-emotion: benchmark and training data for tool-calling agents serving emotional customers."""

__version__ = "0.1.0"
