#!/usr/bin/env python3
"""Extracts (natural-language, code) training pairs from the repositories in recipe.json.

Reads bare git directories (<repos>/<owner>+<name>/repo) at the commit the recipe names and writes
<out>/pairs.jsonl, one {"repo", "kind", "nl", "code"} per line. Nothing extracted is committed.

Kinds (the extraction rules):
  doc     a Python docstring (first 600 chars) <-> its function/class without the docstring;
          a JSDoc/TSDoc or Go doc comment (tags dropped) <-> the declaration after it.
  commit  a commit message (subject + body, trailers dropped; merges, bots, version bumps and
          messages under 3 words skipped) <-> the new side of its hunks in one code file
          (path + hunk context + added and context lines), at most 3 files per commit.
  readme  a Markdown/reST section (prose, code blocks dropped; English docs only) <-> the
          definitions of up to 2 symbols it names in backticks; at most 1,500 per repository.
Code is capped at 60 lines and 3,000 characters; pairs are de-duplicated on (nl, code).
Vendored copies of other projects (vendor/, _vendor/, vendored/, _vendored/) are skipped: pip
bundles requests, an evaluation repository. A recipe entry with "commit_pairs": false gives doc
and readme pairs only (its stored clone had the snapshot but not the history).

Usage: extract.py --repos DIR --out DIR [--recipe recipe.json]
"""
import argparse
import ast
import hashlib
import json
import os
import re
import subprocess
import sys

CODE_EXT = {'.py': 'python', '.ts': 'ts', '.tsx': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'js', '.go': 'go', '.rs': 'rust', '.java': 'java'}
DOC_EXT = {'.md', '.rst', '.mdx'}
MAX_LINES = 60
MAX_CHARS = 3000
SKIP_DIRS = re.compile(r'(^|/)(node_modules|_?vendor|_?vendored|dist|build|third_party|\.github)/')
# Translated documentation (docs/<lang>/ other than en) would teach other languages' words.
FOREIGN_DOCS = re.compile(r'(^|/)docs?/(?!en/)[a-z]{2}(-[a-z]+)?/')
MAX_README_PER_REPO = 1500


def git(gitdir, *args, input=None):
    return subprocess.run(['git', f'--git-dir={gitdir}', *args], input=input, capture_output=True, check=True).stdout


def read_tree(gitdir, commit):
    out = git(gitdir, 'ls-tree', '-r', '-z', commit).decode('utf8', 'replace')
    entries = []
    for line in out.split('\0'):
        if not line:
            continue
        meta, path = line.split('\t', 1)
        mode, typ, sha = meta.split(' ')
        ext = os.path.splitext(path)[1].lower()
        if typ != 'blob' or mode == '120000' or SKIP_DIRS.search(path):
            continue
        if ext in CODE_EXT or ext in DOC_EXT:
            entries.append((path, sha))
    batch = git(gitdir, 'cat-file', '--batch', input=('\n'.join(s for _, s in entries) + '\n').encode())
    files = {}
    at = 0
    for path, _ in entries:
        nl = batch.index(b'\n', at)
        header = batch[at:nl].decode()
        at = nl + 1
        if header.endswith('missing'):
            continue
        size = int(header.split(' ')[2])
        body = batch[at:at + size]
        at += size + 1
        if size > 400_000:
            continue
        text = body.decode('utf8', 'replace')
        if any(len(l) > 400 for l in text.split('\n')[:50]):
            continue  # minified or generated
        files[path] = text
    return files


def cap(code):
    lines = code.split('\n')[:MAX_LINES]
    return '\n'.join(lines)[:MAX_CHARS]


def clean_doc(s):
    s = re.sub(r'\n\s*\n.*', '', s.strip(), flags=re.S) if len(s) > 600 else s.strip()
    return re.sub(r'\s+', ' ', s)[:600]


def python_pairs(path, text, defs):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    lines = text.split('\n')
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        start = (node.decorator_list[0].lineno if node.decorator_list else node.lineno) - 1
        seg = lines[start:node.end_lineno]
        defs.setdefault(node.name, '\n'.join(seg))
        doc = ast.get_docstring(node)
        if not doc or len(doc.split()) < 3:
            continue
        first = node.body[0]
        body = lines[start:first.lineno - 1] + lines[first.end_lineno:node.end_lineno]
        code = '\n'.join(body)
        if len(code.strip().split('\n')) < 2:
            continue
        out.append(('doc', clean_doc(doc), f'{path}\n{cap(code)}'))
    return out


JSDOC = re.compile(r'/\*\*(.*?)\*/[ \t]*\n(?:[ \t]*\n)?', re.S)
DECL = re.compile(r'^\s*(export\s+)?(default\s+)?(declare\s+)?(async\s+)?(abstract\s+)?(public\s+|private\s+|protected\s+|static\s+|readonly\s+)*(function\*?|class|const|let|var|interface|type|enum|get\s|set\s|[A-Za-z_$][\w$]*\s*[(<:=])')
NAME = re.compile(r'(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)|^\s*(?:async\s+|static\s+|public\s+|private\s+|protected\s+)*([A-Za-z_$][\w$]*)\s*[(<]')


def block_after(lines, i):
    """The declaration starting at line i: up to its closing brace (brace balance), capped."""
    depth = 0
    opened = False
    out = []
    for line in lines[i:i + MAX_LINES]:
        out.append(line)
        for ch in line:
            if ch == '{':
                depth += 1
                opened = True
            elif ch == '}':
                depth -= 1
        if (opened and depth <= 0) or (not opened and line.rstrip().endswith(';')):
            break
    return '\n'.join(out)


def jsdoc_text(raw):
    keep = []
    for l in raw.split('\n'):
        l = re.sub(r'^\s*\*\s?', '', l).strip()
        if l.startswith('@'):
            m = re.match(r'@(param|returns?|throws)\s+(\{[^}]*\}\s*)?(\S+)?\s*-?\s*(.*)', l)
            if m and m.group(4):
                keep.append(m.group(4))
            continue
        keep.append(l)
    return re.sub(r'\s+', ' ', ' '.join(keep)).strip()[:600]


def js_pairs(path, text, defs):
    lines = text.split('\n')
    starts = [0]
    for i, ch in enumerate(text):
        if ch == '\n':
            starts.append(i + 1)
    import bisect
    out = []
    for m in JSDOC.finditer(text):
        li = bisect.bisect_right(starts, m.end()) - 1
        if li >= len(lines) or not DECL.match(lines[li]):
            continue
        doc = jsdoc_text(m.group(1))
        if len(doc.split()) < 3:
            continue
        code = block_after(lines, li)
        nm = NAME.search(lines[li])
        if nm:
            defs.setdefault(nm.group(1) or nm.group(2), code)
        if len(code.split('\n')) < 2:
            continue
        out.append(('doc', doc, f'{path}\n{cap(code)}'))
    # definitions without docs still serve README pairs
    for i, l in enumerate(lines):
        m = re.match(r'^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)', l)
        if m:
            defs.setdefault(m.group(1), block_after(lines, i))
    return out


def go_pairs(path, text, defs):
    lines = text.split('\n')
    out = []
    for i, l in enumerate(lines):
        m = re.match(r'^(func|type)\s+(\([^)]*\)\s*)?([A-Za-z_]\w*)', l)
        if not m:
            continue
        j = i
        while j > 0 and lines[j - 1].startswith('//'):
            j -= 1
        code = block_after(lines, i)
        defs.setdefault(m.group(3), code)
        doc = re.sub(r'\s+', ' ', ' '.join(x[2:].strip() for x in lines[j:i])).strip()[:600]
        if len(doc.split()) < 3 or len(code.split('\n')) < 2:
            continue
        out.append(('doc', doc, f'{path}\n{cap(code)}'))
    return out


SECTION = re.compile(r'^(#{1,4} .+|.+\n[=\-~^]{3,})$', re.M)


def readme_pairs(path, text, defs):
    out = []
    text = re.sub(r'```.*?```', ' ', text, flags=re.S)
    text = re.sub(r'^(\s{4}|\t).*$', '', text, flags=re.M)
    parts = SECTION.split(text)
    for sec in parts:
        if not sec or len(sec.split()) < 8:
            continue
        names = []
        for n in re.findall(r'`{1,2}([A-Za-z_][\w.]*?)(?:\(\))?`{1,2}|:(?:func|class|meth|attr):`~?([\w.]+)`', sec):
            name = (n[0] or n[1]).split('.')[-1]
            if name in defs and name not in names and len(name) > 3:
                names.append(name)
        prose = re.sub(r'\s+', ' ', sec).strip()[:600]
        for name in names[:2]:
            out.append(('readme', prose, cap(defs[name])))
    return out


TRAILER = re.compile(r'^(Signed-off-by|Co-authored-by|Reviewed-by|Change-Id|Cc|See-also|Fixes|Closes|Refs?):.*$', re.M | re.I)
SKIP_MSG = re.compile(r'^(bump|release|version|v?\d+\.\d+|merge|update (dependency|changelog)|chore\(deps|\[pre-commit|pre-commit|prepare release|changelog)', re.I)


def commit_pairs(gitdir, commit, n):
    fmt = '%x00%x01%H%n%an%n%B%x02'
    try:
        raw = git(gitdir, 'log', '--no-merges', f'-n{n}', '-p', '--unified=3', '--no-color', '--no-renames', f'--format={fmt}', commit)
    except subprocess.CalledProcessError as e:
        # A partial mirror may lack old blobs: its commits are skipped, its docs still count.
        print(f'  {gitdir}: git log failed ({e.stderr.decode()[:120].strip()}); no commit pairs', file=sys.stderr)
        return []
    out = []
    for rec in raw.split(b'\x00\x01')[1:]:
        try:
            head, diff = rec.split(b'\x02', 1)
        except ValueError:
            continue
        head = head.decode('utf8', 'replace').split('\n', 2)
        if len(head) < 3:
            continue
        author, msg = head[1], head[2]
        if re.search(r'\[bot\]|dependabot|renovate|pre-commit-ci', author, re.I):
            continue
        msg = TRAILER.sub('', msg).strip()
        msg = re.sub(r'\s+', ' ', msg)[:600]
        if len(msg.split()) < 3 or SKIP_MSG.match(msg):
            continue
        files = re.split(rb'^diff --git ', diff, flags=re.M)[1:]
        taken = 0
        for f in files:
            m = re.match(rb'a/(\S+) b/(\S+)', f)
            if not m:
                continue
            path = m.group(2).decode('utf8', 'replace')
            if os.path.splitext(path)[1].lower() not in CODE_EXT or SKIP_DIRS.search(path):
                continue
            body = []
            for line in f.decode('utf8', 'replace').split('\n'):
                if line.startswith('@@'):
                    ctx = line.split('@@')[-1].strip()
                    if ctx:
                        body.append(ctx)
                elif line.startswith('+') and not line.startswith('+++'):
                    body.append(line[1:])
                elif line.startswith(' '):
                    body.append(line[1:])
            code = cap('\n'.join(body))
            if len(code.strip()) < 20:
                continue
            out.append(('commit', msg, f'{path}\n{code}'))
            taken += 1
            if taken >= 3:
                break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--repos', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--recipe', default=os.path.join(os.path.dirname(__file__), 'recipe.json'))
    a = ap.parse_args()
    recipe = json.load(open(a.recipe))
    os.makedirs(a.out, exist_ok=True)
    seen = set()
    counts = {}
    with open(os.path.join(a.out, 'pairs.jsonl'), 'w') as w:
        for r in recipe['repos']:
            gitdir = os.path.join(a.repos, r['repo'].replace('/', '+'), 'repo')
            files = read_tree(gitdir, r['commit'])
            defs = {}
            pairs = []
            for path, text in files.items():
                ext = os.path.splitext(path)[1].lower()
                lang = CODE_EXT.get(ext)
                if lang == 'python':
                    pairs += python_pairs(path, text, defs)
                elif lang in ('ts', 'js', 'java'):
                    pairs += js_pairs(path, text, defs)
                elif lang == 'go':
                    pairs += go_pairs(path, text, defs)
            readme = []
            for path, text in sorted(files.items()):
                if os.path.splitext(path)[1].lower() in DOC_EXT and not FOREIGN_DOCS.search(path):
                    readme += readme_pairs(path, text, defs)
            pairs += readme[:MAX_README_PER_REPO]
            if r.get('commit_pairs', True):
                pairs += commit_pairs(gitdir, r['commit'], recipe['commits_per_repo'])
            for kind, nl, code in pairs:
                h = hashlib.sha1((nl + '\0' + code).encode()).digest()
                if h in seen:
                    continue
                seen.add(h)
                w.write(json.dumps({'repo': r['repo'], 'kind': kind, 'nl': nl, 'code': code}) + '\n')
                counts[(r['repo'], kind)] = counts.get((r['repo'], kind), 0) + 1
            print(r['repo'], {k[1]: v for k, v in counts.items() if k[0] == r['repo']}, file=sys.stderr, flush=True)
    total = {}
    for (_, k), v in counts.items():
        total[k] = total.get(k, 0) + v
    print('total', total, file=sys.stderr)


if __name__ == '__main__':
    main()
