"""Prints a config.json without some keys (dotted paths for nested ones):

    drop_keys.py CONFIG KEY [KEY...]
"""
import json
import sys

config = json.load(open(sys.argv[1]))
for path in sys.argv[2:]:
    *parents, key = path.split(".")
    section = config
    for p in parents:
        section = section[p]
    del section[key]
print(json.dumps(config, indent=2))
