"""The server-rendered pages: what members read (:mod:`league.web.pages`)
and where scorekeepers enter results (:mod:`league.web.entry`)."""
