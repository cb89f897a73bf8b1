#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Write the plugin SDK reference (docs/reference/sdk.md) from the public
# headers include/boostlab/*.h: per header its file comment, then every
# struct, union, enum, typedef, macro and function it declares with the
# comment right above or beside it, struct members and enum constants in a
# table.  Python 3 standard library only; the output depends on the header
# text alone (no dates, no paths outside the tree), so it can be committed
# and compared.
#
#   scripts/sdk-reference.py [-o OUT.md] [INCLUDE_DIR]
#
# INCLUDE_DIR defaults to include/boostlab beside this script.  The parser
# knows just enough C for headers: comments, preprocessor lines and
# declarations split at top-level semicolons (or at the closing brace of an
# inline function); it is not a C compiler and does not try to be.

import argparse
import os
import re
import sys

# ---- lexing ---------------------------------------------------------------


class Tok:
    """A comment, a preprocessor directive or a run of code on one line."""

    def __init__(self, kind, text, line, end_line=None):
        self.kind = kind  # 'comment', 'directive', 'code'
        self.text = text
        self.line = line
        self.end_line = line if end_line is None else end_line
        self.beside = None  # directives: the comment on their line

    def __repr__(self):
        return "Tok(%s, %r, %d-%d)" % (self.kind, self.text, self.line, self.end_line)


def lex(src):
    """Comments, directives (with continuation lines joined) and code runs,
    each with its first and last line number (1-based)."""
    toks = []
    i, n, line = 0, len(src), 1
    at_line_start = True
    code, code_line = [], 1

    def flush():
        nonlocal code
        text = "".join(code)
        if text.strip():
            toks.append(Tok("code", text, code_line))
        code = []

    while i < n:
        c = src[i]
        if c == "\n":
            flush()
            line += 1
            i += 1
            at_line_start = True
            continue
        if at_line_start and c in " \t":
            i += 1
            continue
        if at_line_start and c == "#":
            # a directive: up to an end of line not escaped by a backslash;
            # a comment inside it is kept as the directive's beside comment
            start = line
            text, beside = [], None
            while i < n and src[i] != "\n":
                if src.startswith("/*", i):
                    j = src.find("*/", i + 2)
                    j = n if j < 0 else j + 2
                    body = src[i:j]
                    beside = Tok("comment", body, line, line + body.count("\n"))
                    line += body.count("\n")
                    text.append(" ")
                    i = j
                elif src.startswith("//", i):
                    j = src.find("\n", i)
                    j = n if j < 0 else j
                    beside = Tok("comment", "/*" + src[i + 2 : j] + "*/", line)
                    i = j
                elif src[i] == "\\" and src.startswith("\n", i + 1):
                    text.append(" ")
                    line += 1
                    i += 2
                else:
                    text.append(src[i])
                    i += 1
            t = Tok("directive", re.sub(r"\s+", " ", "".join(text)).strip(), start, line)
            t.beside = beside
            toks.append(t)
            continue
        at_line_start = False
        if src.startswith("/*", i) or src.startswith("//", i):
            flush()
            if src[i + 1] == "*":
                j = src.find("*/", i + 2)
                j = n if j < 0 else j + 2
                body = src[i:j]
            else:
                j = src.find("\n", i)
                j = n if j < 0 else j
                body = "/*" + src[i + 2 : j] + "*/"
            toks.append(Tok("comment", body, line, line + src[i:j].count("\n")))
            line += src[i:j].count("\n")
            i = j
            code_line = line
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            if not code:
                code_line = line
            code.append(src[i : j + 1])
            i = j + 1
            continue
        if not code:
            code_line = line
        code.append(c)
        i += 1
    flush()
    return toks


def comment_lines(tok):
    """The text lines of a comment, without /* */ and the leading ' * '."""
    body = tok.text
    body = body[2:-2] if body.endswith("*/") else body[2:]
    lines = body.split("\n")
    out = []
    for k, ln in enumerate(lines):
        ln = ln.rstrip()
        if k > 0:
            m = re.match(r"^\s*\*(?!/)( ?)(.*)$", ln)
            if m:
                ln = m.group(2)
                if not m.group(1) and ln.startswith(" "):
                    ln = ln[1:]
        out.append(ln)
    # the first line keeps its text after "/*", without one leading blank
    if out and out[0].startswith(" "):
        out[0] = out[0][1:]
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    # continuation lines of a beside comment are aligned under the first
    # line's text: drop their common indentation
    rest = [ln for ln in out[1:] if ln.strip()]
    if rest:
        ind = min(len(ln) - len(ln.lstrip(" ")) for ln in rest)
        out = [out[0]] + [ln[ind:] if ln.strip() else "" for ln in out[1:]]
    return out


DIVIDER = re.compile(r"^-{2,}\s*(.*?)\s*-*$")


def divider_title(lines):
    """'---- roles ----' comments mark sections of a header: their title."""
    if lines and DIVIDER.match(lines[0].strip()):
        return DIVIDER.match(lines[0].strip()).group(1)
    return None


# ---- Markdown text ------------------------------------------------------


def md_inline(s, table=False):
    """Free text with what Markdown would take for markup escaped, and no
    more, so that the source stays readable: `code` in a comment stays a
    code span; '*' and '_' only when they could open or close emphasis
    (not between two blanks, not '_' inside a word); '<' before what could
    be a tag; ']' before '(' (a link); '|' in table cells."""
    out = []
    parts = re.split(r"(`[^`]+`)", s)
    for p in parts:
        if p.startswith("`") and p.endswith("`") and len(p) > 1:
            out.append(p.replace("|", "\\|") if table else p)
            continue
        for k, c in enumerate(p):
            prev = p[k - 1] if k else " "
            nxt = p[k + 1] if k + 1 < len(p) else " "
            if c in "\\`" or (table and c == "|"):
                out.append("\\" + c)
            elif c == "*" and not (prev.isspace() and nxt.isspace()):
                out.append("\\*")
            elif c == "_" and not (prev.isalnum() and nxt.isalnum()) and \
                    not (prev.isspace() and nxt.isspace()):
                out.append("\\_")
            elif c == "<" and (nxt.isalpha() or nxt in "/!?"):
                out.append("\\<")
            elif c == "]" and nxt == "(":
                out.append("\\]")
            else:
                out.append(c)
    return "".join(out)


def long_doc(lines):
    """Too much for a table cell: several paragraphs or a formula."""
    body = [ln for ln in lines if ln.strip()]
    return any(not ln.strip() for ln in lines) or \
        (len(body) > 1 and any(ln.startswith("  ") for ln in body[1:]))


def lead(lines):
    """The start of a long comment for a table cell: its first sentence,
    or what comes before its first formula or blank line."""
    head = []
    for ln in lines:
        if not ln.strip() or (head and ln.startswith("  ")):
            break
        head.append(ln)
    return first_sentence(head).rstrip(",;:")


def first_sentence(lines):
    text = " ".join(ln.strip() for ln in lines if ln.strip())
    m = re.match(r"^(.*?[.!?])(\s|$)", text)
    return m.group(1) if m else text


def md_line_start(s):
    """Escape what would start a heading, quote or list at a line start."""
    if re.match(r"^(#|>|[-+*] |\d+[.)] |=+\s*$|-+\s*$)", s):
        return "\\" + s
    return s


def md_block(lines):
    """Comment lines as Markdown: paragraphs keep their line breaks (soft
    breaks), lines indented deeper than the paragraph become code blocks."""
    out = []
    k = 0
    base = min((len(ln) - len(ln.lstrip(" ")) for ln in lines if ln.strip()), default=0)
    lines = [ln[base:] if ln.strip() else "" for ln in lines]
    while k < len(lines):
        ln = lines[k]
        if not ln.strip():
            if out and out[-1] != "":
                out.append("")
            k += 1
            continue
        if ln.startswith("  "):
            block = []
            while k < len(lines) and (lines[k].startswith("  ") or not lines[k].strip()):
                block.append(lines[k])
                k += 1
            while block and not block[-1].strip():
                block.pop()
            ind = min(len(b) - len(b.lstrip(" ")) for b in block if b.strip())
            if out and out[-1] != "":
                out.append("")
            out.append("```")
            out.extend(b[ind:] for b in block)
            out.append("```")
            out.append("")
            continue
        out.append(md_line_start(md_inline(ln.strip())))
        k += 1
    while out and out[-1] == "":
        out.pop()
    return out


def md_cell(lines):
    """Comment lines in one table cell."""
    text = " ".join(ln.strip() for ln in lines if ln.strip())
    return md_inline(re.sub(r"\s+", " ", text), table=True)


def code_span(s, table=False):
    s = re.sub(r"\s+", " ", s).strip()
    if table:
        s = s.replace("|", "\\|")
    fence = "``" if "`" in s else "`"
    pad = " " if fence == "``" else ""
    return fence + pad + s + pad + fence


def norm(s):
    """Code on one line: single spaces, none inside parentheses' edges."""
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"\(\s+", "(", s)
    s = re.sub(r"\s+\)", ")", s)
    s = re.sub(r"\s+([,;])", r"\1", s)
    return s


# ---- declarations -------------------------------------------------------


def split_body(toks, sep):
    """Split the tokens of a struct or enum body into items at `sep` (';' or
    ','), at parenthesis depth 0.  Each item: (code, doc lines) with the doc
    from the comment above it or beside it (on the line where it ends)."""
    items = []
    cur, depth = [], 0
    above = []       # comments seen since the last item ended
    last_end = None  # line where the last item ended
    last = None

    def finish(end_line):
        nonlocal cur, above, last_end, last
        code = "".join(cur).strip()
        if code:
            doc = []
            for cm in above:
                if doc and cm:
                    doc.append("")
                doc.extend(cm)
            item = {"code": code, "doc": doc, "note": None}
            items.append(item)
            last = item
        cur, above = [], []
        last_end = end_line

    for t in toks:
        if t.kind == "comment":
            lines = comment_lines(t)
            title = divider_title(lines)
            if title is not None:
                # "---- code space ----" inside a struct: a note on what follows
                items.append({"code": None, "doc": [], "note": title})
                above = [lines[1:]] if lines[1:] else []
                continue
            if last is not None and last_end == t.line and not "".join(cur).strip():
                last["doc"].extend(lines)  # beside the item that just ended
            else:
                above.append(lines)  # above the next item (or inside it)
            continue
        if t.kind == "directive":
            continue
        for ch in t.text:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            if ch == sep and depth == 0:
                finish(t.line)
                continue
            cur.append(ch)
        cur.append(" ")
    if "".join(cur).strip():
        finish(last_end if last_end else 0)
    return items


def declarator_name(code):
    """Names declared by a member or variable declaration."""
    code = re.sub(r"__attribute__\s*\(\(.*?\)\)\s*$", "", code.strip())
    code = re.sub(r"\{.*\}", "", code, flags=re.S)  # a nested struct's body
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", code)  # function pointer
    if m:
        return m.group(1)
    code = re.sub(r"\[[^\]]*\]", "", code)  # array bounds
    code = re.sub(r"\s*:\s*\d+$", "", code)  # bit-fields
    # several declarators: "size_t m, d, k"
    parts = [p.strip() for p in code.split(",")]
    names = []
    for p in parts:
        m = re.search(r"(\w+)\s*$", p)
        if m:
            names.append(m.group(1))
    return ", ".join(names)


def parse_decl(code):
    """Kind and name of one top-level declaration."""
    code = code.strip()
    head = code.split("{", 1)[0]
    m = re.match(r"^(typedef\s+)?(struct|union|enum)\s*(\w+)?\s*\{", code)
    if m and not m.group(1):
        return m.group(2), m.group(3) or "(anonymous)"
    if m:  # typedef struct [tag] {...} NAME;
        t = re.search(r"(\w+)\s*;?$", code.rsplit("}", 1)[-1])
        return m.group(2), t.group(1) if t else (m.group(3) or "(anonymous)")
    if re.match(r"^\s*typedef\b", code):
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", head)
        if m:
            return "typedef", m.group(1)
        m = re.search(r"(\w+)\s*(\[[^\]]*\])?\s*;?\s*$", code.rsplit("}", 1)[-1])
        return "typedef", m.group(1) if m else "?"
    m = re.search(r"(\w+)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*(__attribute__.*)?$",
                  head.strip().rstrip(";").strip(), flags=re.S)
    fnptr = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", head)  # int (*hook)(int);
    if fnptr:
        return "variable", fnptr.group(1)
    if "(" in head and m:
        return "function", m.group(1)
    return "variable", declarator_name(code.rstrip(";"))


def split_braces(toks):
    """Tokens before the first '{', inside the outer braces, and after."""
    before, body, after = [], [], []
    depth, state = 0, 0
    for t in toks:
        if t.kind != "code":
            (before, body, after)[state].append(t)
            continue
        cur = {0: [], 1: [], 2: []}
        for ch in t.text:
            if state == 0 and ch == "{":
                state, depth = 1, 1
                continue
            if state == 1:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        state = 2
                        continue
            cur[state].append(ch)
        for s in (0, 1, 2):
            if "".join(cur[s]).strip():
                (before, body, after)[s].append(Tok("code", "".join(cur[s]), t.line))
    return before, body, after


# ---- a header -------------------------------------------------------------


class Header:
    def __init__(self, name, src):
        self.name = name
        self.file_doc = []
        self.includes = []
        self.entries = []  # ('section', title, lines) | ('text', lines) | ('item', dict)
        self._parse(lex(src))

    def _parse(self, toks):
        k = 0
        # the file comment: the first comment that is not the SPDX line
        while k < len(toks) and toks[k].kind == "comment":
            lines = comment_lines(toks[k])
            k += 1
            if lines and lines[0].startswith("SPDX-License-Identifier"):
                continue
            self.file_doc = lines
            break
        guard = None
        cond = []  # open #if blocks: [directive, branch, skip, is_guard, line]
        pending = []  # comments waiting for the next declaration
        decl, depth = [], 0
        macro_group = None

        def skipping():
            return any(c[2] for c in cond)

        def flush_pending(next_line):
            """Comments not followed directly by what they describe stand
            as text of their own; return the one right above next_line."""
            nonlocal pending
            doc = None
            for idx, cm in enumerate(pending):
                lines = comment_lines(cm)
                title = divider_title(lines)
                if title is not None:
                    self.entries.append(("section", title, lines[1:]))
                elif idx == len(pending) - 1 and next_line is not None and \
                        cm.end_line + 1 >= next_line:
                    doc = lines
                else:
                    self.entries.append(("text", lines))
            pending = []
            return doc

        while k < len(toks):
            t = toks[k]
            k += 1
            if t.kind == "comment":
                if decl:
                    decl.append(t)
                elif not skipping():
                    pending.append(t)
                continue
            if t.kind == "directive":
                d = t.text
                word = re.match(r"#\s*(\w*)", d).group(1)
                if word in ("if", "ifdef", "ifndef"):
                    name = d.split()[1] if len(d.split()) > 1 else ""
                    if word == "ifndef" and guard is None and not self.entries and \
                            not cond and name.endswith("_H"):
                        guard = name
                        cond.append([d, "if", False, True, t.line])
                        continue
                    skip = "__cplusplus" in d
                    cond.append([d, "if", skip, False, t.line])
                    continue
                if word in ("else", "elif"):
                    if cond:
                        cond[-1][1] = d
                    continue
                if word == "endif":
                    if cond:
                        cond.pop()
                    if macro_group and macro_group.get("cond"):
                        macro_group["close"] = True
                        macro_group["end"] = t.end_line
                    continue
                if skipping():
                    continue
                if word == "include":
                    inc = d.split(None, 1)[1] if len(d.split()) > 1 else ""
                    self.includes.append(inc.strip('"<>'))
                    continue
                if word == "define":
                    m = re.match(r"#\s*define\s+(\w+)(\([^)]*\))?\s*(.*)$", d)
                    name = m.group(1)
                    if name == guard:
                        continue
                    inner = [c for c in cond if not c[3]]
                    branch = (inner[-1][0], inner[-1][1]) if inner else None
                    # a comment documents a conditional group from above its #if
                    doc_line = inner[-1][4] if inner else t.line
                    df = {"name": name, "args": m.group(2) or "", "value": m.group(3),
                          "beside": comment_lines(t.beside) if t.beside else None,
                          "branch": branch}
                    grp = macro_group
                    joins = grp is not None and not pending and (
                        grp["end"] + 1 >= t.line and not grp.get("close")
                        or (branch and grp.get("cond") == branch[0]))
                    if joins:
                        grp["defs"].append(df)
                        grp["end"] = t.end_line
                        if branch:
                            grp["cond"] = branch[0]
                    else:
                        doc = flush_pending(doc_line)
                        macro_group = {"defs": [df], "end": t.end_line, "doc": doc or [],
                                       "cond": branch[0] if branch else None}
                        self.entries.append(("item", {"kind": "macro", "group": macro_group}))
                    continue
                continue  # #undef, #pragma, #error: not documented
            # code
            if skipping():
                continue
            macro_group = None
            if not decl:
                first_line = t.line
                doc = flush_pending(t.line)
            decl.append(t)
            done = False
            for ch in t.text:
                if ch in "{(":
                    depth += 1
                elif ch in "})":
                    depth -= 1
                    if depth == 0 and ch == "}":
                        code = "".join(x.text for x in decl if x.kind == "code")
                        head = code.split("{", 1)[0]
                        if "(" in head and not re.match(r"^\s*(typedef|struct|union|enum)\b",
                                                        head) and "=" not in head:
                            done = True  # an inline function's body ended
                elif ch == ";" and depth == 0:
                    done = True
            if done:
                # a comment right after the declaration, on its last line
                beside = []
                while k < len(toks) and toks[k].kind == "comment" and \
                        toks[k].line == t.line:
                    beside.extend(comment_lines(toks[k]))
                    k += 1
                self._declaration(decl, (doc or []) + beside, first_line)
                decl, depth = [], 0
        flush_pending(None)

    def _declaration(self, toks, doc, line):
        code = "".join(t.text + "\n" for t in toks if t.kind == "code")
        kind, name = parse_decl(code)
        item = {"kind": kind, "name": name, "doc": doc, "line": line}
        if kind in ("struct", "union", "enum") and code.lstrip().startswith("typedef"):
            item["typedef"] = True
        if kind in ("struct", "union", "enum"):
            before, body, after = split_braces(toks)
            item["members"] = split_body(body, "," if kind == "enum" else ";")
            tail = norm("".join(t.text for t in after if t.kind == "code")).rstrip(";").strip()
            if not item.get("typedef"):
                item["declares"] = tail  # "struct x {...} y;" declares y too
        elif kind == "function":
            head = code.split("{", 1)[0] if "{" in code else code
            item["signature"] = norm(head).rstrip(";") + ";"
        else:
            item["signature"] = norm(code)
            if not item["signature"].endswith(";"):
                item["signature"] += ";"
        self.entries.append(("item", item))


# ---- rendering ----------------------------------------------------------------


def render_item(item, level, out):
    h = "#" * level
    kind = item["kind"]
    if kind == "macro":
        grp = item["group"]
        names = []
        for d in grp["defs"]:
            if d["name"] + d["args"] not in names:
                names.append(d["name"] + d["args"])
        out.append("%s %s" % (h, ", ".join("`%s`" % n for n in names)))
        out.append("")
        out.append("```c")
        open_if, open_branch = None, None
        for d in grp["defs"]:
            br = d["branch"]
            if br and br[0] != open_if:
                if open_if:
                    out.append("#endif")
                out.append(br[0])
                open_if, open_branch = br[0], "if"
            if br and br[1] != open_branch:
                out.append(br[1])
                open_branch = br[1]
            out.append(("#define %s%s %s" % (d["name"], d["args"], d["value"])).rstrip())
        if open_if:
            out.append("#endif")
        out.append("```")
        out.append("")
        if grp["doc"]:
            out.extend(md_block(grp["doc"]))
            out.append("")
        besides = [d for d in grp["defs"] if d["beside"]]
        if besides:
            for d in besides:
                out.append("- `%s`: %s" % (d["name"], md_cell(d["beside"])))
            out.append("")
        return
    title = {"struct": "struct %s", "union": "union %s", "enum": "enum %s",
             "typedef": "typedef %s", "function": "%s()", "variable": "%s"}[kind]
    if item.get("typedef"):
        title = "typedef " + kind + " {...} %s"
    out.append("%s `%s`" % (h, title % item["name"]))
    out.append("")
    if kind in ("typedef", "function", "variable"):
        out.append("```c")
        out.append(item["signature"])
        out.append("```")
        out.append("")
    if item["doc"]:
        out.extend(md_block(item["doc"]))
        out.append("")
    if kind in ("struct", "union", "enum"):
        if item.get("declares"):
            out.append("Also declares %s." % code_span(item["declares"]))
            out.append("")
        members = item["members"]
        if kind == "enum":
            out.append("| constant | value | meaning |")
            out.append("|---|---|---|")
        else:
            out.append("| member | declaration | meaning |")
            out.append("|---|---|---|")
        note = None
        below = []
        for mb in members:
            if mb["code"] is None:
                note = mb["note"]
                continue
            if long_doc(mb["doc"]):
                name = declarator_name(mb["code"])
                cell = md_inline(lead(mb["doc"]), table=True) + " (more below)"
                below.append("**`%s`**%s:" % (name, " (%s)" % md_inline(note) if note else ""))
                below.append("")
                below.extend(md_block(mb["doc"]))
                below.append("")
            else:
                cell = md_cell(mb["doc"])
            if note:
                cell = ("**%s.** " % md_inline(note, table=True)) + cell
                note = None
            if kind == "enum":
                nm, _, val = mb["code"].partition("=")
                out.append("| %s | %s | %s |" % (code_span(nm.strip(), True),
                                                 code_span(val.strip(), True) if val.strip()
                                                 else "", cell))
            else:
                out.append("| %s | %s | %s |" % (code_span(declarator_name(mb["code"]), True),
                                                 code_span(norm(mb["code"]) + ";", True), cell))
        out.append("")
        out.extend(below)


def render(headers, out):
    out.append("# Plugin SDK reference")
    out.append("")
    out.append("<!-- Generated by scripts/sdk-reference.py from include/boostlab/*.h "
               "(run scripts/gen-reference.sh); do not edit. -->")
    out.append("")
    out.append("Every declaration of the public headers in `include/boostlab/`, with the "
               "comment the header gives it. Installed, they are `<boostlab/NAME.h>`; "
               "`boostlab.h` includes the others. For a guided tour see "
               "[`docs/sdk.md`](../sdk.md).")
    out.append("")
    out.append("| header | what it is |")
    out.append("|---|---|")
    for h in headers:
        # "boostlab plugin SDK: the output-coding role.  Each ...": the
        # first sentence, after the colon that names the SDK
        first = re.sub(r"^boostlab plugin SDK: ", "",
                       first_sentence(h.file_doc))
        out.append("| [`%s`](#%s) | %s |" % (h.name, re.sub(r"[^a-z0-9-]", "", h.name.lower()),
                                              md_inline(first, table=True)))
    out.append("")
    for h in headers:
        out.append("## %s" % h.name)
        out.append("")
        out.append("`#include <boostlab/%s>`" % h.name)
        out.append("")
        if h.file_doc:
            out.extend(md_block(h.file_doc))
            out.append("")
        if h.includes:
            out.append("Includes: %s." % ", ".join("`%s`" % i for i in h.includes))
            out.append("")
        sections = any(e[0] == "section" for e in h.entries)
        level = 4 if sections else 3
        for e in h.entries:
            if e[0] == "section":
                out.append("### %s" % md_inline(e[1]))
                out.append("")
                if e[2]:
                    out.extend(md_block(e[2]))
                    out.append("")
            elif e[0] == "text":
                out.extend(md_block(e[1]))
                out.append("")
            else:
                render_item(e[1], level, out)
    while out and out[-1] == "":
        out.pop()


def order(names, texts):
    """boostlab.h first, then the headers in the order it includes them,
    then any others by name."""
    first = ["boostlab.h"] if "boostlab.h" in names else []
    incl = []
    if first:
        for m in re.finditer(r'#\s*include\s+"([^"]+)"', texts["boostlab.h"]):
            if m.group(1) in names and m.group(1) not in incl:
                incl.append(m.group(1))
    rest = sorted(n for n in names if n not in first and n not in incl)
    return first + incl + rest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="Write the SDK reference from the headers.")
    ap.add_argument("include_dir", nargs="?",
                    default=os.path.join(here, "..", "include", "boostlab"),
                    help="folder of the SDK headers (default: include/boostlab)")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    args = ap.parse_args()
    names = sorted(f for f in os.listdir(args.include_dir) if f.endswith(".h"))
    if not names:
        sys.exit("sdk-reference.py: no headers in %s" % args.include_dir)
    texts = {}
    for n in names:
        with open(os.path.join(args.include_dir, n), encoding="utf-8") as f:
            texts[n] = f.read()
    headers = [Header(n, texts[n]) for n in order(names, texts)]
    out = []
    render(headers, out)
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
