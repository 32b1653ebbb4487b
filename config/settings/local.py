"""Development on one machine: ``make run``. Debug pages on unless ``DEBUG=0``."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import env_bool

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY") or "local-development-key-never-used-in-production"
# A webhook receiver on this machine may be tried (never in production).
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", True)
