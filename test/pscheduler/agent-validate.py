# pSConfig's own verdict on templates: each line of stdin is {"name", "template"}; each line of stdout is
# {"name", "verdict": "accepted" | "schema" | "refs" | "raises", "message"}. It runs what pSConfig's agent runs before
# it expands a task (perfsonar/psconfig psconfig/perfsonar-psconfig/psconfig/base_agent.py ~354-402): comments
# stripped (pscheduler.psjson.json_decomment), Config.validate() (the official schema), Config.validate_refs().
# Run with the harness prefix's PYTHONPATH (build-pscheduler.sh installs the `psconfig` package there).
import json
import sys

from pscheduler.psjson import json_decomment
from psconfig.client.psconfig.config import Config

for line in sys.stdin:
    case = json.loads(line)
    out = {"name": case["name"]}
    try:
        data = json_decomment(case["template"], prefix="#")
        config = Config(data=data)
        errors = config.validate()
        if errors:
            out.update(verdict="schema", message=str(getattr(errors[0], "message", errors[0])))
        else:
            refs = config.validate_refs()
            out.update(verdict="refs" if refs else "accepted", message=refs[0] if refs else "")
    except Exception as e:  # the agent's check itself raised
        out.update(verdict="raises", message=repr(e))
    print(json.dumps(out), flush=True)
