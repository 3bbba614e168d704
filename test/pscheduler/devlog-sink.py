#!/usr/bin/python3
"""A receiver for /dev/log on a machine without a syslog daemon. python-pscheduler's Log (log.py) always adds a
SysLogHandler on /dev/log; when nothing listens there every message ends in a "--- Logging error ---" traceback on
stderr, which costs the daemons time. The daemons also log to stderr with --verbose, which the harness keeps, so the
datagrams are appended to FILE only for reference.

Usage: devlog-sink.py FILE       (exits at once when /dev/log already exists: someone else receives it)
"""
import os
import signal
import socket
import sys

SOCKET = "/dev/log"
if len(sys.argv) != 2:
    sys.exit(__doc__)
if os.path.exists(SOCKET):
    sys.exit(0)
receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
receiver.bind(SOCKET)
os.chmod(SOCKET, 0o666)
# SIGTERM (the harness stopping it) unwinds through `finally`, which removes the socket.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
print("listening", flush=True)
try:
    with open(sys.argv[1], "ab", buffering=0) as out:
        while True:
            out.write(receiver.recv(65536).rstrip(b"\0\n") + b"\n")
finally:
    os.unlink(SOCKET)
