"""Rewards and metrics over stored episodes."""
