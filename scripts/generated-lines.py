#!/usr/bin/env python3
"""Register-module size of a generated file (BENCHMARKS.md, issue 27): the modules with a
register marker type (`pub type Register = X;`), their lines (doc comment to closing brace),
their tock-registers field constants and functions, and the lines per field constant.

Usage: scripts/generated-lines.py pmu-regs/src/generated.rs
"""
import re
import sys
s = open(sys.argv[1]).read().split('\n')
# register modules: a `pub mod X {` whose body declares `pub type Register = X;`
mods = []
stack = []
total_lines = 0; fields = 0; fns = 0
i = 0
n = len(s)
starts = [k for k, l in enumerate(s) if re.match(r'\s*pub mod [A-Za-z0-9_]+ \{', l)]
reg_lines = 0; reg_fields = 0; reg_fns = 0; nreg = 0
for k in starts:
    name = re.match(r'\s*pub mod ([A-Za-z0-9_]+) \{', s[k]).group(1)
    # find end by brace counting
    depth = 0; j = k
    while True:
        depth += s[j].count('{') - s[j].count('}')
        if depth == 0 and j > k: break
        j += 1
        if j >= n: break
    body = s[k:j+1]
    if not any(re.match(r'\s*pub type Register = %s;' % name, l) for l in body[:15]): continue
    nreg += 1
    # attribute/doc lines right above belong to the module
    a = k
    while a > 0 and re.match(r'\s*(#\[|///|\*|[a-z_,()\s]*\)\]|non_|missing_|deprecated|clippy|unused|\))', s[a-1]) and not s[a-1].strip().startswith('pub'):
        a -= 1
    reg_lines += j + 1 - a
    reg_fields += sum(1 for l in body if re.search(r'pub const [A-Za-z0-9_]+: Field<u64, Register>', l))
    reg_fns += sum(1 for l in body if re.search(r'\bfn ', l))
print(f"register modules {nreg}, lines {reg_lines}, field constants {reg_fields}, per field {reg_lines/max(reg_fields,1):.1f}, fns {reg_fns}")
print("file lines", n, "fns", sum(1 for l in s if re.search(r'\bfn ', l)))
