"""Brute-force oracle for the competition planner: every order, every payment (every resource mix),
every reward, with memoised search. Exponential: a test oracle for small inputs, not shipped with the app."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from solvers.raising_robots.competitions import (
    Competition,
    Payment,
    PlayerState,
    Rules,
    Step,
    Values,
    check_criterion,
    keep_for,
    pay,
    payment_cost,
    payment_problem,
)
from solvers.raising_robots.model import TOKEN_TYPES


def compositions(total: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to split `total` into len(caps) parts, part i at most caps[i]."""
    if not caps:
        if total == 0:
            yield ()
        return
    for first in range(min(total, caps[0]) + 1):
        for rest in compositions(total - first, caps[1:]):
            yield (first,) + rest


def legal_payments(comp: Competition, state: PlayerState, rules: Rules) -> list[Payment]:
    out = [Payment.token(t) for t in TOKEN_TYPES if t in comp.token_types() and state.unplaced_of(t) > 0]
    items = rules.payable_items()
    for split in compositions(comp.cost_resources, [state.inventory.get(i) for i in items]):
        out.append(Payment.resources(dict(zip(items, split))))
    if state.inventory.battery >= comp.cost_batteries:
        out.append(Payment.batteries(comp.cost_batteries))
    assert all(payment_problem(comp, p, state, rules) is None for p in out)
    return out


@dataclass(frozen=True)
class BruteResult:
    value: Fraction
    plan: tuple[Step, ...]  # one optimal plan
    signatures: frozenset[frozenset]  # the signature of every optimal plan
    sequences: frozenset[tuple]  # every optimal plan as its steps' keys in order (type, kind, token, reward)

    def orders_of(self, types: set[str]) -> set[tuple[str, ...]]:
        """The orders in which optimal plans complete exactly these competitions."""
        return {tuple(k[0] for k in seq) for seq in self.sequences if {k[0] for k in seq} == types}

    def pays(self, comp_type: str, kind: str) -> bool:
        """Does some optimal plan pay this competition with this kind of payment."""
        return any(k[0] == comp_type and k[1] == kind for seq in self.sequences for k in seq)

    def completes(self, comp_type: str) -> bool:
        return any(k[0] == comp_type for seq in self.sequences for k in seq)


def brute_force(state: PlayerState, competitions: Sequence[Competition], rules: Rules | None = None,
                values: Values | None = None) -> BruteResult:
    rules, values = rules or Rules(), values or Values()
    comps = tuple(competitions)

    def moves(s: PlayerState) -> Iterator[tuple[Step, Fraction, PlayerState]]:
        for comp in comps:
            if comp.type in s.completed or not check_criterion(comp, s).met:
                continue
            for p in legal_payments(comp, s, rules):
                paid = pay(s, p)
                for reward in comp.rewards:
                    keep = keep_for(s, (), reward)
                    gain = reward.vp + keep * values.friendship - payment_cost(p, values)
                    nxt = replace(paid, inventory=paid.inventory.add(vp=reward.vp),
                                  friendships=s.friendships + keep, completed=s.completed | {comp.type})
                    yield Step(comp.type, p, reward.id, keep), gain, nxt

    def key(s: PlayerState) -> PlayerState:
        return replace(s, inventory=replace(s.inventory, vp=0))  # VP never matters for what comes next

    @cache
    def best(k: PlayerState) -> tuple[Fraction, tuple[Step, ...]]:
        out: tuple[Fraction, tuple[Step, ...]] = (Fraction(0), ())
        for step, gain, nxt in moves(k):
            v, rest = best(key(nxt))
            if gain + v > out[0]:
                out = (gain + v, (step,) + rest)
        return out

    @cache
    def optimal_signatures(k: PlayerState) -> frozenset[frozenset]:
        target = best(k)[0]
        sigs = {frozenset()} if target == 0 else set()
        for step, gain, nxt in moves(k):
            if gain + best(key(nxt))[0] == target:
                sigs |= {rest | {step.key()} for rest in optimal_signatures(key(nxt))}
        return frozenset(sigs)

    @cache
    def optimal_sequences(k: PlayerState) -> frozenset[tuple]:
        target = best(k)[0]
        seqs = {()} if target == 0 else set()
        for step, gain, nxt in moves(k):
            if gain + best(key(nxt))[0] == target:
                seqs |= {(step.key(),) + rest for rest in optimal_sequences(key(nxt))}
        return frozenset(seqs)

    start = key(state)
    value, plan = best(start)
    return BruteResult(value=value, plan=plan, signatures=optimal_signatures(start),
                       sequences=optimal_sequences(start))
