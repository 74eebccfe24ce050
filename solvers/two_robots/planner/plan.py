"""`plan_turn`: the planner's entry point, from a turn to the plan with its steps and reasons."""
from __future__ import annotations

from fractions import Fraction

from solvers.errors import InputError

from ..odds import p_at_least_one
from .explain import card_notes, plan_reasons, plan_summary, why_better
from .records import EVENTS, Turn, TurnPlan
from .steps import choose_discards, discard_steps, event_option, play_steps, player_order, sacrifice_steps
from .turn_planner import Planner


def plan_turn(turn: Turn) -> TurnPlan:
    """The best plan of the turn: its steps (plays, Event phase sacrifice, cleanup discards), its score
    and reasons, the plans tied with it and why it beats the runner-up (see the package docstring)."""
    if turn.event not in EVENTS:
        raise InputError("event", f"must be one of {', '.join(EVENTS)}")
    if not 0 <= turn.actions <= 3:
        raise InputError("actions", "a turn has at most three actions")
    planner = Planner(turn)
    states = planner.search()
    explored = planner.bar.states
    scored = planner.score_all(states)
    best = scored[0]
    score, stacks, tail = best.score, best.stacks, best.tail
    seq = player_order(turn, best.seq)
    total_unseen = sum(u.count for u in turn.unseen)

    steps, f_plays, others_after = play_steps(turn, seq, tail)
    notes = card_notes(turn, planner, seq, tail, f_plays, others_after)
    warnings = [f"{s.card}: {s.why.split('Warning: ', 1)[1]}" for s in steps if s.destroys_own]
    kept = planner.kept(seq, tail)
    kept_reqs = tuple(sorted(turn.hand[i].stacks_required for i in kept if turn.hand[i].kind != "part"))
    event_options = [event_option(planner, f_plays, stacks, e, kept_reqs) for e in ("power", "active_robot")]
    after = f_plays
    if score.won:
        notes.append("The game ends when your second robot is built, so no Event phase is needed.")
    elif turn.event != "none":
        opt = next(o for o in event_options if o.event == turn.event)
        if opt.available:
            sacrificed, after = sacrifice_steps(planner, f_plays, stacks, kept_reqs)
            steps += sacrificed
        else:
            notes.append(f"The Event phase you chose cannot be paid: {opt.why}")
    discards, reasons = ([], {}) if score.won else choose_discards(turn, after, kept)
    steps += discard_steps(turn, discards, reasons)

    ties = [plan_summary(turn, player_order(turn, s.seq), s.tail) for s in [s for s in scored[1:] if s.score == score][:3]]
    lower = next((s for s in scored if s.score < score), None)
    runner = None
    if lower is not None:
        runner = (f"Better than \"{plan_summary(turn, player_order(turn, lower.seq), lower.tail)}\": "
                  f"{why_better(score, lower.score)}.")
    p_next = p_at_least_one(total_unseen, score.outs, 3) if total_unseen else Fraction(0)
    summary = plan_summary(turn, seq, tail)
    if not seq and not tail:
        summary = "Keep your cards: no play this turn improves your factory."
    return TurnPlan(steps=steps, score=score, factory_after_plays=f_plays, factory_after=after,
                    others_after=others_after, hand_after=[i for i in kept if i not in discards], discards=discards,
                    p_robot_next_draw=p_next, summary=summary, reasons=plan_reasons(turn, score, total_unseen),
                    runner_up=runner, ties=ties, event_options=event_options, notes=notes, warnings=warnings,
                    explored=explored)
