"""gunicorn's settings for the league: ``gunicorn -c config/gunicorn.conf.py config.wsgi``.

The worker model: **sync** workers behind a buffering proxy (deploy/nginx.conf).
nginx reads each request whole before it passes it on and takes each answer
whole before it sends it out, so a slow or half-sent request never occupies a
worker; a sync worker then serves one short request at a time with one
database connection, which it keeps between requests (``CONN_MAX_AGE``) and
returns when it exits. With threaded workers (``gthread``) the idle threads of a
burst each kept a connection open for minutes, until PostgreSQL refused new
ones (issue 14). Each knob can be set from the environment (``GUNICORN_*``).
"""

import multiprocessing
import os

# Only the proxy reaches gunicorn: a Unix socket (or loopback), never 0.0.0.0,
# so X-Forwarded-Proto, which Django trusts (SECURE_PROXY_SSL_HEADER), can only
# have been set by nginx. The socket's folder is made by the service manager
# (systemd: RuntimeDirectory=league) and open to nginx's user alone (its group).
bind = [os.environ.get("GUNICORN_BIND", "unix:/run/league/gunicorn.sock")]

worker_class = "sync"
# The usual 2 x cores + 1: the work is the database's as much as Python's.
workers = int(os.environ.get("GUNICORN_WORKERS") or multiprocessing.cpu_count() * 2 + 1)

# A request's database waits end within 5 s (DATABASE_TIMEOUTS) and /healthz
# within 3 s; 30 s is the backstop for a worker stuck elsewhere, killed and replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 30)
graceful_timeout = 30
# nginx keeps its own connections to clients; between it and gunicorn each
# request has its own connection (sync workers do not keep them alive).
keepalive = 2

# A fresh process now and then: a slow leak never grows for long. The jitter keeps
# the workers from restarting together.
max_requests = 2000
max_requests_jitter = 200

# Headers: the same limits as nginx's, for a request that reaches gunicorn directly.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# Logs to stderr, for systemd's journal: the client's address as the proxy
# saw it, and each request's time in milliseconds. (gunicorn itself trusts
# X-Forwarded-* only from loopback and its Unix socket: its default.)
accesslog = "-"
errorlog = "-"
access_log_format = '%({x-forwarded-for}i)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms'

# No control socket (gunicorn 27's gunicornc): systemd's signals manage the
# process, and two instances on one host would share the default path.
control_socket_disable = True
