"""Alias keys of the HF importer against transformers' own reading (issue 22
item 7): for configs that give a family's own key and its standard alias
(BLOOM `n_head` / `num_attention_heads`, `n_embed` / `hidden_size`; MPT
`n_heads` / `num_attention_heads`, `d_model` / `hidden_size`) with different
values, or only one of them, the heads and head dim posenc-translate imports
must be the ones `transformers.AutoConfig.for_model` reads.

    check_aliases.py POSENC_TRANSLATE

Prints one line per config and "N passed, N failed"."""
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
import transformers  # noqa: E402

CASES = [
    ("bloom", {"n_head": 8, "num_attention_heads": 16, "hidden_size": 512}),
    ("bloom", {"num_attention_heads": 16, "n_head": 8, "hidden_size": 512}),
    ("bloom", {"n_head": 8, "n_embed": 256, "hidden_size": 512}),
    ("bloom", {"num_attention_heads": 4, "hidden_size": 256}),
    ("bloom", {"n_head": 4, "hidden_size": 256}),
    ("mpt", {"n_heads": 8, "num_attention_heads": 16, "d_model": 256, "hidden_size": 512}),
    ("mpt", {"num_attention_heads": 16, "hidden_size": 512}),
    ("mpt", {"n_heads": 8, "d_model": 256}),
    ("mpt", {"n_heads": 8, "d_model": 256, "hidden_size": 1024}),
]


def hf_heads(model_type, keys):
    cfg = transformers.AutoConfig.for_model(model_type, **keys)
    if model_type == "bloom":
        return cfg.n_head, cfg.hidden_size // cfg.n_head
    return cfg.n_heads, cfg.d_model // cfg.n_heads


def posenc_heads(translate, model_type, keys):
    config = dict(keys, model_type=model_type)
    if model_type == "mpt":
        config["attn_config"] = {"alibi": True}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "config.json")
        with open(path, "w") as f:
            json.dump(config, f)
        out = subprocess.run([translate, "--import-hf-config", path], capture_output=True,
                             text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[0]
    heads = re.search(r"num_attention_heads = (\d+)", out.stdout)
    dim = re.search(r"head_dim = (\d+)", out.stdout)
    return (int(heads.group(1)), int(dim.group(1))), None


def main():
    translate = sys.argv[1]
    passed = failed = 0
    for model_type, keys in CASES:
        want = hf_heads(model_type, keys)
        got, error = posenc_heads(translate, model_type, keys)
        ok = got == want
        passed += ok
        failed += not ok
        print(f"{'ok' if ok else 'FAIL'} {model_type} {json.dumps(keys)}: transformers "
              f"heads={want[0]} head_dim={want[1]}; posenc "
              + (f"heads={got[0]} head_dim={got[1]}" if got else f"error: {error}"))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
