"""Two Robots turn planner: rulebook cases (Turn Overview, Event Phase, Cleanup Phase, Frozen Stacks,
Clarifications) and plans where the obvious play is wrong; the search is checked against brute force."""
from __future__ import annotations

from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.two_robots.cards import HandCard
from solvers.two_robots.factory import (
    Factory,
    Part,
    Stack,
    analyse,
    check_part_names,
    placement,
    stack_parts,
)
from solvers.two_robots.game_data import DATA
from solvers.two_robots.odds import Deck, Sighting, completing, unseen_pool
from solvers.two_robots.planner import Bar, Turn, plan_turn
from solvers.two_robots.planner import Planner as _Planner

PN = ("head", "arms", "legs", "torso")


def P(part: str, *energies: str) -> Part:
    return Part.of(part, energies)


def H(part: str, *energies: str) -> HandCard:
    return HandCard("part", P(part, *energies))


DECK = Deck(parts=tuple(DATA.default_deck(PN)), attack=19, defense=21)


def turn(factory: Factory, hand: list[HandCard], others: tuple[Factory, ...] = (), **kw) -> Turn:
    sights = [Sighting(place="your_factory", parts=tuple(c for s in factory.stacks for c in s.cards)),
              Sighting(place="your_hand", parts=tuple(h.part for h in hand if h.part is not None)),
              Sighting(place="other_factories", parts=tuple(c for f in others for s in f.stacks for c in s.cards))]
    return Turn(factory, tuple(hand), PN, unseen_pool(DECK, sights).cards, others=others, **kw)


def plays(plan) -> list[tuple[str, int | None]]:
    return [(s.card, s.stack) for s in plan.steps if s.phase == "play"]


# ---- Turn Overview: up to three plays ----------------------------------------------------------------

def test_at_most_three_plays_and_only_legal_ones():
    """Turn Overview / Play Phase: up to three Action cards; each placement is legal."""
    f = Factory.of([[P("head", "chemical")], [P("head", "solar")]])
    hand = [H("arms", "chemical"), H("legs", "chemical"), H("torso", "chemical"), H("arms", "solar"), H("legs", "solar")]
    plan = plan_turn(turn(f, hand))
    assert len(plays(plan)) == 3
    g = f
    for s in plan.steps:
        if s.phase == "play":
            card = hand[s.hand_index].part
            assert placement(g, card, s.stack, PN) is not None
            g = g.add(card, s.stack)
    assert analyse(g, PN).active_robots == 1  # HEAD + ARMS + LEGS + TORSO on the Chemical stack


def test_win_now_with_a_frozen_robot():
    """Frozen Stacks + Clarifications: frozen stacks count toward Two Robots, so finishing the second
    robot wins even though the first is frozen (and could not be deployed)."""
    frozen_robot = Stack(tuple(P(p, "nuclear") for p in PN), frozen=True)
    b = Stack((P("head", "solar"), P("arms", "solar"), P("legs", "electrical", "solar")))
    plan = plan_turn(turn(Factory((frozen_robot, b)), [H("head", "electrical"), H("torso", "solar", "mechanical")]))
    assert plan.score.won
    assert plays(plan) == [("TORSO (Mechanical/Solar)", 1)]
    assert any("win" in r for r in plan.reasons)


def test_obvious_play_wrong_keep_the_core_card_that_would_lock_the_hybrid_stack():
    """Stacking Part Cards (Liz example logic): a lone Chemical HEAD would either start a Chemical
    stack (forcing the unlocked Chemical/Solar stack to Solar) or lock that stack to Chemical.
    Both halve the cards that finish the robot; keeping it in hand is better."""
    a = [P("head", "chemical", "solar"), P("arms", "chemical", "solar"), P("legs", "chemical", "solar")]
    plan = plan_turn(turn(Factory.of([a]), [H("head", "chemical")]))
    assert plays(plan) == []
    # TORSO with Chemical or Solar: C, S, and the 7 hybrids holding either = 9 unseen outs
    assert plan.score.outs == 9
    assert plan.runner_up and "unseen cards that would finish a robot (9 against 5)" in plan.runner_up


def test_obvious_play_wrong_finish_with_the_card_that_keeps_the_other_stack_open():
    """Energy Stacks: with one action, finishing the Chemical/Solar stack with the Chemical TORSO
    would force the Chemical/Nuclear stack to Nuclear; the Solar TORSO keeps it open."""
    a = [P("head", "chemical", "solar"), P("arms", "chemical", "solar"), P("legs", "chemical", "solar")]
    b = [P("head", "chemical", "nuclear"), P("arms", "chemical", "nuclear"), P("legs", "chemical", "nuclear")]
    plan = plan_turn(turn(Factory.of([a, b]), [H("torso", "chemical"), H("torso", "solar")], actions=1))
    assert plays(plan) == [("TORSO (Solar)", 0)]
    assert plan.score.robots == 1
    # stack 2 may still be Chemical or Nuclear: C/N, C/E, C/M, C/S, N, E/N, M/N, N/S (the C core is in hand)
    assert plan.score.outs == 8


def test_obvious_play_wrong_new_stack_first_then_the_attack():
    """Attack / Defense Cards: the gold number counts unique stacks. Adding the HEAD to stack 1 looks
    natural, but starting a third stack with it lets the marked Attack card be played after it (a
    card the rulebook does not describe: its effect is the player's to resolve)."""
    f = Factory.of([[P("arms", "chemical")], [P("arms", "solar")]])
    attack = HandCard("attack", None, "Big One", 3, play=True)
    plan = plan_turn(turn(f, [H("head", "nuclear", "chemical"), attack]))
    steps = [(s.action, s.stack, s.new_stack) for s in plan.steps if s.phase == "play"]
    assert steps == [("part", None, True), ("attack", None, False)]
    assert plan.score.wanted == 1
    assert "tr-attack-defense-cards" in plan.steps[1].rules and "yours to resolve" in plan.steps[1].why


def test_marked_attack_cannot_be_played_without_the_stacks():
    f = Factory.of([[P("arms", "chemical")]])
    attack = HandCard("attack", None, "Big One", 4, play=True)
    plan = plan_turn(turn(f, [attack, H("head", "solar")]))
    assert plan.score.wanted == 0
    assert any("needs 4 stacks" in n for n in plan.notes)


def test_reach_the_stack_count_a_defense_card_needs():
    """Attack / Defense Cards note: a new stack can be worth more than stacking when a card in hand
    needs it (with no robot or out at stake)."""
    f = Factory.of([[P("head", "chemical")]])
    plan = plan_turn(turn(f, [H("legs", "solar"), HandCard("defense", None, "Homing Missiles", 2)], actions=1))
    assert plays(plan) == [("LEGS (Solar)", None)]
    assert plan.score.ready == 1


# ---- The Event Phase ---------------------------------------------------------------------------------

def robot(energy: str, extra: tuple[Part, ...] = ()) -> tuple[Part, ...]:
    return tuple(P(p, energy) for p in PN) + extra


def test_event_power_plays_spare_parts_instead_of_breaking_the_robot():
    """The Event Phase, option A: two parts are sacrificed. The obvious move keeps the cards in hand
    and pays with the robot; playing two spare parts first and sacrificing them keeps the robot."""
    f = Factory((Stack(robot("mechanical")),))
    plan = plan_turn(turn(f, [H("head", "electrical"), H("arms", "nuclear")], event="power"))
    assert plan.score.event and plan.score.robots == 1
    sac = [s for s in plan.steps if s.phase == "event"]
    assert len(sac) == 2 and all(s.stack != 0 for s in sac)
    assert analyse(plan.factory_after, PN).active_robots == 1


def test_event_active_robot_gives_the_duplicate_first():
    """The Event Phase, option B + Duplicate Parts: one part is sacrificed; the spare ARMS goes, so
    neither the robot nor the other stack loses a part."""
    f = Factory((Stack(robot("chemical", (P("arms", "chemical", "solar"),))),
                 Stack((P("head", "solar"), P("arms", "solar")))))
    t = turn(f, [], event="active_robot")
    plan = plan_turn(t)
    sac = [s for s in plan.steps if s.phase == "event"]
    assert [(s.card.split(" ")[0], s.stack) for s in sac] == [("ARMS", 0)]
    assert "spare copy" in sac[0].why
    assert plan.score.robots == 1 and plan.score.progress == (4, 2)
    opt = next(o for o in plan.event_options if o.event == "power")
    assert opt.available and not opt.breaks_robot
    # option A takes two parts: by brute force over every pair (oracle_value, the rules' order of what
    # counts), exactly two pairs score best, the spare ARMS with either part of stack 2; the planner
    # names one of that tie set
    ties = best_sacrifices(t, f, 2)
    assert ties == {frozenset({(0, "arms"), (1, "head")}), frozenset({(0, "arms"), (1, "arms")})}
    assert frozenset((i, c.part) for i, c, _ in opt.sacrifice) in ties


def test_event_breaks_the_robot_only_when_nothing_else_is_left():
    """The Event Phase note: the sacrifice may come from the robot and dismantles it; Tablebot does
    so only when no other choice exists."""
    f = Factory((Stack(robot("chemical")),))
    plan = plan_turn(turn(f, [], event="active_robot"))
    assert plan.score.event and plan.score.robots == 0
    opt = next(o for o in plan.event_options if o.event == "active_robot")
    assert opt.breaks_robot and "breaks it" in opt.why


def test_frozen_robot_cannot_be_deployed_for_event_b():
    """Frozen Stacks: a frozen complete robot cannot be deployed, and frozen stacks give no parts."""
    f = Factory((Stack(robot("chemical"), frozen=True), Stack((P("head", "solar"),))))
    plan = plan_turn(turn(f, [], event="active_robot"))
    assert not plan.score.event
    opt = next(o for o in plan.event_options if o.event == "active_robot")
    assert not opt.available and "frozen" in opt.why
    assert any("cannot be paid" in n for n in plan.notes)


def test_power_needs_an_unused_power_card():
    """The Event Phase, option A: each Power is once per game."""
    f = Factory.of([[P("head", "solar"), P("arms", "solar")]])
    plan = plan_turn(turn(f, [], event="power", powers_left=0))
    assert not plan.score.event
    assert "No unused Power" in next(o for o in plan.event_options if o.event == "power").why


# ---- Cleanup Phase -------------------------------------------------------------------------------------

def test_cleanup_discards_dead_cards_down_to_seven():
    """Cleanup Phase: discard down to seven. Ten cards, one action: nine remain, and the two parts with
    no legal place (their energies are held by frozen stacks) go."""
    f = Factory((Stack((P("head", "nuclear"),), frozen=True), Stack((P("head", "mechanical"),), frozen=True)))
    dead = [H("arms", "nuclear"), H("legs", "mechanical", "nuclear")]
    good = [H("arms", "chemical"), H("legs", "chemical"), H("torso", "chemical"), H("head", "chemical"),
            H("arms", "solar"), H("legs", "solar"), H("torso", "solar"), H("head", "solar")]
    hand = good[:4] + dead + good[4:]
    plan = plan_turn(turn(f, hand, actions=1))
    assert len(plan.hand_after) == 7
    assert sorted(plan.discards) == [4, 5]
    assert all("no legal place" in s.why for s in plan.steps if s.phase == "cleanup")
    assert "tr-cleanup-phase" in plan.steps[-1].rules


# ---- the search against brute force --------------------------------------------------------------------

ENERGY = ("chemical", "nuclear", "solar")


@st.composite
def small_turns(draw):
    def part():
        es = draw(st.lists(st.sampled_from(ENERGY), min_size=1, max_size=2, unique=True))
        return P(draw(st.sampled_from(PN)), *es)
    stacks = []
    for _ in range(draw(st.integers(0, 2))):
        energy = draw(st.sampled_from(ENERGY))
        names = draw(st.lists(st.sampled_from(PN), min_size=1, max_size=4, unique=draw(st.booleans())))
        cards = tuple(P(n, energy) for n in names)
        stacks.append(Stack(cards, draw(st.booleans())))
    f = Factory(tuple(stacks))
    if not analyse(f, PN).possible:
        f = Factory(())
    hand = [HandCard("part", part()) for _ in range(draw(st.integers(0, 3)))]
    if draw(st.booleans()):
        hand.append(HandCard("attack", None, "A", draw(st.integers(1, 3)), play=draw(st.booleans())))
    event = draw(st.sampled_from(["none", "power", "active_robot"]))
    return turn(f, hand, event=event, actions=draw(st.integers(1, 3)), hand_limit=draw(st.integers(1, 7)))


NO_OPPONENTS = ((), 0, 0)  # the pressure term of a table with no other seat


def oracle_best(t: Turn) -> tuple:
    """Brute force with the Factory API only: every order of every subset of part cards, every legal
    placement, the marked attacks last, every sacrifice by card index."""
    parts = [i for i, c in enumerate(t.hand) if c.kind == "part"]
    flagged = [i for i, c in enumerate(t.hand) if c.kind != "part" and c.play]
    best = None
    for k in range(t.actions + 1):
        for order in permutations(parts, k):
            for targets in product(*[range(-1, 6)] * k):
                f, ok = t.factory, True
                for i, tgt in zip(order, targets):
                    stack = None if tgt == -1 else tgt
                    if stack is not None and stack >= len(f.stacks):
                        ok = False
                        break
                    if placement(f, t.hand[i].part, stack, PN) is None:
                        ok = False
                        break
                    f = f.add(t.hand[i].part, stack)
                    if analyse(f, PN).active_robots >= 2 and len(f.stacks) and i != order[-1]:
                        ok = False  # the game ends at the win: no plays after it
                        break
                if not ok:
                    continue
                score = oracle_score(t, f, list(order), flagged)
                best = score if best is None or score > best else best
    return best


def oracle_value(t: Turn, f: Factory, kept: list[int]) -> tuple:
    view = analyse(f, PN)
    outs_idx = {j for c in completing(f, t.unseen, PN) for j in c.cards}
    outs = sum(t.unseen[j].count for j in outs_idx)
    ready = sum(1 for i in kept if t.hand[i].kind != "part" and t.hand[i].stacks_required <= len(f.stacks))
    progress = tuple(sorted((len(stack_parts(s, PN)[0]) for s in f.stacks), reverse=True))
    return view.active_robots, outs, ready, progress


def best_sacrifices(t: Turn, f: Factory, n: int) -> set[frozenset]:
    """Every set of `n` cards (as (stack, part name)) whose sacrifice leaves the best oracle_value."""
    cards = [(i, j) for i, s in enumerate(f.stacks) if not s.frozen for j in range(len(s.cards))]
    values = {}
    for picks in combinations(cards, n):
        g = f
        for i, j in sorted(picks, reverse=True):
            g = g.remove(i, j)
        values[frozenset((i, f.stacks[i].cards[j].part) for i, j in picks)] = oracle_value(t, g, [])
    best = max(values.values())
    return {k for k, v in values.items() if v == best}


def oracle_score(t: Turn, f: Factory, order: list[int], flagged: list[int]) -> tuple:
    left = t.actions - len(order)
    won = analyse(f, PN).active_robots >= 2
    if won:
        return (True, True, analyse(f, PN).active_robots, 0, 0, (), 0, 0, (), 0, -len(order))
    attacks = [i for i in flagged if t.hand[i].stacks_required <= len(f.stacks)][:left]
    kept = [i for i in range(len(t.hand)) if i not in order and i not in attacks]
    event_ok, after_value = True, oracle_value(t, f, kept)
    if t.event != "none" and not won:
        n = 2 if t.event == "power" else 1
        cards = [(i, j) for i, s in enumerate(f.stacks) if not s.frozen for j in range(len(s.cards))]
        can = len(cards) >= n and (t.powers_left > 0 if t.event == "power" else
                                   any(v.deployable for v in analyse(f, PN).stacks))
        if not can:
            event_ok = False
        else:
            after_value = None
            for picks in combinations(cards, n):
                g = f
                for i, j in sorted(picks, reverse=True):
                    g = g.remove(i, j)
                v = oracle_value(t, g, kept)
                after_value = v if after_value is None or v > after_value else after_value
    robots, outs, ready, progress = after_value
    lost = max(0, len(kept) - t.hand_limit)
    return (won, event_ok, robots, len(attacks), 0, NO_OPPONENTS, outs, ready, progress, -lost,
            -(len(order) + len(attacks)))


@settings(max_examples=40, deadline=None)
@given(small_turns())
def test_planner_matches_brute_force(t):
    plan = plan_turn(t)
    assert plan.score.key() == oracle_best(t)


# ---- the search's shortcuts (each must leave the answer exact) -----------------------------------------

def test_sacrifice_reopens_an_energy_the_outs_bound_allows_for_it():
    """Stacking Part Cards (the Liz example read backwards) + Duplicate Parts + The Event Phase: the
    spare Chemical ARMS is what locks the Chemical/Solar stack to Chemical. Giving it up for a Power
    reopens Solar, so a sacrifice can raise the outs (5 TORSO cards with Chemical become 9 with
    Chemical or Solar); the bound used to skip plans must allow for that."""
    a = Stack((P("head", "chemical", "solar"), P("arms", "chemical", "solar"), P("legs", "chemical", "solar"),
               P("arms", "chemical")))
    f = Factory((a, Stack((P("head", "nuclear"),))))
    assert plan_turn(turn(f, [])).score.outs == 5
    plan = plan_turn(turn(f, [], event="power"))
    assert plan.score.event and plan.score.outs == 9
    sac = [s.card for s in plan.steps if s.phase == "event"]
    assert sorted(sac) == ["ARMS (Chemical)", "HEAD (Nuclear)"]
    planner = _Planner(turn(f, [], event="power"))
    reaches = [planner.reach(s) for s in planner.start]
    assert planner.outs_bound(reaches) >= 9


def test_sacrifice_choices_dominated_by_the_spare_copy_are_not_tried():
    """Duplicate Parts + The Event Phase note (the part may come from the robot): taking the spare
    ARMS leaves the robot whole; taking any other card breaks it, which can never be better, so only
    an ARMS is a choice for one card. For two cards, the spare and a robot part is the best
    left (a robot one part short, with the name it misses)."""
    spare = P("arms", "chemical", "solar")
    f = Factory((Stack(robot("chemical", (spare,))),))
    planner = _Planner(turn(f, [], event="active_robot"))
    one, two = planner.fronts(planner.start[0])
    # either ARMS may go (the robot keeps the other, Chemical either way): one choice, not five
    assert len(one) == 1 and one[0][0][1] == planner.full
    assert [planner.card_parts[c].part for c in one[0][1]] == ["arms"]
    assert all(r is not None and r[1] != planner.full for r, _ in two)
    assert len(two) == 4  # one per part name the broken robot may miss


def test_lone_hybrid_stacks_with_a_spare_copy_pay_for_a_power():
    """Stacking Part Cards (a lone hybrid is unlocked) + Duplicate Parts: two Chemical/Solar HEAD
    stacks, one holding a spare copy. Paying two parts for a Power must compare a stack that goes
    with one that stays; the best is to give up the spare and keep both stacks as long as possible."""
    h = P("head", "chemical", "solar")
    plan = plan_turn(turn(Factory.of([[h], [h, h]]), [], event="power"))
    assert plan.score.event
    assert plan.score.progress == (1,)
    assert len([s for s in plan.steps if s.phase == "event"]) == 2


ENERGY4 = ("chemical", "nuclear", "solar", "electrical")


@st.composite
def mixed_turns(draw):
    """Factories with hybrids, spare copies and frozen stacks, built so that most are possible."""
    def part(energy=None):
        es = draw(st.lists(st.sampled_from(ENERGY4), min_size=1, max_size=2, unique=True))
        if energy and energy not in es:
            es = [energy, *es[:1]]
        return P(draw(st.sampled_from(PN)), *es)
    stacks = [Stack(tuple(part(e) for _ in range(draw(st.integers(1, 5)))), draw(st.integers(0, 4)) == 0)
              for e in draw(st.lists(st.sampled_from(ENERGY4), max_size=3, unique=True))]
    f = Factory(tuple(stacks))
    if not analyse(f, PN).possible:
        f = Factory(())
    hand = [HandCard("part", part()) for _ in range(draw(st.integers(0, 3)))]
    if draw(st.booleans()):
        hand.append(HandCard("attack", None, "A", draw(st.integers(1, 4)), play=draw(st.booleans())))
    return turn(f, hand, event=draw(st.sampled_from(["none", "power", "active_robot"])),
                actions=draw(st.integers(1, 3)), hand_limit=draw(st.integers(1, 7)))


def oracle_keys(t: Turn) -> set[tuple]:
    """Every score the brute force can reach (see oracle_best)."""
    parts = [i for i, c in enumerate(t.hand) if c.kind == "part"]
    flagged = [i for i, c in enumerate(t.hand) if c.kind != "part" and c.play]
    keys = set()
    for k in range(t.actions + 1):
        for order in permutations(parts, k):
            for targets in product(*[range(-1, 6)] * k):
                f, ok = t.factory, True
                for i, tgt in zip(order, targets):
                    stack = None if tgt == -1 else tgt
                    if (stack is not None and stack >= len(f.stacks)) or placement(f, t.hand[i].part, stack, PN) is None:
                        ok = False
                        break
                    f = f.add(t.hand[i].part, stack)
                    if analyse(f, PN).active_robots >= 2 and i != order[-1]:
                        ok = False
                        break
                if ok:
                    keys.add(oracle_score(t, f, list(order), flagged))
    return keys


@settings(max_examples=40, deadline=None)
@given(mixed_turns())
def test_shortcuts_keep_the_best_and_the_runner_up_exact(t):
    """The Event Phase sacrifice with hybrids, spare copies and frozen stacks: skipping dominated
    sacrifice choices, sharing answers between stacks that differ only in what no score reads, and
    skipping plans by the outs bound leave the best score and the runner-up's exactly those of brute
    force (the runner-up is not compared when the brute force's is a win reached in a longer order,
    which the planner never lists since the game ends at the win)."""
    keys = oracle_keys(t)
    best = max(keys)
    planner = _Planner(t)
    scored = planner.score_all(planner.search())
    assert scored[0].score == best
    runner = max((k for k in keys if k < best), default=None)
    if runner is None or not runner[0]:
        assert next((s.score for s in scored if s.score < best), None) == runner


@settings(max_examples=40, deadline=None)
@given(mixed_turns())
def test_scores_met_before_the_search_are_scores_of_real_plans(t):
    """The search's seeds (wins within reach, one greedy line of part plays) only meet scores that a
    legal plan reaches (brute force over every order of part plays, Event Phase sacrifice included),
    so the runner-up they raise is never one no plan has."""
    keys = oracle_keys(t)
    planner = _Planner(t)
    planner.bar = bar = _Recording()
    planner.seed_wins()
    planner.seed_parts()
    assert all(tuple(m) in keys for m in bar.met)


class _Recording(Bar):
    """A bar that keeps every score it meets."""
    def __init__(self) -> None:
        super().__init__()
        self.met: list = []

    def meet(self, score) -> None:
        self.met.append(score)
        super().meet(score)


def test_input_errors_name_the_field():
    """The Turn (Turn Overview: three actions; The Event Phase: options A and B) and the part names
    (How to Build a Robot) are checked by the solvers, with the field named for the API's 400."""
    names = DATA.part_ids
    with pytest.raises(InputError) as e:
        plan_turn(Turn(Factory(()), (), names, event="party"))
    assert e.value.path == "event"
    with pytest.raises(InputError) as e:
        plan_turn(Turn(Factory(()), (), names, actions=4))
    assert e.value.path == "actions"
    with pytest.raises(InputError) as e:
        Part.of("head", ["solar", "solar"])
    assert e.value.path == "energies"
    with pytest.raises(InputError) as e:
        check_part_names(Factory((Stack((Part.of("head", ["solar"]), Part.of("tail", ["solar"]))),)), (), names)
    assert e.value.path == "stacks[0].cards[1].part"


# ---- the steps in the order a player makes them -----------------------------------------------------

def test_steps_complete_the_robot_first_then_new_stacks_then_the_attack():
    """How to Build a Robot + Attack / Defense Cards: the TORSO that completes the Chemical robot is
    played first, then the Solar HEAD starts the second stack the marked Attack card needs, then the
    Attack card (the search meets the new stack first); the plan is the same."""
    f = Factory.of([[P("head", "chemical"), P("arms", "chemical"), P("legs", "chemical")]])
    attack = HandCard("attack", None, "Big One", 2, play=True)
    plan = plan_turn(turn(f, [H("head", "solar"), H("torso", "chemical"), attack]))
    assert [(s.card, s.stack) for s in plan.steps] == [
        ("TORSO (Chemical)", 0), ("HEAD (Solar)", None), ("Big One", None)]
    assert plan.steps[0].why == "Stays Chemical; completes an active robot."
    assert plan.summary == "TORSO (Chemical) on stack 1; HEAD (Solar) as a new stack; play Big One"


def test_steps_onto_the_factory_before_a_new_stack_and_the_card_played_onto_it():
    """Stacking Part Cards: a card onto stack 1 first, then the new Solar stack, then the ARMS that goes
    onto it (stack 2, which exists only once the HEAD is down)."""
    plan = plan_turn(turn(Factory.of([[P("head", "chemical")]]),
                          [H("head", "solar"), H("arms", "solar"), H("arms", "chemical")]))
    assert plays(plan) == [("ARMS (Chemical)", 0), ("HEAD (Solar)", None), ("ARMS (Solar)", 1)]


@settings(max_examples=40, deadline=None)
@given(mixed_turns())
def test_player_order_keeps_the_plan_card_for_card(t):
    """Whatever the turn, the listed order makes the same factory as the search's order, card for card
    and stack for stack; robot-completing plays come first, then plays onto the factory as it was, then
    new stacks, and the Attack and Defense cards last; every step is legal when it is made."""
    planner = _Planner(t)
    seq = planner.score_all(planner.search())[0].seq
    searched = t.factory
    for p in seq:
        searched = searched.add(t.hand[p.hand_index].part, p.stack)
    plan = plan_turn(t)
    assert plan.factory_after_plays == searched
    start = len(t.factory.stacks)
    new_robots = {j for j in range(start) if analyse(searched, PN).stacks[j].active_robot
                  and not analyse(t.factory, PN).stacks[j].active_robot}
    groups, g = [], t.factory
    for s in plan.steps:
        if s.phase != "play":
            continue
        if s.action != "part":
            groups.append(3)
            continue
        target = len(g.stacks) if s.stack is None else s.stack
        groups.append(0 if target in new_robots else 1 if target < start else 2)
        assert placement(g, t.hand[s.hand_index].part, s.stack, PN) is not None
        g = g.add(t.hand[s.hand_index].part, s.stack)
    assert groups == sorted(groups) and g == searched


# ---- Attack and Defense cards on the whole table ("Attack Cards", "Frozen Stacks", "Defense Cards") ----

def NE(req: int = 3, play: bool = False) -> HandCard:
    return HandCard("attack", name="Nuclear Explosion", stacks_required=req, play=play)


def test_issue_example_nuclear_explosion_is_not_played_on_your_own_stack():
    """Attack Cards: "HEAD (Nuclear) on stack 2; play Nuclear Explosion" with no Nuclear part in any
    other factory would make the card take two of your own Nuclear parts (it must destroy exactly
    two). The plan keeps it and says why; marked to be played, it is played with a plain warning
    naming your parts and the stack it breaks."""
    f = Factory.of([[P("arms", "chemical")], [P("arms", "nuclear"), P("legs", "nuclear")], [P("torso", "solar")]])
    ben = Factory.of([[P("head", "mechanical"), P("arms", "mechanical"), P("legs", "mechanical")]])
    plan = plan_turn(turn(f, [H("head", "nuclear"), NE()], others=(ben,), labels=("you", "Ben")))
    assert [s.action for s in plan.steps if s.phase == "play"] == ["part"] and plan.warnings == []
    assert plan.score.own_lost == 0
    assert any(n.startswith("Nuclear Explosion is kept: it would have to destroy your own parts") for n in plan.notes)
    marked = plan_turn(turn(f, [H("head", "nuclear"), NE(play=True)], others=(ben,), labels=("you", "Ben")))
    attack = next(s for s in marked.steps if s.action == "attack")
    assert attack.destroys_own and all(r.factory == 0 for r in attack.destroyed) and len(attack.destroyed) == 2
    assert "Warning: this destroys your own" in attack.why and "breaks your stack 2" in attack.why
    assert marked.warnings and marked.score.own_lost == -2


def test_attack_breaks_the_nearest_opponents_robot_then_ice_blast_freezes_his_last_stack():
    """Attack Cards + Frozen Stacks: Ben has a Nuclear robot and a Solar stack one part short, one part
    from the win. Nuclear Explosion takes two parts of his robot (none of yours), then Ice Blast
    freezes his Solar stack; both are better than building your own stack."""
    f = Factory.of([[P("arms", "chemical")], [P("arms", "nuclear"), P("legs", "nuclear")], [P("torso", "solar")]])
    ben = Factory((Stack(robot("nuclear")), Stack((P("head", "solar"), P("arms", "solar"), P("legs", "solar")))))
    ice = HandCard("attack", name="Ice Blast", stacks_required=1)
    plan = plan_turn(turn(f, [H("head", "chemical"), NE(), ice], others=(ben,), labels=("you", "Ben")))
    attacks = [s for s in plan.steps if s.action == "attack"]
    assert [s.card for s in attacks] == ["Nuclear Explosion", "Ice Blast"]
    assert {(r.factory, r.stack) for r in attacks[0].destroyed} == {(1, 0)} and not attacks[0].destroys_own
    assert attacks[1].frozen == (1, 1)
    assert plan.others_after[0].stacks[1].frozen and analyse(plan.others_after[0], PN).active_robots == 0
    # Ben then needs 6 parts: 2 for the broken robot and 4 for a new stack (his Solar stack is frozen)
    assert plan.score.pressure[0] == (6,)
    assert "the robot on Ben's stack 1 is broken" in attacks[0].why


def test_homing_missiles_only_as_a_response():
    """Defense Cards: Homing Missiles is played when an opponent's Attack card goes for your parts, not on
    your own turn; marked to be played, it is still kept, and the plan says when keeping it matters
    (Ben's Nuclear attack would break your Nuclear robot)."""
    f = Factory((Stack(robot("nuclear")), Stack((P("head", "solar"),))))
    ben = Factory.of([[P("head", "chemical")]])
    hm = HandCard("defense", name="Homing Missiles", stacks_required=1, play=True)
    plan = plan_turn(turn(f, [hm], others=(ben,), labels=("you", "Ben")))
    assert plan.steps == [] and plan.score.wanted == 0 and plan.score.ready == 1
    note = next(n for n in plan.notes if "Homing Missiles" in n)
    assert note.startswith("Not a play of your turn, keep Homing Missiles: it is played out of turn")
    assert "Keeping it matters now" in note and "breaks your robot" in note


def test_sentry_gunship_answers_an_opponents_event():
    """Defense Cards: Sentry Gunship cancels an opponent's Event card in their Event Phase; it is no play
    of your turn, and keeping it matters while an opponent can deploy a robot for an Event."""
    f = Factory.of([[P("head", "solar")]])
    ben = Factory((Stack(robot("chemical")),))
    sg = HandCard("defense", name="Sentry Gunship", stacks_required=1)
    plan = plan_turn(turn(f, [sg, H("arms", "solar")], others=(ben,), labels=("you", "Ben")))
    assert all(s.action == "part" for s in plan.steps if s.phase == "play")
    note = next(n for n in plan.notes if "Sentry Gunship" in n)
    assert note.startswith("Keep Sentry Gunship: it cancels an opponent's Event card") and "Ben can deploy" in note
    alone = plan_turn(turn(f, [sg], others=(Factory.of([[P("head", "chemical")]]),), labels=("you", "Ben")))
    assert "No opponent can deploy a robot for an Event yet" in next(n for n in alone.notes if "Sentry" in n)


def test_alyssa_example_in_a_plan_warns_that_her_own_head_goes():
    """Frozen Stacks, Alyssa example: she marks Nuclear Explosion to destroy the opponent's lone Nuclear
    part; with her own frozen Nuclear HEAD the only other Nuclear part, the plan plays it and says that
    her own HEAD goes too, which breaks her frozen stack 1."""
    alyssa = Factory((Stack((P("head", "nuclear"),), frozen=True),
                      Stack((P("arms", "chemical"), P("legs", "chemical"))),
                      Stack((P("head", "solar", "electrical"),))))
    opponent = Factory.of([[P("torso", "nuclear")], [P("head", "mechanical")]])
    plan = plan_turn(turn(alyssa, [NE(play=True)], others=(opponent,), labels=("Alyssa", "Ben")))
    step = next(s for s in plan.steps if s.action == "attack")
    assert {(r.factory, r.part.part) for r in step.destroyed} == {(0, "head"), (1, "torso")}
    assert step.destroys_own and "your own HEAD (Nuclear)" in step.why and "breaks your stack 1" in step.why
    assert len(plan.others_after[0].stacks) == 1 and len(plan.factory_after_plays.stacks) == 2


def test_obvious_play_wrong_a_spare_copy_first_gives_the_attack_something_else_to_take():
    """Attack Cards + Duplicate Parts: Ben's lone Nuclear TORSO is the only Nuclear part outside your
    factory, so your marked Nuclear Explosion must also take one of yours. Played at once it breaks your
    Nuclear stack one part short of a robot; playing your spare Nuclear ARMS onto that stack first (a
    sideways duplicate) gives it the spare to take, and the stack keeps its three parts. The warning
    still says your own card goes."""
    f = Factory.of([[P("head", "nuclear"), P("arms", "nuclear"), P("legs", "nuclear")], [P("head", "chemical")]])
    ben = Factory.of([[P("torso", "nuclear")], [P("head", "mechanical"), P("arms", "mechanical")]])
    plan = plan_turn(turn(f, [NE(req=2, play=True), H("arms", "nuclear")], others=(ben,), labels=("you", "Ben")))
    assert [(s.action, s.stack) for s in plan.steps if s.phase == "play"] == [("part", 0), ("attack", None)]
    attack = plan.steps[1]
    own = [r for r in attack.destroyed if r.factory == 0]
    assert len(own) == 1 and own[0].part == P("arms", "nuclear") and attack.destroys_own
    assert "the robot" not in attack.why and "only loses a spare copy" in attack.why
    assert plan.score.progress == (3, 1) and plan.warnings


# ---- the search with Attack cards and other seats, against brute force ------------------------------------

@st.composite
def table_turns(draw, marked_nuke: bool = False):
    """Small tables: your factory, one opponent's, a few parts and one or two Attack cards in hand (with
    `marked_nuke`, always a Nuclear Explosion the player wants played)."""
    def part(energies=ENERGY):
        es = draw(st.lists(st.sampled_from(energies), min_size=1, max_size=2, unique=True))
        return P(draw(st.sampled_from(PN)), *es)

    def factory():
        stacks = []
        for e in draw(st.lists(st.sampled_from(ENERGY), max_size=2, unique=True)):
            names = draw(st.lists(st.sampled_from(PN), min_size=1, max_size=4, unique=draw(st.booleans())))
            stacks.append(Stack(tuple(P(n, e) for n in names), draw(st.integers(0, 3)) == 0))
        f = Factory(tuple(stacks))
        return f if analyse(f, PN).possible else Factory(())
    mine, ben = factory(), factory()
    hand = [HandCard("part", part()) for _ in range(draw(st.integers(0, 2)))]
    if marked_nuke:
        hand.append(NE(draw(st.integers(0, 2)), True))
    for _ in range(draw(st.integers(0 if marked_nuke else 1, 2))):
        kind = draw(st.sampled_from(["nuke", "ice", "unknown", "homing"]))
        req, play = draw(st.integers(0, 2)), draw(st.booleans())
        hand.append({"nuke": NE(req, play), "ice": HandCard("attack", name="Ice Blast", stacks_required=req, play=play),
                     "unknown": HandCard("attack", name="Big One", stacks_required=req, play=play),
                     "homing": HandCard("defense", name="Homing Missiles", stacks_required=req, play=play)}[kind])
    return turn(mine, hand, others=(ben,), event=draw(st.sampled_from(["none", "power", "active_robot"])),
                actions=draw(st.integers(1, 3)), hand_limit=draw(st.integers(1, 7)), labels=("you", "Ben"))


def oracle_table_best(t: Turn) -> tuple:
    """Brute force with the Factory API: every order of every subset of the cards, every legal place of
    a part, the best target set of a modelled Attack card (the first listed when they tie and none is
    yours, else each), marked cards of unknown effect last; scored term by term as the planner's
    docstring says."""
    from solvers.two_robots.attacks import pressure, resolve
    from solvers.two_robots.cards import effect_of
    effects = {i: effect_of(c) for i, c in enumerate(t.hand) if c.kind != "part"}
    playable = [i for i, c in enumerate(t.hand) if c.kind == "part" or effects[i].modelled]
    flagged = [i for i, c in enumerate(t.hand) if c.kind != "part" and c.play and not effects[i].modelled
               and not effects[i].reactive]
    best = None

    def finish(f, others, order, own_lost):
        nonlocal best
        won = analyse(f, PN).active_robots >= 2
        if won:
            score = (True, True, analyse(f, PN).active_robots, 0, 0, (), 0, 0, (), 0, -len(order))
        else:
            left = t.actions - len(order)
            tail = [i for i in flagged if t.hand[i].stacks_required <= len(f.stacks)][:left]
            kept = [i for i in range(len(t.hand)) if i not in order and i not in tail]
            wanted = len(tail) + sum(1 for i in order if t.hand[i].kind != "part" and t.hand[i].play)
            event_ok, value = True, oracle_value(t, f, kept)
            if t.event != "none":
                n = 2 if t.event == "power" else 1
                cards = [(i, j) for i, s in enumerate(f.stacks) if not s.frozen for j in range(len(s.cards))]
                if len(cards) < n or not (t.powers_left > 0 if t.event == "power" else
                                          any(v.deployable for v in analyse(f, PN).stacks)):
                    event_ok = False
                else:
                    value = None
                    for picks in combinations(cards, n):
                        g = f
                        for i, j in sorted(picks, reverse=True):
                            g = g.remove(i, j)
                        v = oracle_value(t, g, kept)
                        value = v if value is None or v > value else value
            robots, outs, ready, progress = value
            score = (False, event_ok, robots, wanted, -own_lost, pressure((f, *others), 0, PN).key(), outs, ready,
                     progress, -max(0, len(kept) - t.hand_limit), -(len(order) + len(tail)))
        best = score if best is None or score > best else best

    def rec(f, others, order, own_lost):
        finish(f, others, order, own_lost)
        if len(order) == t.actions or analyse(f, PN).active_robots >= 2:
            return
        for i in playable:
            if i in order:
                continue
            c = t.hand[i]
            if c.kind == "part":
                for k in [*range(len(f.stacks)), None]:
                    if placement(f, c.part, k, PN) is not None:
                        rec(f.add(c.part, k), others, order + [i], own_lost)
            elif len(f.stacks) >= c.stacks_required:
                answer = resolve(effects[i], (f, *others), 0, PN)
                # tied targets that are not yours: the first, as the answer lists them; yours: each
                best_of = [b for b in answer.best if answer.options[b].own_lost] or answer.best[:1]
                for b in best_of:
                    o = answer.options[b]
                    rec(o.after[0], tuple(o.after[1:]), order + [i], own_lost + o.own_lost)

    rec(t.factory, t.others, [], 0)
    return best


@settings(max_examples=60, deadline=None)
@given(table_turns())
def test_planner_with_attacks_and_other_seats_matches_brute_force(t):
    """Attack Cards, Frozen Stacks, Defense Cards and the Event Phase together: the planner's best score
    (interleaving Attack cards with part plays, shortcuts and all) is the brute force's."""
    assert plan_turn(t).score.key() == oracle_table_best(t)


@settings(max_examples=80, deadline=None)
@given(st.one_of(table_turns(), table_turns(marked_nuke=True)))
def test_the_plan_never_destroys_your_own_parts_without_saying_so(t):
    """Attack Cards (an Attack card may take your own parts): whenever a step of the plan destroys a part
    of yours, the step is flagged, its text says "your own" for each such card and names the stack it
    breaks, and the plan's warnings repeat it; no other step destroys anything of yours."""
    plan = plan_turn(t)
    for s in plan.steps:
        own = [r for r in s.destroyed if r.factory == 0]
        assert s.destroys_own == bool(own)
        if own:
            assert "Warning: this destroys your own" in s.why
            for r in own:
                assert f"your own {r.part.label()} on stack {r.stack + 1}" in s.why
                assert str(r.stack + 1) in s.why.split("which breaks", 1)[1]
            assert any(w.startswith(s.card) and "your own" in w for w in plan.warnings)
    assert len(plan.warnings) == sum(s.destroys_own for s in plan.steps)
