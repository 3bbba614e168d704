#!/usr/bin/env python3
"""Writes schemas/pscheduler/*.json: what pScheduler 5.x accepts, one file per plug-in, every schema version.

Development tool only (never run by the build or the tests). It reads two things outside the repository:

  --oracle DIR   a directory with pScheduler's validators runnable offline (introspect.py, oracle.py and their
                 upstream/ copy of perfsonar/pscheduler @ meta.COMMIT); each plug-in's schema skeleton per version
                 is recorded from the running code, so what we store is exactly what json_validate is handed.
  --pscheduler DIR  a git checkout of perfsonar/pscheduler (for the tool plug-ins' enumerate / can-run and each
                 test's scheduling class from its enumerate).

Kept: the validation keywords. Dropped: title/description/default/x-invalid-message (upstream prose, and not
validation), keywords jsonschema ignores (such as upstream's misspelt " type"), and the top-level keywords
json_validate itself drops (a skeleton's oneOf/allOf: see meta.NOTES). Hand-written facts come from meta.py.

  /usr/bin/python3 scripts/pscheduler-data/extract.py --oracle PATH/TO/pscheduler-oracle \
      --pscheduler /path/to/pscheduler-checkout
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import meta  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "schemas", "pscheduler")

# Draft-07 keywords jsonschema validates with (everything else in a schema is ignored by it).
KEYWORDS = {"$ref", "type", "enum", "const", "properties", "patternProperties", "additionalProperties", "required",
            "items", "minItems", "maxItems", "uniqueItems", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format", "anyOf", "oneOf",
            "allOf", "not", "if", "then", "else", "dependencies", "propertyNames", "contains", "minProperties",
            "maxProperties"}
# What json_validate keeps of a skeleton's top level (jsonval.py), and what the standard-template helper copies.
JSON_VALIDATE_TOP = {"type", "items", "properties", "additionalProperties", "required", "local", "$ref"}
TEMPLATE_TOP = {"type", "items", "properties", "additionalProperties", "required"}
# Keys whose values are maps of names to schemas (names kept as they are).
SCHEMA_MAPS = {"properties", "patternProperties", "dependencies"}


def clean(schema):
    """A schema with only the keywords jsonschema acts on; $ref siblings dropped (draft-07 ignores them)."""
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        raise ValueError("schema expected, got %r" % (schema,))
    if "$ref" in schema:
        return {"$ref": schema["$ref"]}
    out = {}
    for key, value in schema.items():
        if key not in KEYWORDS:
            continue
        if key in SCHEMA_MAPS:
            out[key] = {k: clean(v) for k, v in value.items()}
        elif key in ("items",) and isinstance(value, list):
            out[key] = [clean(v) for v in value]
        elif key in ("items", "additionalProperties", "not", "if", "then", "else", "propertyNames", "contains"):
            out[key] = clean(value)
        elif key in ("anyOf", "oneOf", "allOf"):
            out[key] = [clean(v) for v in value]
        else:
            out[key] = value
    return out


def with_default(skeleton):
    """json_validate starts from jsonval's __default_schema__, whose top level says additionalProperties: false;
    a skeleton that does not set it keeps that (unless a top-level $ref makes draft-07 ignore it)."""
    if "$ref" not in skeleton and "additionalProperties" not in skeleton:
        skeleton = dict(skeleton, additionalProperties=False)
    return skeleton


def version_key(kind, name):
    """Name of the local definition a `ref` program points at for version N."""
    return "throughput_v%d" if (kind, name) == ("test", "throughput") else "v%d"


def scheduling_class(repo, name):
    """The test's `scheduling-class` from its enumerate (DB/test.sql stores it verbatim on the test)."""
    enum = git_show(repo, "pscheduler-test-%s/%s/enumerate" % (name, name))
    return re.search(r'"scheduling-class"\s*:\s*"([^"]+)"', enum).group(1)


def plugin_file(kind, name, facts, oracle, repo):
    import introspect
    got = introspect.schemas(kind, name)
    select = facts["select"]
    local = dict(got["local"])
    versions = {}
    if select == "ref":
        pattern = version_key(kind, name)
        n = 1
        while (pattern % n) in local:
            versions[str(n)] = clean(local.pop(pattern % n))
            n += 1
    elif select == "single":
        # The skeleton exactly as handed to json_validate (a top-level $ref to a local definition included).
        how, raw, _ = introspect._capture(kind, name, {"schema": 1})
        assert how == "plain", (kind, name, how)
        local = dict(raw.get("local", {}))
        got = dict(got, versions={1: raw}, local=local)
        versions["1"] = with_default(clean({k: v for k, v in raw.items() if k in JSON_VALIDATE_TOP and k != "local"}))
    else:
        for n, skel in sorted(got["versions"].items(), key=lambda kv: int(kv[0])):
            versions[str(n)] = with_default(clean({k: v for k, v in skel.items() if k in TEMPLATE_TOP}))
    # What json_validate drops from a single/template skeleton's top level (a oneOf of alternatives): kept apart,
    # for completion and hovers only.
    unchecked = {}
    if select != "ref":
        skel = got["versions"].get(1) or got["versions"].get("1") or {}
        top = JSON_VALIDATE_TOP if select == "single" else TEMPLATE_TOP
        unchecked = clean({k: v for k, v in skel.items() if k in KEYWORDS and k not in top})
    # Local definitions reached from the versions (and the unchecked part), following references between them.
    local = {}
    changed = True
    while changed:
        changed = False
        text = json.dumps(versions) + json.dumps(unchecked) + json.dumps(local)
        for k, v in sorted(got["local"].items()):
            if k not in local and ('"#/local/%s"' % k) in text and not re.fullmatch(r"(throughput_)?v\d+", k):
                local[k] = clean(v)
                changed = True
    local = dict(sorted(local.items()))
    props = set()
    for v in versions.values():
        props |= set(v.get("properties", {}))
    for v in local.values():
        props |= set(v.get("properties", {}) if isinstance(v, dict) else {})
    docs = {}
    for p in sorted(props):
        doc = meta.DOCS.get("%s/%s/%s" % (kind, name, p)) or meta.DOCS.get(p)
        if doc:
            docs[p] = doc
    program = "spec-is-valid" if kind == "test" else "data-is-valid"
    paths = ["pscheduler-%s-%s/%s/%s" % (kind, name, name, program)]
    if kind == "test":
        paths.insert(0, "pscheduler-test-%s/%s/validate.py" % (name, name))
        paths.append("pscheduler-test-%s/%s/enumerate" % (name, name))
    out = {
        "kind": kind,
        "name": name,
        "upstream": paths,
        "bundle": facts["bundle"],
        "select": select,
        "maxSchema": facts["maxSchema"],
    }
    if kind == "test":
        out["schedulingClass"] = scheduling_class(repo, name)
    if facts.get("validFalseString"):
        out["validFalseString"] = True
    if facts.get("rules"):
        out["rules"] = facts["rules"]
    notes = meta.NOTES.get("%s/%s" % (kind, name))
    if notes:
        out["notes"] = notes
    out["local"] = local
    out["versions"] = versions
    if unchecked:
        out["unchecked"] = unchecked
    out["docs"] = docs
    return out


def types_file():
    import pscheduler
    dictionary = pscheduler.jsonval.__dictionary__
    wanted = set(meta.TYPES)
    types = {}
    pending = sorted(wanted)
    while pending:
        name = pending.pop()
        if name in types:
            continue
        types[name] = clean(dictionary[name])
        for ref in re.findall(r'"#/pScheduler/([^"]+)"', json.dumps(types[name])):
            if ref not in types:
                pending.append(ref)
    return {
        "upstream": ["python-pscheduler/pscheduler/pscheduler/jsonval.py"],
        "types": {k: types[k] for k in sorted(types)},
        "docs": {k: meta.TYPE_DOCS[k] for k in sorted(meta.TYPE_DOCS)},
    }


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", "%s:%s" % (meta.COMMIT, path)], check=True,
                          capture_output=True, text=True).stdout


def tool_file(repo, name, facts):
    enum = git_show(repo, "pscheduler-tool-%s/%s/enumerate" % (name, name))
    tests = json.loads("[%s]" % re.search(r'"tests"\s*:\s*\[([^\]]*)\]', enum).group(1))
    preference = int(re.search(r'"preference"\s*:\s*(-?\d+)', enum).group(1))
    can_run = git_show(repo, "pscheduler-tool-%s/%s/can-run" % (name, name))
    max_schema = None
    m = re.search(r"json_check_schema\([^,]+,\s*(\d+)\)", can_run)
    if m:
        max_schema = int(m.group(1))
    else:
        m = re.search(r"^MAX_SCHEMA\s*=\s*(\d+)", can_run, re.M)
        if m and re.search(r"(MAX_SCHEMA\)|>\s*MAX_SCHEMA)", can_run):
            max_schema = int(m.group(1))
    out = {
        "kind": "tool",
        "name": name,
        "upstream": ["pscheduler-tool-%s/%s/enumerate" % (name, name), "pscheduler-tool-%s/%s/can-run" % (name, name)],
        "bundle": facts["bundle"],
        "tests": tests,
        "preference": preference,
        "maxSchema": max_schema,
    }
    for key in ("platforms", "partial", "supportedOptions", "rules"):
        if key in facts:
            out[key] = facts[key]
    return out


def dumps(value, indent=""):
    """Indented JSON with every object or array that fits in 100 columns on one line (tidy and short)."""
    flat = json.dumps(value, separators=(", ", ": "))
    if len(indent) + len(flat) <= 100 or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, list):
        return "[\n%s\n%s]" % (",\n".join(inner + dumps(v, inner) for v in value), indent)
    items = ("%s%s: %s" % (inner, json.dumps(k), dumps(v, inner)) for k, v in value.items())
    return "{\n%s\n%s}" % (",\n".join(items), indent)


def write(name, data):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(dumps(data) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--pscheduler", required=True)
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.oracle))
    import oracle
    oracle.setup()
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".json"):
            os.remove(os.path.join(OUT, f))
    listed = oracle.list_plugins()
    for kind, table in (("test", meta.TESTS), ("archiver", meta.ARCHIVERS), ("context", meta.CONTEXTS)):
        if sorted(table) != sorted(listed[kind]):
            raise SystemExit("meta.py and the oracle disagree on the %s plug-ins" % kind)
        for name, facts in table.items():
            write("%s-%s.json" % (kind, name), plugin_file(kind, name, facts, oracle, args.pscheduler))
    for name, facts in meta.TOOLS.items():
        write("tool-%s.json" % name, tool_file(args.pscheduler, name, facts))
    write("types.json", types_file())


if __name__ == "__main__":
    main()
