#!/usr/bin/env python3
"""Writes test/fixtures/pscheduler/upstream-vectors.json: the inputs of pScheduler's own spec/data validity tests
(pscheduler-*/tests/*_test.py at the commit in meta.py), what each test expects, and what pScheduler's code really
answers (run through the oracle's upstream-tests.py). Development tool only.

  /usr/bin/python3 scripts/pscheduler-data/upstream-vectors.py --oracle PATH/TO/pscheduler-oracle
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "test", "fixtures", "pscheduler", "upstream-vectors.json")

ap = argparse.ArgumentParser()
ap.add_argument("--oracle", required=True)
args = ap.parse_args()
records = json.loads(subprocess.run([sys.executable, os.path.join(args.oracle, "upstream-tests.py"), "--json"],
                                    check=True, capture_output=True, text=True).stdout)
vectors = []
for r in records:
    m = re.match(r"pscheduler-(test|archiver|context)-([^/]+)/tests/", r["file"])
    stale = r["expected_valid"] != r["accepted"]
    vectors.append({
        "origin": "perfsonar/pscheduler %s %s" % (r["file"], r["test"]),
        "kind": m.group(1),
        "name": m.group(2),
        "input": r["input"],
        "upstreamExpects": "valid" if r["expected_valid"] else "invalid",
        "pscheduler": "valid" if r["accepted"] else "invalid",
        **({"disabledUpstream": True} if r["disabled_upstream"] else {}),
        **({"stale": True} if stale else {}),
    })
with open(OUT, "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(v) for v in vectors) + "\n]\n")
print("%d vectors, %d where upstream's expectation is stale" % (len(vectors), sum(1 for v in vectors if v.get("stale"))))
