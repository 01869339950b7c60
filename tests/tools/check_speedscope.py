#!/usr/bin/env python3
"""Checks a file against speedscope's published file format schema
(https://www.speedscope.app/file-format-schema.json, written from speedscope's
src/lib/file-format-spec.ts), Python stdlib only: what the schema requires of the file, its
frames and its evented and sampled profiles (types, required keys, units, frame indexes in
range, one weight per sample, evented events in order and balanced), and what speedscope's
importer needs besides (values that are numbers, not NaN).

usage: check_speedscope.py FILE...     exit 0 when every file is valid; one line per problem"""
import json
import math
import sys

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def index(v, n):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n


def check(doc):
    errs = []
    if not isinstance(doc, dict):
        return ["the top level is not an object"]
    if doc.get("$schema") != SCHEMA:
        errs.append(f"$schema is {doc.get('$schema')!r}, not {SCHEMA!r}")
    for k, want in (("name", str), ("exporter", str)):
        if k in doc and not isinstance(doc[k], want):
            errs.append(f"{k} is not a string")
    shared = doc.get("shared")
    frames = shared.get("frames") if isinstance(shared, dict) else None
    if not isinstance(frames, list):
        errs.append("shared.frames is not an array")
        frames = []
    for i, f in enumerate(frames):
        if not isinstance(f, dict) or not isinstance(f.get("name"), str):
            errs.append(f"shared.frames[{i}] has no name string")
        elif any(k in f and not num(f[k]) for k in ("line", "col")) or \
                ("file" in f and not isinstance(f["file"], str)):
            errs.append(f"shared.frames[{i}]: file, line or col of the wrong type")
    profiles = doc.get("profiles")
    if not isinstance(profiles, list) or not profiles:
        return errs + ["profiles is not a non-empty array"]
    if "activeProfileIndex" in doc and not index(doc["activeProfileIndex"], len(profiles)):
        errs.append("activeProfileIndex is not a profile's index")
    n = len(frames)
    for i, p in enumerate(profiles):
        where = f"profiles[{i}]"
        if not isinstance(p, dict):
            errs.append(f"{where} is not an object")
            continue
        if not isinstance(p.get("name"), str):
            errs.append(f"{where}.name is not a string")
        if p.get("unit") not in UNITS:
            errs.append(f"{where}.unit {p.get('unit')!r} is not one of {sorted(UNITS)}")
        if not num(p.get("startValue")) or not num(p.get("endValue")):
            errs.append(f"{where}: startValue and endValue must be numbers")
        elif p["endValue"] < p["startValue"]:
            errs.append(f"{where}: endValue below startValue")
        if p.get("type") == "sampled":
            samples, weights = p.get("samples"), p.get("weights")
            if not isinstance(samples, list) or not isinstance(weights, list):
                errs.append(f"{where}: samples and weights must be arrays")
                continue
            if len(samples) != len(weights):
                errs.append(f"{where}: {len(samples)} samples but {len(weights)} weights")
            for k, s in enumerate(samples):
                if not isinstance(s, list) or not all(index(x, n) for x in s):
                    errs.append(f"{where}.samples[{k}] is not an array of frame indexes")
                    break
            for k, w in enumerate(weights):
                if not num(w):
                    errs.append(f"{where}.weights[{k}] is not a number")
                    break
        elif p.get("type") == "evented":
            events = p.get("events")
            if not isinstance(events, list):
                errs.append(f"{where}.events is not an array")
                continue
            stack, last = [], -math.inf
            for k, e in enumerate(events):
                if not isinstance(e, dict) or e.get("type") not in ("O", "C") or \
                        not num(e.get("at")) or not index(e.get("frame"), n):
                    errs.append(f"{where}.events[{k}] is not an event")
                    break
                if e["at"] < last:
                    errs.append(f"{where}.events[{k}]: at goes back")
                    break
                last = e["at"]
                if e["type"] == "O":
                    stack.append(e["frame"])
                elif not stack or stack.pop() != e["frame"]:
                    errs.append(f"{where}.events[{k}] closes a frame not open on top")
                    break
            if stack:
                errs.append(f"{where}: {len(stack)} frames left open")
        else:
            errs.append(f"{where}.type is {p.get('type')!r}, not evented or sampled")
    return errs


def main():
    bad = 0
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        for e in check(doc):
            print(f"{path}: {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
