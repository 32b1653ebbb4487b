"""Dates, times and numbers as each of the site's languages writes them
(``FORMAT_MODULE_PATH``; docs/translating.md). Django reads ``<language>.formats``
here before its own, attribute by attribute: what a module leaves out is Django's."""
