#!/usr/bin/env python3
"""difftest.py - the frame-to-shared rewrite (sass/rewrite/rewrite.c) checked by
disassembly: every line the rewrite changed is one it meant to change.

  difftest.py [--any | --no-moves] ORION_SASS NVDISASM CUOBJDUMP WORKDIR CUBIN...

For each cubin: `orion-sass frame` and `info` must succeed; `orion-sass
rewrite --smem-frame --no-dynamic-smem --block 32` writes WORKDIR/<name>.rw.cubin
(the default layout) and, again with `--layout ptxas`, <name>.ptxas.cubin;
`orion-sass info`, `cuobjdump -elf` and `nvdisasm` must read both.  Then,
per text section of a rewritten kernel (its call tree), address by address
of the `nvdisasm -c` listing:
  - nothing moved: every old instruction is at its old address, with its old
    annotation, and a function the rewrite left alone is identical;
  - the kernel's first instruction (LDC R1 on sm_90; MOV or IMAD.MOV.U32
    R1 from c[0x0][X] on sm_80-89) became a BRA to the 10-instruction
    prologue (S2R SR_TID.X/Y/Z, S2R SR_CgaCtaId, LDC c[0x0][0x0]/[0x4],
    three IMADs, IMAD R1; on sm_80-89, which have no clusters, 8: no
    SR_CgaCtaId, the constants loaded by the kernel's own instruction, the
    third IMAD writes R1) appended at the old end of the section, followed
    by a BRA back to the kernel's second instruction and NOP padding; the
    kernel's R1 moves became NOPs (partial: see below);
  - every other changed line is LDL/STL [R1+off] -> LDS/STS [R1+off'] with
    the same guard, data registers and width, off' = region + p * N * G +
    off % G: with --layout ptxas p = off / G; with the default layout p is
    one granule per (function, off / G), the same for every access of it,
    distinct within the function and below the reported slot count;
  - or, when the report says wide accesses were split (G = 4), an access
    wider than 4 bytes -> BRA to a stub after the prologue holding one
    4-byte LDS/STS per word (same guard, register r + j, word j at granule
    off / 4 + j under the rules above) and a BRA back to the next
    instruction; the stubs, one per split access, are all that lies
    between the prologue and the NOP padding; control bits (nvdisasm -hex):
    the BRA in the access's place waits on what the access waited on, every
    piece sets the access's read/write scoreboards and waits on none, and
    no inserted instruction has stall 0 or reuse flags;
  - the rewrite is run a third time with --granule wide, and the rules
    hold for that output too (no split: G the widest access), and with
    --granule split (every wider access split, in callees too);
  - and a fourth time with --layout moves --min-heights (the compressible
    stack compressing every call to its live slots): where the report
    says slots moved at calls, the instruction before such a CALL -> BRA
    to a stub holding that instruction (an LDL/STL rewritten by the rules
    above), then pairs LDS Rt, [R1+a] ; STS [R1+b], Rt of 4-byte pieces of
    slots (one Rt per site, a != b, both region + p * N * G + 4j), then a
    BRA to the CALL; the instruction after the CALL -> BRA to a stub with
    the same pairs reversed (LDS Rt, [R1+b] ; STS [R1+a], Rt) in an order
    that puts every moved value back (run on a symbolic memory),
    that instruction, and a BRA to the one after it; the stubs take the
    instructions the report says; the first LDS of each stub waits on every
    scoreboard, the displaced instructions keep their scoreboards and wait
    at least on what they waited on, nothing inserted has stall 0 or reuse;
  - and a fifth and sixth time with --partial --smem-limit 0x1000
    --reg-limit 255 (and --granule wide): where the report says the
    rewrite is partial, on-chip accesses use the reported base register
    Rb instead of R1, the prologue's last IMAD writes Rb and is followed by
    the kernel's own load of R1, the R1 moves stay, Rb is named by no old
    instruction, and an access stays as it was (or a split piece is the
    LDL/STL [R1+off+4j] of its word, same guard and register); a granule
    is either always local or always at one on-chip slot, below the
    reported count; info keeps the frame and gives the reported register
    count;
  - and twice with --colour (and --partial): the same rules, except that
    granules of a function may share a slot (the colourer's claim that
    they are never live together is not checked here);
  - and twice with --dynamic (and --partial --warp-limit 0x400): the region
    at the end of dynamic shared memory warp by warp, so the prologue's
    IMAD of t * G becomes S2R R2, SR_LANEID; the load of D = c[0x0][0x2c]
    into R5; IMAD R3, R3, -C * G; IMAD R3, R2, C * G + G, R3; IADD3 of
    region - 32 * C * G and R5 (region: where dynamic memory starts, the
    static size the info then gives), and off' = p * 32 * G + off % G
    relative to the base register; no EIATTR_MAX_THREADS is added;
  - every EXIT_INSTR_OFFSETS entry is an EXIT instruction, and every
    EIATTR_ANNOTATIONS offset carries nvdisasm's annotation;
  - `orion-sass info` reports frame 0 and the grown shared size;
  - a kernel that had no .nv.shared.<k> has one now (readelf -S: NOBITS,
    flags WAI, sh_info its text section), with a section symbol, inside the
    writable LOAD segment (readelf -l), and max-threads 32 in `info` when it
    had no launch bounds.
At least one kernel must have been rewritten, one with an added section,
one with calls, one with split accesses, one with moves at calls and one in
part over all cubins, the added section only where a cubin is sm_90 (the
test cannot pass vacuously; with --any, for cubins chosen for no such
reason, only one rewritten and one in part; with --no-moves, all but the
moves); exit 1 on the first mismatch, with the lines.
"""
import os
import re
import subprocess
import sys

PROLOGUE = [
    r"S2R R0, SR_TID\.X",
    r"S2R R2, SR_TID\.Y",
    r"S2R R3, SR_TID\.Z",
    r"S2R R4, SR_CgaCtaId",
    r"LDC R5, c\[0x0\]\[(RZ|0x0)\]",
    r"LDC R6, c\[0x0\]\[0x4\]",
    r"IMAD R3, R3, R6, R2",
    r"IMAD R3, R3, R5, R0",
    r"IMAD(\.SHL)? R3, R3, 0x{g}, RZ",
    r"IMAD {b}, R4, 0x1000000, R3",
]
# sm_80-89: no clusters; c[0x0][0x0]/[0x4] loaded as the kernel loads R1
PROLOGUE_80 = [
    r"S2R R0, SR_TID\.X",
    r"S2R R2, SR_TID\.Y",
    r"S2R R3, SR_TID\.Z",
    r"(MOV R5, c\[0x0\]\[0x0\]|IMAD\.MOV\.U32 R5, RZ, RZ, c\[0x0\]\[0x0\])",
    r"(MOV R6, c\[0x0\]\[0x4\]|IMAD\.MOV\.U32 R6, RZ, RZ, c\[0x0\]\[0x4\])",
    r"IMAD R3, R3, R6, R2",
    r"IMAD R3, R3, R5, R0",
    r"IMAD(\.SHL)? {b}, R3, 0x{g}, RZ",
]
# --dynamic: the IMAD of t * G becomes these (the last writes R3 on sm_90,
# the base register on sm_80-89)
DYN_TAIL = [
    r"S2R R2, SR_LANEID",
    r"(LDC R5, c\[0x0\]\[0x2c\]|MOV R5, c\[0x0\]\[0x2c\]|IMAD\.MOV\.U32 R5, RZ, RZ, c\[0x0\]\[0x2c\])",
    r"IMAD R3, R3, -0x{s}, RZ",
    r"IMAD R3, R2, 0x{d}, R3",
    r"IADD3 {t}, R3, {r}, R5",
]
R1_INIT = re.compile(r"(LDC R1, c\[0x0\]\[0x[0-9a-f]+\]|MOV R1, c\[0x0\]\[0x[0-9a-f]+\]|"
                     r"IMAD\.MOV\.U32 R1, RZ, RZ, c\[0x0\]\[0x[0-9a-f]+\])")
LOCAL = re.compile(r"^(@!?P\d )?(LDL|STL)((?:\.LU)?)((?:\.64|\.128)?) (.*)$")
REG = re.compile(r"\bR(\d+|Z)\b")
MEMOP = re.compile(r"\[R1(?:\+(-?0x[0-9a-f]+))?\]")


def memop(base):
    """[base+imm] in an operand list"""
    return re.compile(r"\[%s(?:\+(-?0x[0-9a-f]+))?\]" % base)
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(\(\*.*\*\))?\s*;?\s*$")


def undoes(moves, restores):
    """True when restores (src, dst) run after moves put every moved value back"""
    mem = {}
    for src, dst in moves + restores:
        mem[dst] = mem.get(src, src)
    return all(mem.get(src, src) == src for src, _ in moves)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def listing(nvdisasm, cubin):
    """{function: [(addr, text, annotation)]} of `nvdisasm -c`, and
    {label: addr} of its .L_x_ labels; branch targets are written @0x<addr>."""
    funcs, labels, cur, pending = {}, {}, None, []
    for line in run([nvdisasm, "-c", cubin]).splitlines():
        m = re.match(r"^(\.L_x_\d+):$", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"^([^\s.][^:\s]*):$", line)
        if m:
            cur = m.group(1)
            funcs.setdefault(cur, [])
            continue
        m = INSN.match(line)
        if m and cur:
            text = re.sub(r"\s+", " ", m.group(2).rstrip(" ;"))
            addr = int(m.group(1), 16)
            funcs[cur].append((addr, text, m.group(3) or ""))
            for lab in pending:
                labels[lab] = addr
            pending = []
    # labels are numbered in order of appearance: compare by address
    sub = lambda t: re.sub(r"\.L_x_\d+", lambda m: "@0x%x" % labels.get(m.group(0), -1), t)
    funcs = {f: [(a, sub(t), ann) for a, t, ann in v] for f, v in funcs.items()}
    return funcs, labels


def controls(nvdisasm, cubin):
    """{function: {addr: (stall, yield, wbar, rbar, wait, reuse)}} from the
    second word of each instruction in `nvdisasm -c -hex`."""
    out, cur, addr = {}, None, None
    for line in run([nvdisasm, "-c", "-hex", cubin]).splitlines():
        m = re.match(r"^([^\s.][^:\s]*):$", line)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/.*/\* 0x[0-9a-f]{16} \*/\s*$", line)
        if m:
            addr = int(m.group(1), 16)
            continue
        m = re.match(r"^\s*/\* (0x[0-9a-f]{16}) \*/\s*$", line)
        if m and cur and addr is not None:
            c = int(m.group(1), 16) >> 41
            out.setdefault(cur, {})[addr] = (c & 15, (c >> 4) & 1, (c >> 5) & 7, (c >> 8) & 7, (c >> 11) & 63,
                                             (c >> 17) & 15)
            addr = None
    return out


def check_controls(names, old_ctl, new_ctl, split_sites, stub_of, site_of):
    """Control bits of the split accesses' and call sites' BRAs and stubs
    (see the doc)."""
    o = {a: c for f in names for a, c in old_ctl.get(f, {}).items()}
    w = {a: c for f in names for a, c in new_ctl.get(f, {}).items()}
    for c, (pre, ret) in site_of.items():
        for lines, disp, old_at in ((pre, pre[0], c - 16), (ret, ret[-1], c + 16)):
            ins = [a for a in lines if a != disp] + [max(lines) + 16, old_at]
            for a in ins:
                k = w.get(a)
                if not k or not k[0] or k[5]:
                    return "call at 0x%x: inserted line 0x%x has control %s" % (c, a, k)
            first = min(a for a in lines if a != disp)
            if w[first][4] != 63:
                return "call at 0x%x: the first piece at 0x%x waits on %s, not every scoreboard" % (c, first, w[first][4])
            k, was = w.get(disp), o[old_at]
            if not k or k[5] or not k[0] or k[2:4] != was[2:4] or (k[4] & was[4]) != was[4]:
                return "call at 0x%x: displaced line 0x%x has control %s, it had %s" % (c, disp, k, was)
    for a in split_sites:
        orig, site = o[a], w.get(a)
        if not site or site[4] != orig[4] or site[5] or not site[0]:
            return "at 0x%x: BRA control %s, the access had %s" % (a, site, orig)
        for k, s0 in enumerate(stub_of[a]):
            c = w.get(s0)
            last = k == len(stub_of[a]) - 1
            if not c or c[4] or c[5] or not c[0] or (not last and (c[2], c[3]) != (orig[2], orig[3])):
                return "stub of 0x%x, line 0x%x: control %s, the access had %s" % (a, s0, c, orig)
    return None


def eiattr_offsets(sass, cubin):
    """{kernel: {'exit': [...], 'annot': [...]}} from `orion-sass dump`."""
    out, sec = {}, None
    for line in run([sass, "dump", cubin]).splitlines():
        m = re.match(r"^\.nv\.info\.(\S+) \(", line)
        if m:
            sec = m.group(1)
            continue
        m = re.match(r"^\s+\[0x[0-9a-f]+\] EIATTR_(EXIT_INSTR_OFFSETS|ANNOTATIONS) EIFMT_SVAL size \d+:(.*)$", line)
        if m and sec:
            words = [int.from_bytes(bytes.fromhex(w), "little") for w in m.group(2).split()]
            key = "exit" if m.group(1).startswith("EXIT") else "annot"
            out.setdefault(sec, {})[key] = words if key == "exit" else words[1::2]
    return out


def flat(funcs, names):
    """{addr: (text, annotation)} over the listed functions."""
    out = {}
    for f in names:
        for a, t, ann in funcs.get(f, []):
            out[a] = (t, ann)
    return out


def check_tree(names, old, new, labels, rep, exact, split_sites, stub_of, site_of):
    """The rewritten section of kernel (functions names) in listing new;
    adds the addresses of split accesses to split_sites and their stub
    lines to stub_of[address], and per call with moves site_of[call] = (pre
    stub lines, return stub lines), the final BRAs not included."""
    g, n, region, slots = rep["gran"], rep["threads"], rep["region"], rep["slots"]
    o, w = flat(old, names), flat(new, names)
    end = max(o) + 16
    bra = re.compile(r"BRA `\(@0x([0-9a-f]+)\)")
    m0 = bra.fullmatch(w.get(0, ("",))[0])
    if not m0 or int(m0.group(1), 16) != end:
        return "first instruction is '%s', expected a BRA to 0x%x" % (w.get(0, ("",))[0], end)
    base = rep.get("base") or "R1"
    partial = base != "R1"
    onchip = memop(base)
    if partial and any(re.search(r"\b%s\b" % base, t) for t, _ in o.values()):
        return "base register %s is named by the original code" % base
    init = o.get(0, ("",))[0]
    if not R1_INIT.fullmatch(init):
        return "the old first instruction '%s' does not load R1 from c[0x0][X]" % init
    pats = list(PROLOGUE if rep["sm"] == 90 else PROLOGUE_80)
    if rep.get("dyn") is not None:
        at = 8 if rep["sm"] == 90 else 7
        stride = rep["slots"] * g
        r = rep["dyn"] - 32 * stride  # the region's end less a warp's bytes, plus D from R5
        fill = {"s": "%x" % stride, "d": "%x" % (stride + g), "t": "R3" if rep["sm"] == 90 else "{b}",
                "r": "-0x%x" % -r if r < 0 else "0x%x" % r if r else "(RZ|0x0)"}
        pats[at:at + 1] = [re.sub(r"\{(s|d|t|r)\}", lambda m: fill[m.group(1)], x) for x in DYN_TAIL]
    if partial:
        pats.append(re.escape(init))
    npro = len(pats)
    pro = [w.get(end + 16 * k, ("<none>",))[0] for k in range(npro + 1)]
    for k, pat in enumerate(pats):
        if not re.fullmatch(pat.format(g="%x" % g, b=base), pro[k]):
            return "prologue line %d at 0x%x is '%s', expected /%s/" % (k, end + 16 * k, pro[k], pat)
    mb = bra.fullmatch(pro[-1])
    if not mb or int(mb.group(1), 16) != 0x10:
        return "prologue does not end with a BRA to 0x10: '%s'" % pro[-1]
    pos = {}
    changed = 0
    owner = {a: f for f in names for a, _, _ in old.get(f, [])}
    stubs = set()

    def slot(a, key, noff, rem):
        """None when a new access at region + noff (rem: the old offset % g)
        fits the layout rules for granule key, else why not."""
        if noff < 0 or noff % g != rem or (noff - rem) % (n * g):
            return "at 0x%x: offset 0x%x is not region + p * %d * %d + off %% %d" % (a, noff + region, n, g, g)
        p = (noff - rem) // (n * g)
        if p >= slots:
            return "at 0x%x: slot %d beyond the %d reported" % (a, p, slots)
        if exact and p != key[1]:
            return "at 0x%x: slot %d, ptxas layout wants %d" % (a, p, key[1])
        if pos.setdefault(key, p) != p:
            return "at 0x%x: granule %s went to slots %d and %d" % (a, key, pos[key], p)
        return None
    def stays(a, ot, nt, off, words):
        """None when nt is ot, left in local memory (partial), granules local."""
        if not partial or nt != ot:
            return "at 0x%x: '%s' -> '%s' is neither the access in shared memory nor left as it was" % (
                a, ot, nt)
        for j in range(words):
            if pos.setdefault((owner[a], off // g + j), "L") != "L":
                return "at 0x%x: granule %d is on chip elsewhere, local here" % (a, off // g + j)
        return None

    def access(a, ot, nt):
        """None when nt is old access ot at a moved to its shared slot."""
        m = LOCAL.match(ot)
        mo = MEMOP.search(m.group(5))
        if not mo:
            return "local access at 0x%x not [R1+imm]: '%s'" % (a, ot)
        off = int(mo.group(1) or "0", 16)
        if LOCAL.match(nt):
            return stays(a, ot, nt, off, max(1, {"": 4, ".64": 8, ".128": 16}[m.group(4)] // g))
        mn = re.match(r"^(@!?P\d )?(LDS|STS)((?:\.64|\.128)?) (.*)$", nt)
        mm = onchip.search(mn.group(4)) if mn else None
        if not mn or not mm or (mn.group(1) or "") != (m.group(1) or "") or mn.group(2) != (
                "LDS" if m.group(2) == "LDL" else "STS") or mn.group(3) != m.group(4) or \
                onchip.sub("[]", mn.group(4)) != MEMOP.sub("[]", m.group(5)):
            return "at 0x%x: '%s' -> '%s' is not the same access in shared memory" % (a, ot, nt)
        return slot(a, (owner[a], off // g), int(mm.group(1) or "0", 16) - region, off % g)

    def piece(a, st, rt, load):
        """(temp register, offset) of an LDS Rt, [R1+x] / STS [R1+x], Rt
        move piece, or a string saying why st is not one."""
        pat = r"LDS (R\d+), \[R1\+0x([0-9a-f]+)\]" if load else r"STS \[R1\+0x([0-9a-f]+)\], (R\d+)"
        mp = re.fullmatch(pat, st)
        if not mp:
            return "site stub of 0x%x: '%s' is no %s piece" % (a, st, "LDS" if load else "STS")
        r, x = (mp.group(1), int(mp.group(2), 16)) if load else (mp.group(2), int(mp.group(1), 16))
        x -= region
        if rt and r != rt or r == "R1":
            return "site stub of 0x%x: '%s' moves through %s, not %s" % (a, st, r, rt)
        if x < 0 or x % 4 or (x - x % g) % (n * g) or (x - x % g) // (n * g) >= slots:
            return "site stub of 0x%x: offset 0x%x is not a slot's word" % (a, x + region)
        return (r, x)

    def site_stub(a, s0, pairs, after, back):
        """Check the stub at s0: with pairs None the pre-call shape (the
        displaced line first, pieces, BRA back), else the return shape (the
        pieces of pairs reversed, the displaced line, BRA back); returns
        (pairs, lines) or a string."""
        lines, rt, k = [], None, s0
        def take():
            nonlocal k
            if k < end + 16 * (npro + 1) or k in stubs or k in sites:
                return None
            lines.append(k)
            k += 16
            return w.get(k - 16, ("<none>",))[0]
        ot = o[a][0]
        def displaced():
            st = take()
            if st is None:
                return "site stub of 0x%x overlaps the prologue or another stub" % a
            if LOCAL.match(ot):
                return access(a, ot, st)
            return None if st == ot else "site stub of 0x%x: '%s', expected '%s'" % (a, st, ot)
        got = []
        if pairs is None:
            err = displaced()
            if err:
                return err
        want = list(reversed(pairs)) if pairs is not None else None
        while True:
            st = take()
            if st is None:
                return "site stub of 0x%x overlaps the prologue or another stub" % a
            if st.startswith("BRA") or (want is not None and len(got) == len(want)):
                k -= 16
                lines.pop()
                break
            p1 = piece(a, st, rt, True)
            if isinstance(p1, str):
                return p1
            rt = p1[0]
            p2 = piece(a, take() or "<none>", rt, False)
            if isinstance(p2, str):
                return p2
            if p1[1] == p2[1]:
                return "site stub of 0x%x: a piece moves 0x%x onto itself" % (a, p1[1] + region)
            got.append((p1[1], p2[1]))
        if want is not None:
            if sorted(got) != sorted((b, x) for x, b in pairs) or not undoes(pairs, got):
                return "site stub of 0x%x: restores %s do not undo the moves %s" % (a, got, pairs)
            err = displaced()
            if err:
                return err
        if not got:
            return "site stub of 0x%x moves nothing" % a
        mback = bra.fullmatch(take() or "<none>")
        if not mback or int(mback.group(1), 16) != back:
            return "site stub of 0x%x does not end with a BRA to 0x%x" % (a, back)
        lines.pop()
        return (got, lines)

    calls_at = {a for a in o if o[a][0].startswith("CALL.REL")}
    sites = set()
    for c in sorted(calls_at):
        mp, mq = bra.fullmatch(w.get(c - 16, ("",))[0]), bra.fullmatch(w.get(c + 16, ("",))[0])
        lp = LOCAL.match(o[c - 16][0])
        if not rep.get("site_insns") or not mp or bra.fullmatch(o[c - 16][0]) or (
                lp and lp.group(4) and rep["split"]):  # a split access's BRA, not a site
            continue
        if not mq or bra.fullmatch(o[c + 16][0]):
            return "call at 0x%x: the instruction before it branches to a stub, the one after does not" % c
        r1 = site_stub(c - 16, int(mp.group(1), 16), None, None, c)
        if isinstance(r1, str):
            return r1
        sites.update(r1[1])
        r2 = site_stub(c + 16, int(mq.group(1), 16), r1[0], None, c + 32)
        if isinstance(r2, str):
            return r2
        sites.update(r2[1])
        site_of[c] = (r1[1], r2[1])
    # each stub ends with a BRA the line lists do not hold
    if len(sites) + 2 * len(site_of) != rep.get("site_insns", 0):
        return "%d site stub instructions found, the report says %d" % (len(sites) + 2 * len(site_of),
                                                                      rep.get("site_insns", 0))
    for a in sorted(o):
        ot, oann = o[a]
        if a not in w:
            return "instruction at 0x%x is gone" % a
        nt, nann = w[a]
        if any(a in (c - 16, c + 16) for c in site_of):
            continue  # checked with its stub
        if oann != nann and not (bra.fullmatch(nt) and LOCAL.match(ot) and rep["split"]):
            return "annotation at 0x%x: '%s' became '%s'" % (a, oann, nann)
        if a == 0:
            continue
        if ot == nt:
            lo = LOCAL.match(ot)
            mo = MEMOP.search(lo.group(5)) if lo else None
            if partial and mo:  # an access left in local memory
                err = stays(a, ot, nt, int(mo.group(1) or "0", 16),
                            max(1, {"": 4, ".64": 8, ".128": 16}[lo.group(4)] // g))
                if err:
                    return err
            continue
        changed += 1
        mv = re.fullmatch(r"(?:IADD3 R1, R1, (-?0x[0-9a-f]+), RZ|VIADD R1, R1, (-?0x[0-9a-f]+))", ot)
        if nt == "NOP" and mv and not partial:
            continue
        m = LOCAL.match(ot)
        if not m:
            return "unexpected change at 0x%x: '%s' -> '%s'" % (a, ot, nt)
        mo = MEMOP.search(m.group(5))
        if not mo:
            return "local access at 0x%x not [R1+imm]: '%s'" % (a, ot)
        off = int(mo.group(1) or "0", 16)
        mb = bra.fullmatch(nt)
        if mb and rep["split"] and m.group(4):  # a split wide access: check its stub
            words = {".64": 2, ".128": 4}[m.group(4)]
            s0 = int(mb.group(1), 16)
            rs = REG.findall(MEMOP.sub("[]", m.group(5)))
            if len(rs) != 1:
                return "at 0x%x: '%s' has no single data register" % (a, ot)
            split_sites.add(a)
            for j in range(words + 1):
                st = w.get(s0 + 16 * j, ("<none>",))[0]
                if s0 + 16 * j < end + 16 * (npro + 1) or s0 + 16 * j in stubs:
                    return "at 0x%x: stub line 0x%x overlaps the prologue or another stub" % (a, s0 + 16 * j)
                stubs.add(s0 + 16 * j)
                stub_of.setdefault(a, []).append(s0 + 16 * j)
                if j == words:
                    mback = bra.fullmatch(st)
                    if not mback or int(mback.group(1), 16) != a + 16:
                        return "stub of 0x%x does not end with a BRA to 0x%x: '%s'" % (a, a + 16, st)
                    continue
                r = "RZ" if rs[0] == "Z" else "R%d" % (int(rs[0]) + j)
                if LOCAL.match(st):  # partial: this word stays local
                    loc = "[R1+0x%x]" % (off + 4 * j) if off + 4 * j else "[R1]"  # nvdisasm's spelling
                    want = ("LDL%s %s, %s" % (m.group(3), r, loc)) if m.group(2) == "LDL" else (
                        "STL%s %s, %s" % (m.group(3), loc, r))
                    err = stays(a, (m.group(1) or "") + want, st, off + 4 * j, 1)
                    if err:
                        return err
                    continue
                want = ("LDS %s, []" % r) if m.group(2) == "LDL" else ("STS [], %s" % r)
                mp = onchip.search(st)
                if not mp or onchip.sub("[]", st) != (m.group(1) or "") + want:
                    return "stub of 0x%x, word %d: '%s', expected '%s'" % (a, j, st, (m.group(1) or "") + want)
                err = slot(a, (owner[a], off // 4 + j), int(mp.group(1) or "0", 16) - region, 0)
                if err:
                    return err
            continue
        err = access(a, ot, nt)
        if err:
            return err
    if len(stubs) != rep["stub_insns"]:
        return "%d stub instructions found, the report says %d" % (len(stubs), rep["stub_insns"])
    backs = {max(ls) + 16 for pair in site_of.values() for ls in pair}
    extra = sorted(a for a in w if a >= end + 16 * (npro + 1) and a not in stubs and a not in sites
                   and a not in backs)
    if any(w[a][0] != "NOP" for a in extra):
        return "after the prologue and stubs: %s" % [w[a][0] for a in extra if w[a][0] != "NOP"]
    if partial and "L" not in pos.values():
        return "partial, but no access stayed local"
    for f in names:
        ps = [p for (ff, _), p in pos.items() if ff == f and p != "L"]
        if len(ps) != len(set(ps)) and not rep.get("colour"):
            return "%s: two granules share a slot" % f
    return None if changed else "rewritten but no line changed"


def unlabel(line):
    """A listing line with the cubin-wide label numbers (.L_x_N) dropped."""
    return tuple(re.sub(r"\.L_x_\d+", ".L_x_", str(t)) for t in line)


def check_added(rw, f, info, had_bounds):
    """The .nv.shared.<f> the rewrite added, as ptxas writes one."""
    name = ".nv.shared." + f
    secs = run(["readelf", "-SW", rw])
    m = re.search(r"\[\s*(\d+)\] %s\s+NOBITS\s+\S+\s+\S+\s+(\S+)\s+\S+\s+WAI\s+0\s+(\d+)" % re.escape(name), secs)
    t = re.search(r"\[\s*(\d+)\] \.text\.%s\s" % re.escape(f), secs)
    if not m or not t or m.group(3) != t.group(1):
        sys.exit("FAIL: %s: %s missing or not NOBITS/WAI/info=text:\n%s" % (rw, name, secs))
    syms = run(["readelf", "-sW", rw])
    if not re.search(r"SECTION\s+LOCAL\s+DEFAULT\s+%s %s$" % (m.group(1), re.escape(name)), syms, re.M):
        sys.exit("FAIL: %s: no section symbol for %s" % (rw, name))
    segs = run(["readelf", "-lW", rw])
    # the writable segment: initialised globals (file size), then the NOBITS
    # shared sections, each at address 0, which its memory size covers
    rwseg = re.search(r"LOAD\s+\S+\s+\S+\s+\S+\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+RW ", segs)
    if not rwseg or int(rwseg.group(2), 16) - int(rwseg.group(1), 16) < int(m.group(2), 16) or \
            not re.search(r"^\s+\d+\s+.*%s" % re.escape(name), segs, re.M):
        sys.exit("FAIL: %s: the writable segment does not hold %s:\n%s" % (rw, name, segs))
    if not had_bounds and not re.search(r"^kernel %s: .* max-threads 32x1x1 " % re.escape(f), info, re.M):
        sys.exit("FAIL: %s: %s: no EIATTR_MAX_THREADS 32x1x1 added" % (rw, f))
    print("ok: %s: %s added (size %s)" % (os.path.basename(rw), name, m.group(2)))
    return 1


REP = re.compile(r"^(\S+): rewritten: (\d+) local accesses in (\d+) functions? -> (?:shared "
                 r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\)|the end of dynamic shared \(0x([0-9a-f]+) \+ its size\), (\d+) bytes per warp) "
                 r"\((\w+) layout, (\d+) (\d+)-byte slots x (\d+) (?:threads|lanes)\), "
                 r"\d+-instruction prologue(?:, (\d+) wide accesses split \((\d+)-instruction stubs\))?"
                 r"(?:, (\d+) slot moves at (\d+) calls \((\d+)-instruction stubs\))?"
                 r"(?:; partial: (\d+) of (\d+) slots on chip, (\d+) accesses left local at R1, on chip at (R\d+)"
                 r"(?: \(\d+ -> (\d+) registers\))?, [\d.]+% of the estimated dynamic accesses on chip)?$")


def rewrite(sass, cubin, out, extra):
    reps = {}
    text = run([sass, "rewrite", "--smem-frame", "--no-dynamic-smem", "--block", "32"] + extra + [cubin, "-o", out])
    for line in text.splitlines():
        m = REP.match(line)
        if m:
            dyn = int(m.group(6), 16) if m.group(6) else None
            # dynamic: offsets are relative to the base register, which holds
            # the region's start; the static size ends where it starts
            reps[m.group(1)] = {"region": 0 if dyn is not None else int(m.group(4), 16),
                                "end": dyn if dyn is not None else int(m.group(5), 16), "funcs": int(m.group(3)),
                                "dyn": dyn, "layout": m.group(8), "slots": int(m.group(9)), "gran": int(m.group(10)),
                                "threads": int(m.group(11)), "split": int(m.group(12) or 0),
                                "stub_insns": int(m.group(13) or 0), "site_insns": int(m.group(16) or 0),
                                "base": m.group(20), "regs": m.group(21)}
        print("%s: %s" % (os.path.basename(cubin), line))
    return reps


def main():
    anything = sys.argv[1:2] == ["--any"]
    no_moves = sys.argv[1:2] == ["--no-moves"]
    if anything or no_moves:
        del sys.argv[1]
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    sass, nvdisasm, cuobjdump, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    total = added = calls = split = moved = partial = sm90 = dynamic = 0
    for cubin in sys.argv[5:]:
        base = os.path.join(work, os.path.basename(cubin).replace(".cubin", ""))
        run([sass, "frame", cubin])
        info0 = run([sass, "info", cubin])
        sm = int(re.search(r": sm_(\d+),", info0).group(1))
        sm90 += sm == 90
        had_shared = set(re.findall(r"\.nv\.shared\.(\S+)", run(["readelf", "-SW", cubin])))
        had_bounds = {k for k, t in re.findall(r"^kernel (\S+): .* max-threads (\S+)", info0, re.M) if t != "-"}
        section = {}  # function -> its text section
        for kind, f, sec in re.findall(r"^(kernel|function) (\S+): (\.text\.\S+)\+0x", info0, re.M):
            section[f] = sec
        old, _ = listing(nvdisasm, cubin)
        old_ctl = controls(nvdisasm, cubin)
        for tag, extra, exact in (("rw", [], False), ("ptxas", ["--layout", "ptxas"], True),
                                  ("wide", ["--granule", "wide"], False),
                                  ("split", ["--granule", "split"], False),
                                  ("moves", ["--layout", "moves", "--min-heights"], False),
                                  ("partial", ["--partial", "--smem-limit", "0x1000", "--reg-limit", "255"], False),
                                  ("partial-wide", ["--partial", "--smem-limit", "0x1000", "--reg-limit", "255",
                                                    "--granule", "wide"], False),
                                  ("colour", ["--colour"], False),
                                  ("colour-partial", ["--colour", "--partial", "--smem-limit", "0x1000",
                                                      "--reg-limit", "255"], False),
                                  ("dynamic", ["--dynamic"], False),
                                  ("dynamic-partial", ["--dynamic", "--partial", "--warp-limit", "0x400",
                                                       "--reg-limit", "255"], False)):
            rw = "%s.%s.cubin" % (base, tag)
            reps = rewrite(sass, cubin, rw, extra)
            info = run([sass, "info", rw])
            run([cuobjdump, "-elf", rw])
            new, labels = listing(nvdisasm, rw)
            new_ctl = controls(nvdisasm, rw)
            if sorted(old) != sorted(new):
                sys.exit("FAIL: %s: functions differ: %s vs %s" % (rw, sorted(old), sorted(new)))
            offs = eiattr_offsets(sass, rw)
            done = set()
            for k, rep in reps.items():
                rep["colour"] = "--colour" in extra
                rep["sm"] = sm
                names = [f for f in old if section.get(f) == section.get(k)]
                if len(names) != rep["funcs"]:
                    sys.exit("FAIL: %s: %s: %d functions in its section, report says %d" % (rw, k, len(names), rep["funcs"]))
                split_sites = set()  # nvdisasm annotates LDL/STL, not the BRA in their place
                stub_of, site_of = {}, {}
                err = check_tree(names, old, new, labels, rep, exact, split_sites, stub_of, site_of) or \
                    check_controls(names, old_ctl, new_ctl, split_sites, stub_of, site_of)
                if err:
                    sys.exit("FAIL: %s: %s: %s" % (rw, k, err))
                done.update(names)
                at = flat(new, names)
                for e in offs.get(k, {}).get("exit", []):
                    if not at.get(e, ("",))[0].endswith("EXIT"):
                        sys.exit("FAIL: %s: %s: EXIT offset 0x%x is '%s'" % (rw, k, e, at.get(e)))
                for e in offs.get(k, {}).get("annot", []):
                    if not at.get(e, ("", ""))[1] and e not in split_sites and \
                            not any(e in (c - 16, c + 16) for c in site_of):
                        sys.exit("FAIL: %s: %s: annotation offset 0x%x has no annotation" % (rw, k, e))
                m = re.search(r"^kernel %s: .* regs (\d+) frame (\S+) .* smem (\d+) " % re.escape(k), info, re.M)
                if not m or (m.group(2) not in ("0", "-") and not rep["base"]) or int(m.group(3)) != rep["end"] or \
                        (rep["regs"] and m.group(1) != rep["regs"]):
                    sys.exit("FAIL: %s: %s: info says regs/frame/smem %s, expected %s, 0 and %d" %
                             (rw, k, m.groups() if m else None, rep["regs"] or "as before", rep["end"]))
                if k not in had_shared and (rep["dyn"] is None or sm == 90):
                    added += check_added(rw, k, info, k in had_bounds or rep["dyn"] is not None)
                dynamic += rep["dyn"] is not None
                if rep["dyn"] is not None and k not in had_bounds and \
                        not re.search(r"^kernel %s: .* max-threads - " % re.escape(k), info, re.M):
                    sys.exit("FAIL: %s: %s: a dynamic region needs no block limit, yet one was added" % (rw, k))
                total += 1
                calls += rep["funcs"] > 1
                split += rep["split"] > 0
                moved += len(site_of) > 0
                partial += rep["base"] is not None
                print("ok: %s %s (%s layout, %d functions)" % (os.path.basename(rw), k, rep["layout"], len(names)))
            for f in old:  # label names in annotations (BRX's targets) are numbered cubin-wide
                if f not in done and [unlabel(x[1:]) for x in old[f]] != [unlabel(x[1:]) for x in new[f]]:
                    sys.exit("FAIL: %s: %s changed although not rewritten" % (rw, f))
    if not total:
        sys.exit("FAIL: no kernel was rewritten")
    if not added and not anything and sm90:
        sys.exit("FAIL: no sm_90 kernel got a new .nv.shared section")
    if not calls and not anything:
        sys.exit("FAIL: no kernel with calls was rewritten")
    if not split and not anything:
        sys.exit("FAIL: no kernel had wide accesses split")
    if not moved and not anything and not no_moves:
        sys.exit("FAIL: no kernel had slots moved at calls")
    if not partial:
        sys.exit("FAIL: no kernel was rewritten in part")
    if not dynamic:
        sys.exit("FAIL: no kernel was rewritten with a dynamic region")
    print("%d kernel rewrites checked (%d with an added .nv.shared section, %d with calls, %d with split accesses, "
          "%d with moves at calls, %d partial, %d dynamic)" % (total, added, calls, split, moved, partial, dynamic))


if __name__ == "__main__":
    main()
