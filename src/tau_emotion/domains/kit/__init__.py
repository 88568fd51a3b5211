"""The domain kit: what every domain's tools and generators share, written once.

- `identity`: the identity-lookup family (`find_*_by_email`, `find_*_by_phone`): one way to
  match what a caller says against the people of a domain, with the domain's own refusals.
- `handoff`: the `transfer_to_human_agents` desk and the hand-off records it writes.
- `names`: the shared pool of given and family names generators draw people from.
- `split`: the base of generators that write a train and an eval database.
- `package`: `domain_package`, the `Domain` of a domain folder from its parts (its
  ``__init__.py`` is one call).

A domain keeps what the agent reads (tool names, docstrings, refusal wording) and what its
snapshots hold; the kit holds the bodies. `tau_emotion.domains.common` keeps the smaller
helpers (ids, money, normalisers).
"""
