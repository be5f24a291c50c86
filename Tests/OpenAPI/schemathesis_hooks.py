"""Schemathesis hooks for the openapi.yaml run (Tests/OpenAPI/check_openapi.py)."""
import re

import schemathesis

# A `wait=` the daemon accepts (WaitDuration): a long-poll whose If-None-Match matches (`*` does)
# would hold the request up to five minutes. Valid waits are shortened to 200 ms so that the run
# stays short; invalid ones go as generated, to meet their 400.
VALID_WAIT = re.compile(r"^[0-9.]+(ms|s|m)?$", re.IGNORECASE)


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.query and isinstance(case.query.get("wait"), str) and VALID_WAIT.match(case.query["wait"]):
        case.query["wait"] = "200ms"
