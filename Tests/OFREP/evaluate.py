"""Evaluates flags against a Livery daemon with the official OpenFeature Python SDK and its
OFREP provider (PyPI openfeature-sdk, openfeature-provider-ofrep; scripts/test installs them).

    python3 Tests/OFREP/evaluate.py BASE_URL REQUESTS_JSON [HEADER: VALUE]...

REQUESTS_JSON is a list of {"type": "string" | "integer" | "float" | "boolean" | "object",
"key", "default", "targetingKey" (optional), "attributes" (optional)}; the headers go through
the provider's headers_factory. Prints one JSON line per request: the SDK's evaluation details
(value, reason, variant, errorCode, errorMessage, metadata).
"""

import json
import sys

from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext


def main() -> None:
    base, requests = sys.argv[1], json.loads(sys.argv[2])
    headers = dict(header.split(": ", 1) for header in sys.argv[3:])
    api.set_provider(OFREPProvider(base, headers_factory=lambda: dict(headers)))
    client = api.get_client()
    for request in requests:
        context = EvaluationContext(
            targeting_key=request.get("targetingKey"), attributes=request.get("attributes", {})
        )
        evaluate = getattr(client, f"get_{request['type']}_details")
        details = evaluate(request["key"], request["default"], context)
        print(
            json.dumps(
                {
                    "value": details.value,
                    "reason": str(details.reason.value if hasattr(details.reason, "value") else details.reason),
                    "variant": details.variant,
                    "errorCode": details.error_code.value if details.error_code else None,
                    "errorMessage": details.error_message,
                    "metadata": dict(details.flag_metadata or {}),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
