"""Every read the API and the pages make, one module a domain, each read a
fixed number of queries whatever the size of the club (the query counts are
tested). Callers import the domain's module
(``from league.selectors import tonight as tonight_selectors``); nothing is
re-exported here.

- :mod:`~league.selectors.clubs`: clubs, a user's role and clubs, a club's players and logins;
- :mod:`~league.selectors.leagues`: the league page's league and lists, the organisers' hub;
- :mod:`~league.selectors.seasons`: a league's season format as the pages show it, its final;
- :mod:`~league.selectors.standings`: stored standings, and standings between dates;
- :mod:`~league.selectors.ratings`: leaderboards ranked by the database, rating scopes, histories;
- :mod:`~league.selectors.events`: game nights, their attendance, rounds, tables and seats;
- :mod:`~league.selectors.draws`: what drawing a round reads (how far drawn, who met whom);
- :mod:`~league.selectors.tables`: a table's score sheet, its entry's reads, score pads;
- :mod:`~league.selectors.players`: a player's profile, and their own data to take away;
- :mod:`~league.selectors.replies`: players' replies to game nights, and their personal links;
- :mod:`~league.selectors.tonight`: the night's pages: check-in list, rounds with progress, today;
- :mod:`~league.selectors.imports`: background results imports as their page follows them;
- :mod:`~league.selectors.accounts`: logins, invitations and API tokens;
- :mod:`~league.selectors.tidy`: what a deletion takes with it and a merge moves.
"""

from __future__ import annotations
