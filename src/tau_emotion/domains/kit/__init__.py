"""The domain kit: what every domain's tools and generators share, written once.

- `identity`: the identity-lookup family (`find_*_by_email`, `find_*_by_phone`): one way to
  match what a caller says against the people of a domain, with the domain's own refusals.
- `handoff`: the `transfer_to_human_agents` desk and the hand-off records it writes.
- `names`: the shared pool of given and family names generators draw people from.
- `split`: the base of generators that write a train and an eval database.
- `package`: `domain_package`, the `Domain` of a domain folder from its parts (its
  ``__init__.py`` is one call).
- `declare`: tool methods built from a body written once and the domain's `tool_docs.json`
  (what the agent reads), with the same schema a hand-written method would get.
- `records`: record shapes several domains share (`Person`).
- `reference`: a domain's fixed tables (catalogues, series, markets) read typed from JSON
  beside its code.
- `generation`: `GeneratorRun`, a generator writing straight into an empty database of its
  model (ids, unique emails and phones, seeded draws).
- `customer_draws`: the names, phones and numbered card blocks of generated customers who
  hold cards and now and then a stored-value method.
- `toolbase`: `DatabaseTools[SomeDB]`, the base of a domain's tool classes, with the
  episode's tables typed as its model in ``self.db``.
- `ownership`: `owned_record`, a record the caller names that must be theirs (missing and
  someone else's refused alike).
- `members`: `each_named`, the members of one record a caller names by id (items of an
  order, travellers of a booking): none, twice and unknown refused in the domain's words.
- `summary_desk`: the hand-off desk that keeps each summary in a `Transfer` record under a
  domain's own reply (basketball, school).
- `accounts_stored_value`: `StoredValueRule`, charging and crediting a customer's stored
  value (gift cards, travel credit) with the domain's own refusals.

A domain keeps what the agent reads (tool names, docstrings, refusal wording) and what its
snapshots hold; the kit holds the bodies. `tau_emotion.domains.common` keeps the smaller
helpers (ids, money, normalisers).
"""
