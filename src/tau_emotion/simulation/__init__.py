"""Participants (agents, simulated users) and the episode loop."""
