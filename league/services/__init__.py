"""Every write of the league goes through the functions of this package,
one module a domain:

- :mod:`league.services.clubs`: clubs, the roles in them, their players;
- :mod:`league.services.fixtures`: leagues, events, rounds and tables (who
  sits where);
- :mod:`league.services.results`: the hands played at a table, and the
  standings and ratings work a change of results owes.

Functions are named ``<noun>_<verb>``, take keyword arguments only, run in a
transaction and raise the errors of :mod:`league.errors` (the engine's
refusals, :class:`games.RecordError`, pass through unchanged); nothing is
stored when they raise.

Lock order, for any function that locks more than one row: a club before
its rows; a table first, then its seatings (ordered by seat).
"""
