"""``manage.py runserver`` fit for a club night: see :mod:`.management.commands.runserver`."""
