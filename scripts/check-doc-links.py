#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md points at a file that exists,
and every #anchor at a heading of that file (GitHub's heading slugs). Exits 1 on a broken link.

    scripts/check-doc-links.py [REPOSITORY_ROOT]
"""
import os, re, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
os.chdir(root)
files = ['README.md'] + sorted(glob.glob('docs/*.md'))

def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[`*_]', '', h)
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')

def anchors(path):
    out = set()
    in_code = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            in_code = not in_code
            continue
        if not in_code and line.startswith('#'):
            out.add(slug(line.lstrip('#')))
    return out

bad = 0
link = re.compile(r'\]\(([^)\s]+)\)')
for f in files:
    in_code = False
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        if line.startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in link.findall(line):
            if re.match(r'[a-z]+:', target):
                continue
            path, _, frag = target.partition('#')
            full = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(full):
                print(f'{f}:{n}: missing file {target}'); bad += 1
            elif frag and full.endswith('.md') and frag not in anchors(full):
                print(f'{f}:{n}: missing anchor {target}'); bad += 1
print(f'{len(files)} files checked, {bad} broken links')
sys.exit(1 if bad else 0)
