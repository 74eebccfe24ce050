"""Rules assistant evaluation (issue 24): the question set of tests/rules/data/eval/ in its parts, side by side:
its tuning part, its held-out part and its fresh part (all three tuned on by round 4: see their headers),
round 4's tuning half (eval_round4a.toml, printed as "round 4 tuning half"), round 4's held-out half
(eval_round4.toml: measured and reported once at the end of round 4, tuned on from round 5, printed as
"round 4 held-out (reported)"), round 5's part (eval_round5.toml, written by someone who never saw the
ranking's code or tuning: measured and reported once at the end of round 5, tuned on from round 6, printed as
"round 5 (reported in round 5, tuned on from round 6)"), round 6's part (eval_round6.toml, written by someone
else while round 6 tuned on the others: measured and reported once at the end of round 6, tuned on from round 7,
printed as "round 6 (reported in round 6, tuned on from round 7)"), round 7's part (eval_round7.toml, written
by someone else while round 7 tuned on the others: measured and reported once at the end of round 7, tuned on
from round 8), round 8's to round 12's parts (eval_round8.toml to eval_round12.toml, three more writers each:
each measured and reported, then tuned on; round 12 measured twice, after round 11's tuning and after a review's
fixes), round 13's and round 14's parts (eval_round13.toml, eval_round14.toml, three more writers each:
measured and reported once, then tuned on), round 15's (eval_round15.toml, three more writers: measured and reported
once at the end of its session, then tuned on), round 16's and round 17's (eval_round16.toml, eval_round17.toml,
three more writers each, written while the others were tuned on: both measured and reported once in round 17's
session, then tuned on), round 18's (eval_round18.toml, three more writers: measured and reported once at the start
of round 19's session, then tuned on), round 19's (eval_round19.toml, three more writers: measured and reported once
at the end of its session, then tuned on), round 20's (eval_round20.toml, three more writers: measured and reported once
at the start of round 21's session, then tuned on), round 21's (eval_round21.toml, three more writers: measured and reported
once at the end of its session, then tuned on), round 22's (eval_round22.toml, three more writers: measured and reported
once at the end of its session, then tuned on), round 23's (eval_round23.toml, three more writers: measured and reported
once at the end of its session, then tuned on), round 24's (eval_round24.toml, three more writers: measured and reported
once at the end of its session, then tuned on), round 25's (eval_round25.toml, three more writers: measured and reported
at the start and the end of its session, then tuned on), round 26's (eval_round26.toml, three more writers: measured
and reported twice in round 25's session, then tuned on), and round 27's part (eval_round27.toml, three more writers,
written while the others were tuned on, never tuned on: printed as "round 27 (never tuned)").
A part tuned on is measured with its own questions left out of the questions asked before (assistant/rules/asked.py,
which holds every part tuned on): the figure of a question that was never asked before. The unseen part is measured
with all of them, as the app runs.
Each part in three ways of asking:

- game filter: only the game of the page is searched (`ask(q, game=g)`);
- page game first: every game, the page's first (`ask(q, prefer=g)`, what the header box does); a
  question no rulebook answers counts as said so when no entry of the page's game answers it (the page
  then says "Not in the <game> rulebook" and shows another game's answer, labelled, if there is one),
  an off-topic one only when no entry of any game answers it;
- no game: every game, none preferred (`ask(q)`, the /rules page with "All games").

Per part and way: top-1 (the first result is one of the question's entries), top-3, "both shown" (a
two-rule question has both its entries among the first three), "answered" on the covered questions, and
"not covered": its precision and recall (a reply that says no rulebook answers is a positive; it is right
for the questions labelled covered = false), the off-topic ones on their own, and how often the honest
nearest entry is shown. A reply whose first answer is an entry saying the value is printed in no source (the page's
"Not printed in the rulebook") says the book does not give it, as a "not covered" reply does: it counts as
said for a question no rulebook answers, and as said wrongly for a covered one unless that entry is one of its
answers (the writers of the parts labelled such questions both ways). The strict count, on the `answered` flag
alone, is printed beside it. Then the search time per question (p50, p95: the cold median of 5 runs; the question's
sentence vector, which the index keeps for the next asks of it, forgotten before each run).

Run: .venv/bin/python bench/bench_rules_eval.py [--part tune|heldout|fresh|round4a|round4|round5|round6|round7|round8|round9|round10|round11|round12|round13|round14|round15|round16|round17|round18|round19|round20|round21|round22|round23|round24|round25|round26|round27|both|all]
[--misses] [--ablate] [--frames] [--asks] [--asked-margins M1,M2,...]
`--misses` lists the misses of the parts tuned on (never round 27's: it stays unseen, its figures only).
`--ablate` measures each mechanism of the ranking switched off on its own (game filter), on the parts tuned on.
`--frames` asks the questions of the parts tuned on again inside the talk players put around a question ("quick
question: ...", "... thanks!"), with frames read to choose the stop words and frames never read, and with one
typing slip in one of their words.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.rules import RulesIndex, load_books, semantic  # noqa: E402
from assistant.rules.index import is_stopword  # noqa: E402

index_module = sys.modules["assistant.rules.index"]  # the module (assistant.rules.index() is a function)

DATA = ROOT / "tests" / "rules" / "data" / "eval"
MODES = ("game filter", "page game first", "no game")
REPEAT = 5


TUNED = ("tune", "heldout", "fresh", "round4a", "round4", "round5", "round6", "round7", "round8", "round9", "round10",
         "round11", "round12", "round13", "round14", "round15", "round16", "round17", "round18",
         "round19", "round20", "round21", "round22", "round23", "round24", "round25", "round26")
UNSEEN = ("round27",)  # never tuned on (a file not there yet is said so)
LABELS = {"round27": "round 27 (never tuned)", "round26": "round 26 (reported, then tuned on)", "round25": "round 25 (reported, then tuned on)", "round24": "round 24 (reported, then tuned on)", "round23": "round 23 (reported, then tuned on)", "round22": "round 22 (reported, then tuned on)", "round21": "round 21 (reported, then tuned on)", "round20": "round 20 (reported, then tuned on)", "round19": "round 19 (reported, then tuned on)", "round18": "round 18 (reported, then tuned on)", "round16": "round 16 (reported, then tuned on)",
          "round17": "round 17 (reported, then tuned on)", "round15": "round 15 (reported, then tuned on)", "round14": "round 14 (reported, then tuned on)", "round13": "round 13 (reported, then tuned on)", "round12": "round 12 (reported twice, then tuned on)", "round8": "round 8 (reported in round 8, then tuned on)",
          "round9": "round 9 (reported in round 8, then tuned on)", "round10": "round 10 (reported in round 8, then tuned on)",
          "round11": "round 11 (reported, then tuned on)",
          "round7": "round 7 (reported in round 7, tuned on from round 8)", "round4a": "round 4 tuning half",
          "round4": "round 4 held-out (reported)", "round5": "round 5 (reported in round 5, tuned on from round 6)",
          "round6": "round 6 (reported in round 6, tuned on from round 7)"}


def path(part: str) -> Path:
    return DATA / f"eval_{part}.toml"


def load(part: str) -> list[dict]:
    return tomllib.loads(path(part).read_text(encoding="utf-8"))["question"]


def ask(index: RulesIndex, q: dict, mode: str, limit: int = 5):
    if mode == "game filter":
        return index.ask(q["q"], game=q["game"], limit=limit)
    if mode == "page game first":
        return index.ask(q["q"], prefer=q["game"], limit=limit)
    return index.ask(q["q"], limit=limit)


@dataclass
class Score:
    covered: int = 0
    top1: int = 0
    top3: int = 0
    answered: int = 0
    pairs: int = 0
    both: int = 0
    silent: int = 0          # questions no rulebook answers (off-topic included)
    silent_said: int = 0     # ... whose reply says so
    off: int = 0
    off_said: int = 0
    near: int = 0
    near_shown: int = 0
    false_silent: int = 0    # covered questions whose reply says "not covered" (or "not printed", wrongly)
    strict_said: int = 0     # ... the same two on the `answered` flag alone
    strict_false: int = 0
    misses: list[str] = field(default_factory=list)

    def line(self) -> str:
        flagged = self.silent_said + self.false_silent
        precision = self.silent_said / flagged if flagged else 1.0
        recall = self.silent_said / self.silent if self.silent else 1.0
        return (f"top-1 {pct(self.top1, self.covered)}  top-3 {pct(self.top3, self.covered)}  "
                f"both shown {self.both}/{self.pairs}  answered {pct(self.answered, self.covered)}\n"
                f"{'':20}not covered: precision {precision:.1%} recall {recall:.1%} "
                f"({self.silent_said}/{self.silent} said, {self.false_silent} covered ones said too; on the answered "
                f"flag alone {self.strict_said}/{self.silent} and {self.strict_false}); "
                f"off-topic {self.off_said}/{self.off}; honest nearest entry shown {self.near_shown}/{self.near}")


def pct(a: int, n: int) -> str:
    return f"{a}/{n} = {a / n:.1%}" if n else "-"


def evaluate(index: RulesIndex, questions: list[dict], mode: str) -> Score:
    s = Score()
    for q in questions:
        reply = ask(index, q, mode)
        got = [h.entry.id for h in reply.hits]
        if q.get("covered", True):
            s.covered += 1
            hit1 = bool(got) and got[0] in q["ids"]
            s.top1 += hit1
            s.top3 += any(i in q["ids"] for i in got[:3])
            s.answered += reply.answered
            honest_right = hit1 and index_module.unprinted(reply.hits[0].entry)
            s.false_silent += (not reply.answered or reply.unprinted) and not honest_right
            s.strict_false += not reply.answered
            if "both" in q:
                s.pairs += 1
                s.both += all(i in got[:3] for i in q["both"])
            if not hit1:
                s.misses.append(f"  {q['game'][:2]} {q['q']!r} -> {got[:3]} (wanted {q['ids']})"
                                + ("" if reply.answered else " [said not covered]"))
            elif not reply.answered and not honest_right:
                s.misses.append(f"  {q['game'][:2]} {q['q']!r} -> {got[:1]} right, but said not covered")
        else:
            s.silent += 1
            # with the page's game first, the page says "not in this game's rulebook" when no entry of its
            # game answers (another game's may: it is shown below, labelled); off-topic: none may answer
            if mode == "page game first" and not q.get("off_topic"):
                said = not any(h.answers and h.entry.game == q["game"] for h in reply.hits)
            else:
                said = not reply.answered
            s.strict_said += said
            # (the page's "Not printed in the rulebook": an off-topic question needs "not covered" itself)
            said = said or reply.unprinted and not q.get("off_topic")
            s.silent_said += said
            if q.get("off_topic"):
                s.off += 1
                s.off_said += said
            if "near" in q:
                s.near += 1
                s.near_shown += any(i in got[:3] for i in q["near"])
            if not said:
                s.misses.append(f"  {q['game'][:2]} {q['q']!r} answered with {got[:3]} (not covered)")
    return s


# The talk players put around a question (a greeting, thanks, an apology, a dispute at the table), each wrapped
# round every question of the parts tuned on (--frames): a right answer should not move. CHOSEN were read to choose
# the stop words and the frame phrases of synonyms.py; UNSEEN were written before the frame clauses of index.py
# and were not read to choose any word.
FRAMES_CHOSEN = (
    "quick question: {}", "{} - confused", "real quick, {}", "{}? curious", "question regarding this: {}",
    "{} - can someone clarify", "rundown please: {}", "unsure about this one, {}", "dumb question but {}",
    "sorry if this is obvious, {}", "noob here: {}", "my group is arguing: {}", "{} thanks!", "{} thx",
    "rules check: {}", "is it true that {}", "{} or am i wrong", "{} asking for a friend", "settle a debate: {}",
    "we are stuck: {}", "{} please help", "i was told {}", "{} i think", "{} ty", "hi all, {}",
    "pardon the basic question: {}", "{} much appreciated", "rules lawyer here: {}", "{} - we disagree",
    "friendly dispute: {}", "greetings! {}", "oops, {}")
FRAMES_UNSEEN = (
    "hiya! {}", "excuse the newbie question, {}", "{} - cheers in advance", "my daughter wants to know {}",
    "{} (house is divided on this)", "bit confused here: {}", "{} would love a ruling", "okay weird one: {}",
    "{} sorry for the long question", "need a ruling: {}", "{} many thanks in advance", "morning all, {}")


def _left_out(index: RulesIndex, q: dict) -> dict:
    """The question, its part left out of the questions asked before (asked.py) while it is asked."""
    index._asked.left_out = q["part"]
    return q


def _tagged(parts: tuple[str, ...]) -> list[dict]:
    return [{**q, "part": part} for part in parts for q in load(part)]


def framed(index: RulesIndex, parts: tuple[str, ...]) -> None:
    questions = _tagged(parts)
    covered = [q for q in questions if q.get("covered", True)]
    silent = [q for q in questions if not q.get("covered", True)]

    def right(text: str, q: dict) -> bool:
        reply = index.ask(text, game=_left_out(index, q)["game"])
        return reply.answered and bool(reply.hits) and reply.hits[0].entry.id in q["ids"]

    plain = sum(right(q["q"], q) for q in covered)
    print(f"== the talk around a question (game filter, {len(covered)} covered and {len(silent)} not covered "
          f"questions of {', '.join(parts)}): first result right and answered, plain {plain / len(covered):.1%}")
    for label, frames in (("frames read to choose words", FRAMES_CHOSEN), ("frames never read", FRAMES_UNSEEN)):
        ok = sum(right(f.format(q["q"]), q) for f in frames for q in covered)
        said = sum(not index.ask(f.format(q["q"]), game=_left_out(index, q)["game"]).answered
                   for f in frames for q in silent)
        print(f"  {label:28} ({len(frames):2}): right and answered {ok / len(covered) / len(frames):.1%}, "
              f"not covered said {said / max(1, len(silent)) / len(frames):.1%}")


_KEYBOARD = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def _slip(word: str, kind: str, at: int) -> str:
    """One slip of a phone keyboard inside a word: two letters swapped, one dropped, doubled, or its neighbour hit."""
    if kind == "swap":
        return word[:at] + word[at + 1] + word[at] + word[at + 2:]
    if kind == "drop":
        return word[:at] + word[at + 1:]
    if kind == "double":
        return word[:at] + word[at] + word[at:]
    row = next((r for r in _KEYBOARD if word[at] in r), "")
    key = row[row.index(word[at]) - 1] if row.index(word[at]) else row[1]
    return word[:at] + key + word[at + 1:]


def slipped(index: RulesIndex, parts: tuple[str, ...]) -> None:
    """Each covered question answered right, asked again with one slip in one of its words of 5 letters or more
    (chosen by a seeded random draw): how many stay right, per kind of slip."""
    rng = random.Random(7)
    kept = dict.fromkeys(("swap", "drop", "double", "neighbour key"), 0)
    right = 0
    for q in (q for q in _tagged(parts) if q.get("covered", True)):
        reply = index.ask(q["q"], game=_left_out(index, q)["game"])
        long = [w for w in re.findall(r"[A-Za-z]+", q["q"]) if len(w) >= 5 and not is_stopword(w.lower())]
        if not (reply.answered and reply.hits and reply.hits[0].entry.id in q["ids"] and long):
            continue
        right += 1
        word = rng.choice(long)
        for kind in kept:
            reply = index.ask(q["q"].replace(word, _slip(word, kind, rng.randrange(1, len(word) - 2)), 1), game=q["game"])
            kept[kind] += reply.answered and bool(reply.hits) and reply.hits[0].entry.id in q["ids"]
    print(f"== one slip in a word (game filter, the {right} covered questions answered right with a word of 5 letters "
          "or more): still right " + ", ".join(f"{k} {v / right:.1%}" for k, v in kept.items()))


def timings(index: RulesIndex, questions: list[dict]) -> list[float]:
    out = []
    for q in questions:
        runs = []
        for _ in range(REPEAT):
            index._cache.clear()
            semantic.encoder().forget()
            t = time.perf_counter()
            index.ask(q["q"], prefer=q["game"], limit=10)
            runs.append(time.perf_counter() - t)
        out.append(statistics.median(runs) * 1000)
    return sorted(out)


def _without(name: str):
    """An index with one mechanism switched off (for --ablate)."""
    patches: dict[str, object] = {}
    if name == "phrase weight":
        patches["PHRASE_CREDIT"] = 0.0
    elif name == "second rule second":
        patches["SECOND_RULE"] = 2.0
    elif name == "names of cards, characters...":
        patches["NAMED_CREDIT"] = 0.0
    elif name == "readings below rules at 0.6 (not 0.8)":
        patches["READING_BELOW"] = 0.6
    elif name == "about credit (answered a little below ANSWERED)":
        patches["ABOUT_CREDIT"] = 0.0
    elif name == "values of things only examples name":
        patches["VALUE_PATTERNS"] = ()
    elif name == "questions asked before (asked.py)":
        patches["ASKED_ON"] = False
    old = {k: getattr(index_module, k) for k in patches}
    for k, v in patches.items():
        setattr(index_module, k, v)
    index = RulesIndex(load_books())
    if name == "phrase weight":
        index._pairs = {}
    elif name == "question shapes (card text, opinion, sums)":
        index._unanswerable = lambda *a: None
    elif name == "overview and specific pass":
        index._overviews_and_specifics = lambda *a: None
    elif name == "longer run names the specific entry":
        index._runs = {}
    elif name == "letter names (option b, A grade)":
        index._lettered = set()
    return index, old


def ablate(parts: tuple[str, ...]) -> None:
    print("== each mechanism off on its own (game filter): top-1, top-3, both shown, not-covered precision / recall")
    for name in ("none", "phrase weight", "second rule second", "question shapes (card text, opinion, sums)",
                 "overview and specific pass", "names of cards, characters...", "longer run names the specific entry",
                 "letter names (option b, A grade)", "readings below rules at 0.6 (not 0.8)",
                 "values of things only examples name", "about credit (answered a little below ANSWERED)",
                 "questions asked before (asked.py)"):
        index, old = _without(name)
        cells = []
        for part in parts:
            index._asked.left_out = part
            s = evaluate(index, load(part), "game filter")
            flagged = s.silent_said + s.false_silent
            cells.append(f"{part} {s.top1 / s.covered:.1%} {s.top3 / s.covered:.1%} {s.both}/{s.pairs} "
                         f"{(s.silent_said / flagged if flagged else 1):.1%} / {s.silent_said / s.silent:.1%}")
        print(f"  {name:44} " + "   ".join(cells))
        for k, v in old.items():
            setattr(index_module, k, v)


def asked_margins(parts: tuple[str, ...], margins: list[float]) -> None:
    """How ASKED_MARGIN was chosen: over the parts tuned on, each left out of the questions asked before in turn
    (game filter), the "not covered" said rightly and wrongly at each margin; ASKED_MARGIN is the one with the most
    said rightly less said wrongly."""
    index = RulesIndex(load_books())
    old = index_module.ASKED_MARGIN
    print("== questions asked before (game filter, each part left out in turn): margin, top-1, not covered said, "
          "covered ones said too")
    for margin in margins:
        index_module.ASKED_MARGIN = margin
        top1 = said = wrong = 0
        for part in parts:
            index._asked.left_out = part
            s = evaluate(index, load(part), "game filter")
            top1, said, wrong = top1 + s.top1, said + s.silent_said, wrong + s.false_silent
        print(f"  {margin:5.3f}  top-1 {top1}  said {said}  said wrongly {wrong}  (said less wrongly {said - wrong})")
    index_module.ASKED_MARGIN = old


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=(*TUNED, *UNSEEN, "both", "all"), default="all")
    ap.add_argument("--misses", action="store_true", help="list the misses of the parts tuned on")
    ap.add_argument("--ablate", action="store_true", help="each mechanism switched off on its own")
    ap.add_argument("--frames", action="store_true", help="the questions wrapped in the talk around a question")
    ap.add_argument("--asked-margins", metavar="M1,M2,...", help="the 'not covered' of the questions asked before at each "
                    "margin (index.ASKED_MARGIN), each part tuned on left out of them in turn")
    ap.add_argument("--asks", action="store_true", help="with the players' questions of assistant/data/rules/asks/ "
                    "switched on (index.ASKS_ON)")
    args = ap.parse_args()
    if args.asks:
        index_module.ASKS_ON = True
    t0 = time.perf_counter()
    index = RulesIndex(load_books())
    print(f"index built in {(time.perf_counter() - t0) * 1000:.0f} ms, {len(index.entries)} entries")
    parts = {"both": ("tune", "heldout"), "all": (*TUNED, *UNSEEN)}.get(args.part, (args.part,))
    every: list[dict] = []
    for part in parts:
        if part in UNSEEN and not path(part).exists():
            print(f"== {LABELS[part]}: {path(part).relative_to(ROOT)} is not there yet")
            continue
        questions = load(part)
        every += questions
        print(f"== {LABELS.get(part, part)}: {len(questions)} questions "
              f"({sum(q.get('covered', True) for q in questions)} covered, "
              f"{sum(not q.get('covered', True) for q in questions)} not covered)")
        # (a part tuned on is measured with its own questions left out of the questions asked before: asked.py)
        index._asked.left_out = None if part in UNSEEN else part
        for mode in MODES:
            s = evaluate(index, questions, mode)
            print(f"{mode:20}{s.line()}")
            if args.misses and part not in UNSEEN and mode == "game filter":
                print("\n".join(s.misses))
    if args.asked_margins:
        asked_margins(tuple(p for p in parts if p not in UNSEEN), [float(m) for m in args.asked_margins.split(",")])
    if args.ablate:
        ablate(tuple(p for p in parts if p not in UNSEEN))
    if args.frames:
        framed(index, tuple(p for p in parts if p not in UNSEEN))
        slipped(index, tuple(p for p in parts if p not in UNSEEN))
    if not every:
        return
    ms = timings(index, every)
    print(f"search time over {len(ms)} questions (cold, median of {REPEAT}; load {os.getloadavg()[0]:.1f}): "
          f"p50 {statistics.median(ms):.2f} ms, p95 {ms[int(len(ms) * 0.95) - 1]:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
