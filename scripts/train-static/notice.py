#!/usr/bin/env python3
"""Writes the model's NOTICE.md: every source repository, its commit and licence (from recipe.json)."""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument('--recipe', required=True)
ap.add_argument('--out', required=True)
a = ap.parse_args()
r = json.load(open(a.recipe))
lines = [
    '# askcode-code-static: sources of the training data',
    '',
    'The weights in this folder were trained by the askcode project (scripts/train-static) and are',
    "released under askcode's licence (MIT). They were learned from (natural-language, code) pairs",
    'extracted from the public repositories below, each under the licence shown (read from its',
    'LICENSE file at the commit named). No source text of these repositories is stored in the model',
    'or in this repository; the vocabulary holds identifier pieces and words, one per line of',
    'tokenizer.json.',
    '',
    '| repository | commit | licence |',
    '| --- | --- | --- |',
]
for x in r['repos']:
    lines.append(f"| {x['repo']} | `{x['commit'][:12]}` | {x['license']} |")
lines.append('')
open(a.out, 'w').write('\n'.join(lines))
