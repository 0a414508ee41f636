#!/usr/bin/env python3
"""Builds a code-aware WordPiece vocabulary from pairs.jsonl and writes tokenizer.json.

The tokenizer is a standard Hugging Face one (BertNormalizer lower-casing, BertPreTokenizer
splitting on whitespace and punctuation, WordPiece greedy longest match), so the JS library
the extension uses reads it as is. Identifier pieces come from splitting on case and digits
(`handleHTTPError2` -> handle, ##http, ##error, ##2): a lower-cased identifier is then cut by
WordPiece into exactly those pieces, or kept whole when it is frequent (`getattr`, `kwargs`).

Usage: vocab.py --data DIR --out MODEL_DIR [--size 30000]
"""
import argparse
import collections
import json
import os
import re

WORD = re.compile(r'[A-Za-z0-9]+')
PIECE = re.compile(r'[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--size', type=int, default=30000)
    ap.add_argument('--min-piece', type=int, default=4)
    ap.add_argument('--min-whole', type=int, default=25)
    a = ap.parse_args()
    start = collections.Counter()
    cont = collections.Counter()
    whole = collections.Counter()
    with open(os.path.join(a.data, 'pairs.jsonl')) as f:
        for line in f:
            r = json.loads(line)
            for text in (r['nl'], r['code']):
                for w in WORD.findall(text):
                    if len(w) > 40:
                        continue
                    pieces = PIECE.findall(w)
                    if not pieces:
                        continue
                    start[pieces[0].lower()] += 1
                    for p in pieces[1:]:
                        cont['##' + p.lower()] += 1
                    if len(pieces) > 1:
                        whole[w.lower()] += 1
    chars = [chr(c) for c in range(ord('a'), ord('z') + 1)] + [str(d) for d in range(10)]
    vocab = ['[UNK]', '[PAD]'] + chars + ['##' + c for c in chars]
    seen = set(vocab)
    cands = [(n, t) for t, n in start.items() if n >= a.min_piece and not t.isdigit() or (t.isdigit() and len(t) <= 4 and n >= a.min_piece)]
    cands += [(n, t) for t, n in cont.items() if n >= a.min_piece]
    cands += [(n, t) for t, n in whole.items() if n >= a.min_whole]
    for n, t in sorted(cands, key=lambda x: (-x[0], x[1])):
        if len(vocab) >= a.size:
            break
        if t not in seen:
            seen.add(t)
            vocab.append(t)
    os.makedirs(a.out, exist_ok=True)
    tok = {
        'version': '1.0',
        'truncation': None,
        'padding': None,
        'added_tokens': [
            {'id': 0, 'content': '[UNK]', 'single_word': False, 'lstrip': False, 'rstrip': False, 'normalized': False, 'special': True},
            {'id': 1, 'content': '[PAD]', 'single_word': False, 'lstrip': False, 'rstrip': False, 'normalized': False, 'special': True},
        ],
        'normalizer': {'type': 'BertNormalizer', 'clean_text': True, 'handle_chinese_chars': True, 'strip_accents': None, 'lowercase': True},
        'pre_tokenizer': {'type': 'BertPreTokenizer'},
        'post_processor': None,
        'decoder': {'type': 'WordPiece', 'prefix': '##', 'cleanup': True},
        'model': {'type': 'WordPiece', 'unk_token': '[UNK]', 'continuing_subword_prefix': '##', 'max_input_chars_per_word': 100,
                  'vocab': {t: i for i, t in enumerate(vocab)}},
    }
    with open(os.path.join(a.out, 'tokenizer.json'), 'w') as f:
        json.dump(tok, f, ensure_ascii=False, separators=(',', ':'))
    print(f'vocab {len(vocab)} (start pieces {len(start)}, continuations {len(cont)}, whole identifiers {len(whole)})')


if __name__ == '__main__':
    main()
