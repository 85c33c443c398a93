"""Mutants of Smitsimax (native/src/search/smitsimax*.c and .h, and the
search.h helpers they inline) that the tests must kill. Not a test.

    python tools/smitsimax_mutants.py                 # every mutant
    python tools/smitsimax_mutants.py M4 M12a         # some of them
    python tools/smitsimax_mutants.py --list

For each mutant: apply it to its file, rebuild in place, run the tests
that do not use the Python reference (tests/native and the UCB check of
tests/render), report which failed, then restore the file. At the end the
clean core is rebuilt and the same tests are run once more (they must pass
again). A mutant no test kills is reported as SURVIVED and the exit status
is 1. Takes about 15 s per mutant (a rebuild and the tests).

Refuses to start when a file it mutates has uncommitted changes, or when a
mutant's old text does not occur exactly once in its file (the code moved on
and the mutant must be updated; tests/test_mutants_current.py checks the same
without a rebuild). Restores each file's own text (not a git checkout), so
nothing else is touched.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Smitsimax's files (relative to ROOT); every mutant names the one it edits
ITERATE = "native/src/search/smitsimax_iterate.c"    # the serial iteration
SAMPLING = "native/src/search/smitsimax_sampling.c"  # Exp3, RM, RM+
TREE = "native/src/search/smitsimax_tree.c"          # arenas, re-rooting
TREE_H = "native/src/search/smitsimax_tree.h"        # what every file inlines
VIEW = "native/src/search/smitsimax_view.c"          # the move played, stats
SEARCH_H = "native/src/search/search.h"              # shared selection pieces (PUCT)
TESTS = ["tests/native", "tests/render/test_tree_layout.py"]

# name: (what it breaks, old text, new text, file relative to ROOT); each old
# text occurs exactly once in its file.
MUTANTS = {
    "M1": ("UCB1 without the normalisation of the mean (serial select_ucb)",
           "            v = (node_value(c, power) - lo) * inv_scale +",
           "            v = node_value(c, power) +",
           ITERATE),
    "M2": ("ln N of the visits before this one (N - 1) (serial select_ucb)",
           "policy == SBX_POLICY_UCB1 ? p->c * sqrt_ln_n(node->visits) : 0.0;",
           "policy == SBX_POLICY_UCB1 ? p->c * sqrt_ln_n(node->visits - 1) : 0.0;",
           ITERATE),
    "M3": ("random phase one visit too long (<=)",
           "if (!puct && node->visits < (uint32_t)p->random_threshold) {",
           "if (!puct && node->visits <= (uint32_t)p->random_threshold) {",
           ITERATE),
    "M3b": ("random phase one visit too short",
            "if (!puct && node->visits < (uint32_t)p->random_threshold) {",
            "if (!puct && node->visits + 1 < (uint32_t)p->random_threshold) {",
            ITERATE),
    # sbx_keep_max is the argmax of every UCB selection (Smitsimax serial and
    # shared, SUCT, joint); on x86-64 only the asm is compiled, so that is
    # where the tie rule lives ("ae" also moves on equal, still not on NaN).
    "M4": ("UCB1 ties go to the later child (sbx_keep_max's cmova)",
           '__asm__("comisd %[bv], %[v]\\n\\tcmova %[i], %[b]"',
           '__asm__("comisd %[bv], %[v]\\n\\tcmovae %[i], %[b]"',
           "native/src/search/search.h"),
    "M5": ("bounds=depth: the parent's depth range instead of the children's "
           "(serial select_ucb)",
           "norm_at(t, p->bounds, node->depth + 1, &lo, &scale);",
           "norm_at(t, p->bounds, node->depth, &lo, &scale);",
           ITERATE),
    "M6": ("death penalty left out of UCB1 (serial select_ucb)",
           "        if (p->death_penalty && is_doomed(c, p->death_min_visits)) {\n"
           "            v -= p->death_penalty_value;",
           "        if (p->death_penalty && is_doomed(c, p->death_min_visits)) {\n"
           "            v -= 0.0;",
           ITERATE),
    "M7": ("random phase ignores certain death (serial select_ucb)",
           "                if (!(p->death_penalty && is_doomed(&ch[i], p->death_min_visits))) ok[m++] = i;\n"
           "            }\n"
           "            if (m > 0 && m < k) return",
           "                if (!(p->death_penalty && is_doomed(&ch[i], p->death_min_visits))) ok[m++] = i;\n"
           "            }\n"
           "            if (0 && m > 0 && m < k) return",
           ITERATE),
    "M8a": ("best move: equal visits and means go to the later child",
            "(v == best_v && tot / v > best_t / best_v)) {",
            "(v == best_v && tot / v >= best_t / best_v)) {",
            VIEW),
    "M8b": ("best move: no tie-break by mean",
            "(v == best_v && tot / v > best_t / best_v)) {",
            "(0 && v == best_v && tot / v > best_t / best_v)) {",
            VIEW),
    "M8c": ("best move: higher mean before more visits",
            "if (best < 0 || v > best_v || (v == best_v &&",
            "if (best < 0 || tot / v > best_t / best_v || (v == best_v &&",
            VIEW),
    "M9": ("certain death ignores the DOOMED flag",
           "return (c->flags & SBX_NODE_DOOMED) ||", "return 0 ||",
           ITERATE),
    "M10a": ("DOOMED never lifted",
             "            else nd->flags &= (uint8_t)~SBX_NODE_DOOMED;", "            else (void)0;",
             ITERATE),
    "M10b": ("DOOMED judged from the child on the path only",
             "for (int i = 0; all && i < nd->nchildren; i++) {",
             "for (int i = 0; all && i < 0; i++) {",
             ITERATE),
    "M10c": ("death_min_visits off by one",
             "c->visits >= (uint32_t)min_visits);", "c->visits > (uint32_t)min_visits);",
             ITERATE),
    "M10d": ("DOOMED never set",
             "            if (all) nd->flags |= SBX_NODE_DOOMED;",
             "            if (0) nd->flags |= SBX_NODE_DOOMED;",
             ITERATE),
    "M11": ("unvisited children not taken first",
            "return first + sbx_random_untried(rng, &ch[0].visits, sizeof *ch, i, k);",
            "continue;",
            ITERATE),
    "M12a": ("sqrt(ln N) wrong past the 1 << 18 (262,144) table",
             "return n < SQRT_LN_N ? smx_sqrt_ln_table[n] : sqrt(log((double)n));",
             "return n < SQRT_LN_N ? smx_sqrt_ln_table[n] : log((double)n);",
             TREE_H),
    "M12b": ("1/sqrt(n) wrong past the 1 << 16 (65,536) table",
             "return n < RSQRT_N ? smx_rsqrt_table[n] : 1.0 / sqrt((double)n);",
             "return n < RSQRT_N ? smx_rsqrt_table[n] : 1.0 / (double)n;",
             TREE_H),
    "M13": ("leaf bounds: the maximum never updated",
            "        if (score[a] > t->smax) t->smax = score[a];\n", "",
            ITERATE),
    "M14": ("re-root keeps the old depths",
            "nd.depth = (uint8_t)(nd.depth - 1);", "nd.depth = (uint8_t)(nd.depth);",
            TREE),
    "M15": ("leaf bounds from the score before depth_normalize",
            "        if (score[a] < t->smin) t->smin = score[a];\n"
            "        if (score[a] > t->smax) t->smax = score[a];",
            "        if (final_scores[a] < t->smin) t->smin = final_scores[a];\n"
            "        if (final_scores[a] > t->smax) t->smax = final_scores[a];",
            ITERATE),
    "M16": ("re-root keeps a dead agent's move children",
            "    } else if (!alive && nr->nchildren) {", "    } else if (0) {",
            TREE),
    "M17": ("reuse_decay rounds visits to nearest",
            "uint32_t v = (uint32_t)((double)nd->visits * decay);",
            "uint32_t v = (uint32_t)((double)nd->visits * decay + 0.5);",
            TREE),
    "M18": ("re-root keeps a surviving agent's pass child",
            "    if (alive && nr->pass_child) {", "    if (0) {",
            TREE),
    "M19": ("bounds=depth: the undiscounted score as the depth maximum",
            "                if (v > t->dmax[k]) t->dmax[k] = v;",
            "                if (score[a] > t->dmax[k]) t->dmax[k] = score[a];",
            ITERATE),
    "M20": ("rollout score not discounted for the turns below the tree",
            "for (int k = leaf_depth[a] - t->nodes[path[a][plen[a] - 1]].depth; k > 0; k--) {",
            "for (int k = 0; k > 0; k--) {",
            ITERATE),
    "M21": ("RM counterfactual: the alternative never substituted (each sibling gets the "
            "picked move's return)",
            "            alt[a] = ch[i].move;",
            "            alt[a] = joint[a];",
            SAMPLING),
    "M22": ("RM counterfactual = terminal also taken at the depth limit",
            "            const int at_limit = p->counterfactual == SBX_CF_LAST_STEP && "
            "depth == p->max_depth;",
            "            const int at_limit = depth == p->max_depth;",
            ITERATE),
    "M23": ("RM counterfactual: the alternatives drawn with other chance (reseeded)",
            "            memcpy(x->cf_alt, x->cf_pre, s->state_size);",
            "            memcpy(x->cf_alt, x->cf_pre, s->state_size);\n"
            "            s->vt->reseed(x->cf_alt, 12345u + (uint64_t)i);",
            SAMPLING),
    # Decoupled PUCT (priors = heuristic or net, policy ucb1)
    "M24": ("PUCT: every child's prior taken as 1 (the prior ignored)",
            "double v = sbx_puct_score(&pc, q, STAT(t, first + (uint32_t)i), c->visits);",
            "double v = sbx_puct_score(&pc, q, 1.0, c->visits);",
            ITERATE),
    "M25": ("PUCT: an untried child's value without the FPU offset",
            "r.fpu = visits ? mean - p->fpu_offset : 0.0;",
            "r.fpu = visits ? mean : 0.0;",
            SEARCH_H),
    "M26": ("snapshot: a child's prior read from its first sibling's slot",
            "                out[rows - 1].prior = (float)STAT(t, ci);",
            "                out[rows - 1].prior = (float)STAT(t, nd->first_child);",
            VIEW),
}


def spec(name: str) -> tuple[str, str, str, Path]:
    """(what, old text, new text, file) of a mutant."""
    what, old, new, file = MUTANTS[name]
    return what, old, new, ROOT / file


def stale(names: list[str]) -> list[str]:
    """The mutants whose old text does not occur exactly once in their file."""
    out = []
    for name in names:
        _, old, _, path = spec(name)
        n = path.read_text().count(old)
        if n != 1:
            out.append(f"{name} ({n} matches in {path.relative_to(ROOT)})")
    return out


def build() -> None:
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=ROOT,
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("build failed:\n" + r.stderr[-3000:])


def run_tests() -> tuple[int, list[str], str]:
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS],
                       cwd=ROOT, capture_output=True, text=True)
    lines = r.stdout.strip().splitlines()
    failed = [x.split(" ", 1)[1].split(" - ")[0] for x in lines if x.startswith("FAILED")]
    return r.returncode, failed, lines[-1] if lines else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="mutants to run (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = ap.parse_args()
    if args.list:
        for name in MUTANTS:
            print(f"{name:5} {spec(name)[0]}")
        return 0
    names = args.names or list(MUTANTS)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        sys.exit(f"unknown mutants: {unknown}")
    # before anything is touched: a stale mutant would test nothing
    bad = stale(names)
    if bad:
        sys.exit(f"stale mutants, old text not found exactly once: {', '.join(bad)}")
    files = sorted({spec(n)[3] for n in names})
    # HEAD, not the index: a staged edit would be restored too
    dirty = [f for f in files
             if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", str(f)], cwd=ROOT).returncode]
    if dirty:
        sys.exit(f"{', '.join(map(str, dirty))}: uncommitted changes; commit or stash them first")
    original = {f: f.read_text() for f in files}
    survived = []
    try:
        for name in names:
            what, old, new, path = spec(name)
            path.write_text(original[path].replace(old, new))
            build()
            rc, failed, summary = run_tests()
            # a run that died (a signal: rc < 0; pytest's own error codes
            # 2-4, e.g. a crash while collecting) names no FAILED test but
            # did not pass either: the mutant is caught, as a crash
            crashed = not failed and rc not in (0, 1)
            verdict = "killed" if failed else f"killed (crash, exit {rc})" if crashed \
                else "SURVIVED"
            print(f"{name:5} {what}: {verdict} ({summary})", flush=True)
            for f in failed:
                print(f"        {f}", flush=True)
            if not failed and not crashed:
                survived.append(name)
            path.write_text(original[path])
    finally:
        for f, text in original.items():
            f.write_text(text)
    build()
    rc, failed, summary = run_tests()
    print(f"clean core: {summary}")
    return 1 if survived or rc else 0


if __name__ == "__main__":
    sys.exit(main())
