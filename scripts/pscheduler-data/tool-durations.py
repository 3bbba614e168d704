#!/usr/bin/env python3
"""Writes test/fixtures/pscheduler/tool-durations.json: what each tool's duration program prints for a set of specs.

Development tool only (never run by the build or the tests). It runs the duration programs of perfsonar/pscheduler
at meta.COMMIT (pscheduler-tool-<name>/<name>/duration with the tool's own *_defaults.py / *_utils.py) from a git
checkout, with the python-pscheduler modules they import (exitstatus, ipaddr, iso8601, jsonval, log, psjson,
pstime) from the same commit. Needs Debian's python3-isodate, python3-tzlocal, python3-dateutil, python3-netaddr,
python3-dnspython, python3-tz and python3-jsonschema.

  /usr/bin/python3 scripts/pscheduler-data/tool-durations.py --pscheduler /path/to/pscheduler-checkout
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import meta  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "test", "fixtures", "pscheduler", "tool-durations.json")
MODULES = ["exitstatus", "ipaddr", "iso8601", "jqfilter", "jsonval", "log", "psdns", "psjson", "psselect", "sinumber",
           "pstime"]
INIT = "".join("from .%s import *\n" % m for m in ["exitstatus", "ipaddr", "iso8601", "jsonval", "log", "psjson",
                                                     "pstime"])

# Specs per tool: the defaults, then values that exercise each term of the program.
CASES = {
    "iperf3": [{}, {"duration": "PT20S", "omit": "PT5S"}, {"duration": "PT30S"}, {"link-rtt": "PT0.05S"},
               {"link-rtt": "PT0.21S"}, {"link-rtt": "PT1S", "duration": "PT60S"}, {"duration": "PT10.7S"},
               {"omit": "PT2.5S"}, {"duration": "PT1M", "omit": "PT10S", "link-rtt": "PT0.3S"}],
    "iperf2": [{}, {"duration": "PT30S"}, {"link-rtt": "PT0.05S"}, {"link-rtt": "PT0.21S"}, {"duration": "PT10.7S"}],
    "nuttcp": [{}, {"duration": "PT30S"}, {"duration": "PT10.9S"}, {"link-rtt": "PT1S"}],
    "ethr": [{}, {"link-rtt": "PT0.21S"}, {"duration": "PT30S", "link-rtt": "PT0.033S"}, {"duration": "PT5S"}],
    "owping": [{}, {"packet-count": 600, "packet-interval": 0.1}, {"packet-count": 1000, "packet-interval": 0.01,
                                                                   "packet-timeout": 2}, {"packet-count": 1}],
    "twping": [{}, {"packet-count": 50, "packet-interval": 0.2, "packet-timeout": 1}, {"count": 10}],
    "halfping": [{}, {"packet-count": 10, "packet-interval": 0.25}, {"packet-count": 1}],
    "powstream": [{}, {"duration": "PT1H"}, {"duration": "PT30M30.5S"}],
    "ping": [{}, {"count": 10}, {"count": 3, "interval": "PT0.5S"}, {"timeout": "PT5S"}, {"deadline": "PT3S"},
             {"hostnames": False}, {"count": 1}, {"count": 4, "interval": "PT0.3S", "timeout": "PT0.5S"}],
    "tcpping": [{}, {"count": 10, "hostnames": False}, {"count": 1, "timeout": "PT9S"}],
    "traceroute": [{}, {"sendwait": "PT0.5S", "hops": 10}, {"wait": "PT3S"}, {"hostnames": False, "as": False},
                   {"sendwait": "PT1S"}, {"sendwait": "PT0.05S", "wait": "PT1.5S"}],
    "tracepath": [{}, {"hostnames": False}, {"as": False}],
    "paris-traceroute": [{"dest": "h.example.net"}, {"dest": "10.0.0.1"},
                         {"dest": "h.example.net", "sendwait": "PT0.2S", "wait": "PT2S"},
                         {"dest": "2001:db8::1", "hostnames": False}],
    "dublin-traceroute": [{"dest": "h.example.net"}, {"dest": "10.0.0.1", "hops": 20, "sendwait": "PT0.01S"},
                          {"dest": "2001:db8::1", "as": False}],
    "s3-benchmark": [{}, {"duration": "PT10S"}, {"timeout": "PT1M"}, {"duration": "PT20S", "timeout": "PT20S"}],
    "sleep": [{"duration": "PT10S"}, {"duration": "PT1.5S"}],
    "snooze": [{"duration": "PT10S"}],
    "sleepbgm": [{"duration": "PT1H"}],
    "passthrough": [{}],
    "fwmtu": [{}],
}


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", "%s:%s" % (meta.COMMIT, path)], check=True,
                          capture_output=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pscheduler", required=True)
    args = ap.parse_args()
    repo = args.pscheduler
    work = tempfile.mkdtemp(prefix="tool-durations-")
    pkg = os.path.join(work, "pkg", "pscheduler")
    os.makedirs(pkg)
    for m in MODULES:
        with open(os.path.join(pkg, m + ".py"), "wb") as f:
            f.write(git_show(repo, "python-pscheduler/pscheduler/pscheduler/%s.py" % m))
    with open(os.path.join(pkg, "__init__.py"), "w") as f:
        f.write(INIT)
    out = []
    for tool, specs in CASES.items():
        tdir = os.path.join(work, "tools", tool)
        os.makedirs(tdir)
        prefix = "pscheduler-tool-%s/%s/" % (tool, tool)
        names = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", meta.COMMIT, prefix], check=True,
                               capture_output=True, text=True).stdout.split()
        for path in names:
            base = os.path.basename(path)
            if base == "duration" or base.endswith(".py"):
                with open(os.path.join(tdir, base), "wb") as f:
                    f.write(git_show(repo, path))
        program = os.path.join(tdir, "duration")
        with open(program) as f:
            shell = f.readline().startswith("#!/bin/sh")
        for spec in specs:
            r = subprocess.run(["/bin/sh" if shell else sys.executable, program], input=json.dumps({"spec": spec}),
                               capture_output=True, text=True,
                               env=dict(os.environ, PYTHONPATH=os.path.join(work, "pkg") + os.pathsep + tdir))
            if r.returncode != 0:
                raise SystemExit("%s %s: %s" % (tool, spec, r.stderr))
            out.append({"tool": tool, "spec": spec, "printed": json.loads(r.stdout)["duration"]})
    with open(OUT, "w") as f:
        f.write(json.dumps({
            "origin": "the duration programs of perfsonar/pscheduler %s, run by scripts/pscheduler-data/"
                      "tool-durations.py" % meta.COMMIT,
            "cases": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
