import sys

from league.seating.cli import main

sys.exit(main())
