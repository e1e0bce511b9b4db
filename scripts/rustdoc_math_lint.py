#!/usr/bin/env python3
r"""Lists the formulas in Rust doc comments that rustdoc's Markdown would change before KaTeX
sees them (docs/api-docs.md). Stdlib only; not a test.

Usage: scripts/rustdoc_math_lint.py [DIR ...]      (default: the repository root)

A formula is a $...$ or $$...$$ span in a doc comment (/// or //!), outside code spans and
code blocks. Reported, one line per formula (file:line: kinds: formula):

- `escape`: a backslash before ASCII punctuation that Markdown eats and KaTeX needs:
  \| (norm), \, \; \! \: \> (spacing), \{ \} (braces), \\ (line break), \# \% \& \$ ...
  Write \Vert, \thinspace, \lbrace ... \rbrace, or double the backslash (\\|).
  (\[ \] \_ \* \< are harmless in math: Markdown leaves [ ] _ * <, which KaTeX reads as meant.)
- `emphasis`: an unescaped * (a pair becomes <em> and splits the formula); write \ast or \*.
- `text-underscore`: _ or \_ inside \text{...}, \mathrm{...}, \operatorname{...}: Markdown
  leaves a bare _, a KaTeX parse error in text mode (a subscript in \mathrm); write \\_.

Exit code 1 when anything is reported.
"""
import os
import re
import sys

MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+?\$", re.S)  # inline ones may span lines
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # ASCII punctuation: what Markdown unescapes
HARMFUL = PUNCT - set("[]_*<\\")  # punctuation whose backslash KaTeX needs


def unescape(span):
    """What Markdown hands on: each backslash before ASCII punctuation dropped. Returns the
    characters and, for each, whether it came from such an escape."""
    out, escaped, i = [], [], 0
    while i < len(span):
        if span[i] == "\\" and i + 1 < len(span) and span[i + 1] in PUNCT:
            out.append(span[i + 1])
            escaped.append(True)
            i += 2
        else:
            out.append(span[i])
            escaped.append(False)
            i += 1
    return out, escaped


def eaten_escape(span):
    """A backslash KaTeX needs is dropped: \\| \\, \\{ ... written with one backslash, or a
    LaTeX line break written \\\\ (Markdown leaves one backslash: write four)."""
    out, escaped = unescape(span)
    if any(e and c in HARMFUL for c, e in zip(out, escaped)):
        return True
    text = "".join(out)
    for m in re.finditer(r"\\+", text):
        from_escape = any(escaped[m.start():m.end()])
        followed = text[m.end():m.end() + 1]
        if from_escape and len(m.group(0)) % 2 == 1 and (followed == "" or followed.isspace()):
            return True
    return False


def text_underscore(span):
    """A bare _ reaches KaTeX inside \\text{...} and the like."""
    text = "".join(unescape(span)[0])
    return re.search(r"\\(?:text|mathrm|operatorname|texttt)\{[^}]*(?<!\\)_", text) is not None


CHECKS = {
    "escape": eaten_escape,
    "emphasis": re.compile(r"(?<!\\)\*").search,
    "text-underscore": text_underscore,
}


def doc_blocks(lines):
    """(first line number, text) of each run of consecutive doc-comment lines."""
    block, start = [], 0
    for i, line in enumerate(lines, 1):
        m = re.match(r"\s*//[/!](.*)", line)
        if m and not line.lstrip().startswith("////"):
            if not block:
                start = i
            block.append(m.group(1))
        elif block:
            yield start, block
            block = []
    if block:
        yield start, block


def blank_code(text):
    """Code blocks and code spans replaced by spaces (keeps offsets and newlines)."""
    keep = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"```.*?```", keep, text, flags=re.S)
    return re.sub(r"`[^`\n]*`", keep, text)


def lint_file(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for start, block in doc_blocks(lines):
        text = "\n".join(block)
        for m in MATH.finditer(blank_code(text)):
            span = m.group(0)
            if re.search(r"\n\s*\n", span):
                continue  # not within one paragraph: not a formula
            kinds = [k for k, check in CHECKS.items() if check(span)]
            if kinds:
                line = start + text.count("\n", 0, m.start())
                yield line, kinds, " ".join(span.split())


def main(dirs):
    found = 0
    for root in dirs:
        for dp, dn, fn in os.walk(root):
            dn[:] = [d for d in dn if d not in ("target", ".git")]
            for name in sorted(fn):
                if name.endswith(".rs"):
                    path = os.path.join(dp, name)
                    for line, kinds, span in lint_file(path):
                        found += 1
                        print(f"{os.path.relpath(path)}:{line}: {','.join(kinds)}: {span[:160]}")
    print(f"{found} formula(s) to fix", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main(sys.argv[1:] or [here]))
