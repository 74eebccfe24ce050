"""Two Robots Attack cards on the whole table: each test names the rulebook passage it encodes
("Attack Cards", "Frozen Stacks" and its Alyssa example, "Defense Cards")."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.two_robots.attacks import best_options, energy_parts, resolve, verdict
from solvers.two_robots.cards import CANCEL_EVENT, COUNTER_ATTACK, DESTROY, FREEZE, UNKNOWN, Effect, HandCard, effect_of
from solvers.two_robots.factory import Factory, Part, Stack, analyse

PN = ("head", "arms", "legs", "torso")
NUKE = Effect(DESTROY, energy="nuclear", count=2)
ICE = Effect(FREEZE)


def P(part: str, *energies: str) -> Part:
    return Part.of(part, energies)


def robot(energy: str) -> tuple[Part, ...]:
    return tuple(P(p, energy) for p in PN)


def test_rulebook_cards_are_known_by_name_and_others_are_yours_to_resolve():
    """Attack Cards / Frozen Stacks / Defense Cards: Nuclear Explosion destroys two Nuclear parts, Ice
    Blast freezes, Homing Missiles and Sentry Gunship answer out of turn; an entered energy makes a
    destroy card; any other card's effect is unknown."""
    assert effect_of(HandCard("attack", name="nuclear  explosion")) == Effect(DESTROY, "nuclear", 2, "rulebook")
    assert effect_of(HandCard("attack", name="Ice Blast")).kind == FREEZE
    assert effect_of(HandCard("defense", name="Homing Missiles")).kind == COUNTER_ATTACK
    assert effect_of(HandCard("defense", name="Sentry Gunship")).kind == CANCEL_EVENT
    assert effect_of(HandCard("attack", name="Solar Flare", energy="solar")) == Effect(DESTROY, "solar", 2, "entered")
    assert effect_of(HandCard("attack", name="Space Pod")).kind == UNKNOWN
    assert effect_of(HandCard("defense", name="Nuclear Explosion")).kind == UNKNOWN  # not the card the rules name


def test_exactly_two_parts_are_destroyed_every_legal_pair_listed():
    """Attack Cards: an energy Attack card destroys exactly two Part cards, no more, no fewer: every
    legal target set is a pair of different Nuclear cards, and all C(5, 2) pairs are listed."""
    me = Factory.of([[P("head", "nuclear")], [P("arms", "chemical")]])
    ben = Factory.of([[P("head", "nuclear"), P("arms", "nuclear"), P("legs", "nuclear")]])
    cy = Factory.of([[P("torso", "nuclear", "solar")]])
    answer = resolve(NUKE, (me, ben, cy), 0, PN, ["you", "Ben", "Cy"])
    assert answer.playable and len(answer.options) == 10
    assert all(len(o.destroyed) == 2 and len({(r.factory, r.stack, r.card) for r in o.destroyed}) == 2
               for o in answer.options)
    assert sum(len(s.cards) for f in answer.options[0].after for s in f.stacks) == 6 - 2


def test_fewer_than_two_matching_parts_cannot_be_played():
    """Attack Cards ("must destroy exactly two"): with one Nuclear part in play it cannot destroy two,
    so it is not played (Tablebot's reading, said so)."""
    answer = resolve(NUKE, (Factory.of([[P("head", "nuclear")]]), Factory.of([[P("arms", "solar")]])), 0, PN)
    assert not answer.playable and answer.options == ()
    assert "Only 1 Nuclear part" in answer.why and "Tablebot's reading" in answer.why


def test_hybrids_are_hit_on_either_energy():
    """Attack Cards: a hybrid only needs one matching energy, whichever it is."""
    f = Factory.of([[P("head", "nuclear", "solar")], [P("arms", "chemical")], [P("legs", "electrical", "nuclear")]])
    refs = energy_parts((f,), "nuclear")
    assert [(r.stack, r.part.part) for r in refs] == [(0, "head"), (2, "legs")]
    assert [(r.stack, r.part.part) for r in energy_parts((f,), "solar")] == [(0, "head")]
    assert energy_parts((f,), "mechanical") == []


def test_alyssa_example_frozen_stack_still_vulnerable_own_head_goes_too():
    """Frozen Stacks, Alyssa example: the opponent's Nuclear stack holds one part; Alyssa's own
    Nuclear stack is frozen. Nuclear Explosion must take exactly two Nuclear parts and those are the
    only two, so it destroys the opponent's lone part and her own frozen Nuclear HEAD; the answer says
    so plainly, and that her own stack breaks (here: it is gone)."""
    alyssa = Factory((Stack((P("head", "nuclear"),), frozen=True),
                      Stack((P("arms", "chemical"), P("legs", "chemical"))),
                      Stack((P("head", "solar", "electrical"),))))
    opponent = Factory.of([[P("torso", "nuclear")], [P("head", "mechanical")]])
    answer = resolve(NUKE, (alyssa, opponent), 0, PN, ["Alyssa", "Ben"])
    assert answer.playable and len(answer.options) == 1 and answer.best == (0,)
    hit = answer.options[0].destroyed
    assert {(r.factory, r.stack, r.part.part) for r in hit} == {(0, 0, "head"), (1, 0, "torso")}
    assert answer.own_hit and answer.options[0].own_lost == 1
    assert "your own HEAD (Nuclear) on stack 1" in answer.why and "your stack 1 is gone" in answer.why
    after_alyssa, after_ben = answer.options[0].after
    assert analyse(after_alyssa, PN).unique_stacks == 2 and analyse(after_ben, PN).unique_stacks == 1


def test_never_your_own_parts_when_the_opponents_have_two():
    """Attack Cards: the parts may be in any Factory, yours too; Tablebot never picks yours while two
    of the opponents' are there to take, even when yours are closer to hand."""
    me = Factory.of([[P("head", "nuclear"), P("arms", "nuclear")]])
    ben = Factory.of([[P("legs", "nuclear")], [P("torso", "solar", "nuclear")]])
    answer = resolve(NUKE, (me, ben), 0, PN, ["you", "Ben"])
    assert len(answer.options) == 6 and not answer.own_hit
    assert all(r.factory == 1 for i in answer.best for r in answer.options[i].destroyed)
    assert "None of your own parts is taken" in answer.why


def test_best_breaks_the_nearest_opponents_robot():
    """Attack Cards: Ben has a Nuclear robot and a stack one part short (1 part from the win); Cy has
    a stack of two Nuclear parts (far from it). Taking two of Ben's robot's parts sets the nearest
    opponent back most; a spare copy is not worth a destroy."""
    ben = Factory((Stack(robot("nuclear") + (P("head", "nuclear"),)),
                   Stack((P("head", "solar"), P("arms", "solar"), P("legs", "solar")))))
    cy = Factory.of([[P("head", "nuclear", "chemical"), P("arms", "nuclear")]])
    me = Factory.of([[P("head", "chemical")]])
    answer = resolve(NUKE, (me, ben, cy), 0, PN, ["you", "Ben", "Cy"])
    best = [answer.options[i] for i in answer.best]
    for o in best:
        assert {r.factory for r in o.destroyed} == {1} and {r.part.part for r in o.destroyed} <= set(PN)
        assert len({r.part.part for r in o.destroyed}) == 2  # two different parts of the robot, not the spare
    assert "the robot on Ben's stack 1 is broken" in answer.why
    assert "Ben then needs 3 parts for two robots, not 1" in answer.why


def test_ice_blast_freezes_the_enemy_stack_nearest_a_robot():
    """Frozen Stacks: Ice Blast freezes an enemy Stack (Tablebot's reading: one), never yours and not
    one already frozen; freezing the stack one part short stops Ben finishing it, which sets him back
    more than freezing his lone HEAD."""
    me = Factory.of([[P("head", "chemical")]])
    ben = Factory((Stack((P("head", "solar"), P("arms", "solar"), P("legs", "solar"))),
                   Stack((P("head", "mechanical"),)), Stack((P("arms", "nuclear"),), frozen=True)))
    answer = resolve(ICE, (me, ben), 0, PN, ["you", "Ben"])
    assert [(o.frozen.factory, o.frozen.stack) for o in answer.options] == [(1, 0), (1, 1)]
    assert answer.best == (0,) and "Freeze Ben's stack 1" in answer.why
    assert answer.options[0].after[1].stacks[0].frozen
    assert not resolve(ICE, (me, Factory(())), 0, PN).playable


# ---- the fast best against every listed target set -------------------------------------------------------

ENERGY = ("chemical", "nuclear", "solar")


@st.composite
def tables(draw):
    def factory():
        stacks = []
        for e in draw(st.lists(st.sampled_from(ENERGY), max_size=2, unique=True)):
            cards = []
            for name in draw(st.lists(st.sampled_from(PN), min_size=1, max_size=4)):
                other = draw(st.sampled_from((None,) + ENERGY))
                cards.append(P(name, e) if other in (None, e) else P(name, e, other))
            stacks.append(Stack(tuple(cards), draw(st.integers(0, 3)) == 0))
        return Factory(tuple(stacks))
    return tuple(factory() for _ in range(draw(st.integers(1, 3)))), draw(st.sampled_from(ENERGY))


@settings(max_examples=60, deadline=None)
@given(tables(), st.integers(0, 2))
def test_best_options_match_the_best_of_every_target_set(table, player):
    """Attack Cards: the planner's shortcut (skip sets with your own parts while the opponents have
    enough) finds exactly the best of all legal target sets, ties included (up to equal cards)."""
    factories, energy = table
    player = player % len(factories)
    for effect in (Effect(DESTROY, energy=energy, count=2), ICE):
        full = resolve(effect, factories, player, PN)
        fast = best_options(effect, factories, player, PN)
        if not full.playable:
            assert fast == ()
            continue
        top = {tuple(f.key() for f in full.options[i].after) for i in full.best}
        assert {tuple(f.key() for f in o.after) for o in fast} == top
        assert all(o.value == full.options[full.best[0]].value for o in fast)


@settings(max_examples=60, deadline=None)
@given(tables(), st.integers(0, 2), st.integers(1, 3))
def test_verdict_says_what_the_full_answer_says(table, player, count):
    """Attack Cards ("exactly two", copies of a card counted apart): the plan's short answer for a kept
    card (playable, own parts hit, why, with the number of equally good choices) is the full answer's."""
    factories, energy = table
    player = player % len(factories)
    labels = ["you", "Ben", "Cy"][:len(factories)]
    for effect in (Effect(DESTROY, energy=energy, count=count), ICE):
        full = resolve(effect, factories, player, PN, labels)
        short = verdict(effect, factories, player, PN, labels)
        assert (short.playable, short.own_hit, short.why) == (full.playable, full.own_hit, full.why)
