#!/usr/bin/env python3
"""Checks a --summary JSON document against the shape docs/summary.md documents.

    check_summary_json.py DOCS/summary.md OUTPUT.json [--diff]

The schema is the fenced JSON block after "<!-- schema: summary -->" in the document; the
subset of JSON Schema it uses (type, a list of types with "null", required, properties, items, enum, $ref to
definitions) is checked here, standard library only. With --diff the top-level keys are a
diff's (the findings' shape is the same). Also: findings in the documented rule order.
"""
import json
import re
import sys

TYPES = {"object": dict, "array": list, "string": str, "integer": int,
         "number": (int, float), "boolean": bool}


def check(value, schema, defs, path, errors):
    if "$ref" in schema:
        schema = defs[schema["$ref"]]
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r not one of %s" % (path, value, schema["enum"]))
    t = schema.get("type")
    ts = t if isinstance(t, list) else [t] if t else []
    if ts and value is None and "null" in ts:
        return

    def fits(k):
        return k != "null" and isinstance(value, TYPES[k]) and not (
            k in ("integer", "number") and isinstance(value, bool))
    if ts and not any(fits(k) for k in ts):
        errors.append("%s: %r is not %s" % (path, value, " or ".join(ts)))
        return
    for key in schema.get("required", []):
        if key not in value:
            errors.append("%s: no %r" % (path, key))
    for key, sub in schema.get("properties", {}).items():
        if isinstance(value, dict) and key in value:
            check(value[key], sub, defs, path + "." + key, errors)
    if "items" in schema and isinstance(value, list):
        for i, item in enumerate(value):
            check(item, schema["items"], defs, "%s[%d]" % (path, i), errors)


def main():
    doc, out = sys.argv[1], sys.argv[2]
    diff = "--diff" in sys.argv[3:]
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"<!-- schema: summary -->\s*```json\n(.*?)```", text, re.S)
    if not m:
        sys.exit("%s: no schema block" % doc)
    schema = json.loads(m.group(1))
    defs = schema.get("definitions", {})
    data = json.load(open(out, encoding="utf-8"))
    errors = []
    if diff:
        for key in ("total_before", "total_after", "before", "after", "self", "inclusive",
                    "verdict", "thresholds", "new", "vanished", "findings"):
            if key not in data:
                errors.append("$: no %r" % key)
        check(data.get("findings", []), schema["properties"]["findings"], defs, "$.findings",
              errors)
    else:
        check(data, schema, defs, "$", errors)
    order = defs["finding"]["properties"]["rule"]["enum"]
    ranks = [order.index(f["rule"]) for f in data.get("findings", []) if f.get("rule") in order]
    if ranks != sorted(ranks):
        errors.append("$.findings: not in the rules' order")
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


main()
