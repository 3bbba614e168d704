#!/usr/bin/python3
"""pScheduler's REST API (the Flask application of pscheduler-server/api-server/pschedulerapiserver) mounted under
/pscheduler, as Apache's WSGIScriptAlias mounts it on a perfSONAR host, served over HTTPS by Werkzeug's threaded
server on one loopback address (Apache + mod_wsgi is not part of the harness).

Usage: serve-api.py API_PARENT_DIR ADDRESS PORT CERT KEY
"""
import ipaddress
import sys

if len(sys.argv) != 6:
    sys.exit(__doc__)
api_parent, address, port, cert, key = sys.argv[1:]
if not ipaddress.ip_address(address).is_loopback:
    sys.exit("serve-api.py: %s is not a loopback address" % address)
sys.path.insert(0, api_parent)

from pschedulerapiserver import application as pscheduler_api  # noqa: E402
from werkzeug.exceptions import NotFound  # noqa: E402
from werkzeug.middleware.dispatcher import DispatcherMiddleware  # noqa: E402
from werkzeug.serving import run_simple  # noqa: E402

mounted = DispatcherMiddleware(NotFound(), {"/pscheduler": pscheduler_api})
run_simple(address, int(port), mounted, threaded=True, ssl_context=(cert, key), use_reloader=False)
