#!/usr/bin/env python3
r"""Lists the formulas in Rust doc comments that rustdoc's Markdown would change before KaTeX
sees them (docs/api-docs.md). Python 3 standard library only; not a test.

Usage: scripts/rustdoc_math_lint.py [DIR ...]      (default: the repository root)

A formula is a $...$ or $$...$$ span in a doc comment (/// or //!) or in a Markdown file a crate
includes as its docs (#![doc = include_str!("...")]), outside code spans and code blocks.
Reported, one line per formula (file:line: kinds: formula):

- `escape`: a backslash before ASCII punctuation that Markdown eats and KaTeX needs:
  \| (norm), \, \; \! \: \> (spacing), \{ \} (braces), \\ (line break), \# \% \& \$ ...
  Write \Vert, \thinspace, \lbrace ... \rbrace, or double the backslash (\\|).
  (\[ \] \_ \* \< are harmless in math: Markdown leaves [ ] _ * <, which KaTeX reads as meant.)
- `emphasis`: an unescaped * (a pair becomes <em> and splits the formula; write \ast or \*), or
  a _ that Markdown pairs with another into emphasis by CommonMark's rules (after punctuation:
  )_+ ... E_{ or \mathrm{ULA}_T ... \mathrm{OU}_{T}); write \_ there.
- `text-underscore`: _ or \_ inside \text{...}, \mathrm{...}, \operatorname{...}: Markdown
  leaves a bare _, a KaTeX parse error in text mode (a subscript in \mathrm); write \\_.
- `line-break`: a backslash (or two spaces) at the end of a line inside the formula: Markdown
  makes it a <br>, which splits the formula; move the \ to the start of the next line.
- `table`: an unescaped | inside a formula in a table row: it ends the cell; write \vert,
  \Vert or \lvert ... \rvert.
- `html`: a raw HTML tag inside the formula (<b >, </x>); put spaces around < and >.
- `smart`: -- , ... or " , which rustdoc's smart punctuation turns into a dash, an ellipsis or
  curly quotes; write - -, \dots, \text{"}. (' becomes a right quote, which the KaTeX header
  turns back into a prime.)

Exit code 1 when anything is reported.
"""
import os
import re
import sys
import unicodedata

MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+?\$", re.S)  # inline ones may span lines
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # ASCII punctuation: what Markdown unescapes
HARMFUL = PUNCT - set("[]_*<\\")  # punctuation whose backslash KaTeX needs
HTML_TAG = re.compile(
    r"</[A-Za-z][A-Za-z0-9-]*\s*>"
    r"|<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
)
INCLUDED = re.compile(r"#!?\[doc\s*=\s*include_str!\(\s*\"([^\"]+)\"\s*\)\s*\]")


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


def eaten_escape(span, _emph):
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


def emphasis(span, emph):
    """An unescaped * (strict: one today is a pair tomorrow), or a * or _ Markdown pairs."""
    out, escaped = unescape(span)
    return emph or any(c == "*" and not e for c, e in zip(out, escaped))


def text_underscore(span, _emph):
    """A bare _ reaches KaTeX inside \\text{...} and the like."""
    text = "".join(unescape(span)[0])
    return re.search(r"\\(?:text|mathrm|operatorname|texttt)\{[^}]*(?<!\\)_", text) is not None


def line_break(span, _emph):
    """A hard line break: an odd run of backslashes, or two spaces, before a newline."""
    return re.search(r"(?<!\\)(?:\\\\)*\\\n|  \n", span) is not None


def html(span, _emph):
    return HTML_TAG.search(span) is not None


def smart(span, _emph):
    return re.search(r'--|\.\.\.|"', span) is not None


CHECKS = {
    "escape": eaten_escape,
    "emphasis": emphasis,
    "text-underscore": text_underscore,
    "line-break": line_break,
    "html": html,
    "smart": smart,
}


def _space(c):
    return c == "" or c.isspace() or unicodedata.category(c) == "Zs"


def _punct(c):
    return c != "" and (c in PUNCT or unicodedata.category(c)[0] in "PS")


def emphasis_marks(text):
    """Offsets of the * and _ that CommonMark's emphasis rules pair up in `text` (one
    paragraph, code already blanked); links are not modelled."""
    runs, i = [], 0  # [char, start, length, original length, can open, can close]
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in PUNCT:
            i += 2
            continue
        if c in "*_":
            j = i
            while j < len(text) and text[j] == c:
                j += 1
            before = text[i - 1] if i else ""
            after = text[j] if j < len(text) else ""
            left = not _space(after) and (not _punct(after) or _space(before) or _punct(before))
            right = not _space(before) and (not _punct(before) or _space(after) or _punct(after))
            if c == "*":
                opens, closes = left, right
            else:
                opens = left and (not right or _punct(before))
                closes = right and (not left or _punct(after))
            runs.append([c, i, j - i, j - i, opens, closes])
            i = j
        else:
            i += 1
    marks, k = set(), 0
    while k < len(runs):
        closer = runs[k]
        if not closer[5] or closer[2] == 0:
            k += 1
            continue
        for o in range(k - 1, -1, -1):
            opener = runs[o]
            if opener[0] != closer[0] or not opener[4] or opener[2] == 0:
                continue
            if (opener[5] or closer[4]) and (opener[3] + closer[3]) % 3 == 0 and not (
                opener[3] % 3 == 0 and closer[3] % 3 == 0
            ):
                continue
            n = 2 if opener[2] >= 2 and closer[2] >= 2 else 1
            opener[2] -= n
            marks.update(range(opener[1] + opener[2], opener[1] + opener[2] + n))
            marks.update(range(closer[1], closer[1] + n))
            closer[1] += n
            closer[2] -= n
            for between in runs[o + 1:k]:
                between[2] = 0
            break
        else:
            k += 1
    return marks


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


def paragraphs(text):
    """(start, end) of each paragraph: blank lines, list items and headings end one."""
    start = 0
    for m in re.finditer(r"\n(?=\s*\n|\s*(?:[-*+]|\d+[.)])\s|\s*#)", text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)


def lint_text(text):
    """(offset, kinds, formula) of each formula to fix in one Markdown text."""
    text = blank_code(text)
    marks = set()
    for a, b in paragraphs(text):
        marks.update(a + m for m in emphasis_marks(text[a:b]))
    for m in MATH.finditer(text):
        span = m.group(0)
        if re.search(r"\n\s*\n", span):
            continue  # not within one paragraph: not a formula
        emph = any(m.start() <= p < m.end() for p in marks)
        kinds = [k for k, check in CHECKS.items() if check(span, emph)]
        row = text.rfind("\n", 0, m.start()) + 1
        if text[row:].lstrip().startswith("|") and re.search(r"(?<!\\)\|", span):
            kinds.append("table")
        if kinds:
            yield m.start(), kinds, span


def lint_file(path):
    """(line, kinds, formula) for a .rs file's doc comments."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for start, block in doc_blocks(lines):
        text = "\n".join(block)
        for offset, kinds, span in lint_text(text):
            yield start + text.count("\n", 0, offset), kinds, span


def lint_markdown(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for offset, kinds, span in lint_text(text):
        yield 1 + text.count("\n", 0, offset), kinds, span


def included(path):
    """Markdown files a .rs file includes as docs."""
    with open(path, encoding="utf-8") as f:
        for name in INCLUDED.findall(f.read()):
            yield os.path.normpath(os.path.join(os.path.dirname(path), name))


def main(dirs):
    found = 0
    for root in dirs:
        for dp, dn, fn in os.walk(root):
            dn[:] = sorted(d for d in dn if d not in ("target", ".git"))
            for name in sorted(fn):
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(dp, name)
                results = [(path, r) for r in lint_file(path)]
                for md in included(path):
                    results += [(md, r) for r in lint_markdown(md)]
                for p, (line, kinds, span) in results:
                    found += 1
                    print(f"{os.path.relpath(p)}:{line}: {','.join(kinds)}: {' '.join(span.split())[:160]}")
    print(f"{found} formula(s) to fix", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main(sys.argv[1:] or [here]))
