"""What the tests share, one module a kind of helper:

- :mod:`tests.support.api`: API clients, RFC 9457 problem checks, ETags;
- :mod:`tests.support.records`: hand records (results and bot move logs)
  and the engine's own verdict on them;
- :mod:`tests.support.setups`: a club with everything in it, and the demo data;
- :mod:`tests.support.state`: snapshots of the stored rows, to show that a
  refused write changed nothing;
- :mod:`tests.support.web`: the web pages' URLs and a signed-in browser client;
- :mod:`tests.support.markup`: reading the pages' HTML (fields, errors, tables).

The model factories are in :mod:`tests.support.factories`. Test modules import
from here, never from one another.
"""
