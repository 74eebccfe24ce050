"""The Two Robots reducer's variations, Event outcomes and new game (issue 21 items 2, 4 and 6): each case
names the rulebook passage it encodes ("Variations", "Clarifications", "The Event Phase", "Defense Cards",
"Setup") or says where it is Tablebot's reading."""
from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_two_robots_table import NAMES, P, attack, defense, robot, run, setting, stack, turn_of

from solvers.errors import InputError
from solvers.two_robots import table as T
from solvers.two_robots.attacks import best_targets, resolve
from solvers.two_robots.cards import DESTROY, FREEZE, Effect
from solvers.two_robots.factory import Factory, Part, Stack
from solvers.two_robots.game_data import DATA
from solvers.two_robots.variations import check_teams, has_five_stacks, has_uniform_robot, partner

TEAMS = (0, 1, 0, 1)   # seats 1 and 3 against seats 2 and 4


def teams(**kw) -> T.Setting:
    return setting(4, teams=TEAMS, **kw)


def at_event(s: T.Setting, t: dict) -> dict:
    """The table at seat 1's Event phase (turn order by seat: no Salvagers chosen)."""
    t, _ = run(s, t, *[T.NextPhase()] * 3)
    assert turn_of(t) == (0, "event")
    return t


# ---- 2v2 teams (Variations) ------------------------------------------------------------------------

def test_variations_2v2_is_four_players_in_two_teams_of_two():
    """Variations: "with four players, create teams and play 2v2"."""
    assert check_teams(TEAMS, 4) is None
    assert "four players" in check_teams(TEAMS, 3)
    assert "two teams of two" in check_teams((0, 0, 0, 1), 4)
    assert partner(TEAMS, 0) == 2 and partner(TEAMS, 3) == 1 and partner(None, 0) is None
    with pytest.raises(InputError, match="four players"):
        T.reduce(setting(3), {}, {}, T.ChangeSettings(teams=(0, 1, 0)))
    t, _ = T.reduce(setting(4), {}, {}, T.ChangeSettings(teams=TEAMS, uniform_robot=True))
    assert t["teams"] == [0, 1, 0, 1] and t["house_rules"] == {"uniform_robot": True, "five_stacks": False}


def test_variations_2v2_the_team_wins_when_the_other_team_is_all_out():
    """Variations (2v2) with Objective: defeating every enemy Salvager wins, for both partners, even one of
    them out already (a shared win)."""
    s = teams()
    t, _ = run(s, {}, T.NextPhase(), T.Damage(seat=1, amount=3), T.Damage(seat=0, amount=3))
    assert t["winner"] is None  # seat 3 (team 0) and seat 4 (team 1) are still in
    t, _ = run(s, t, T.Damage(seat=3, amount=3))
    assert t["winner"] == {"seats": [0, 2], "how": T.LAST_STANDING, "team": 0}


def test_variations_2v2_a_partner_s_two_robots_win_for_the_team():
    """Objective in 2v2: two Active Robots win, for the builder's team."""
    s = teams()
    t = {"players": [{}, {}, {"stacks": [robot("solar"), stack(*(P(n, "nuclear") for n in NAMES[:3]))]}, {}]}
    t, _ = run(s, t, T.EnterCard(seat=2, where="stack:1", card=P("torso", "nuclear")), hands={2: {}})
    assert t["winner"] == {"seats": [0, 2], "how": T.TWO_ROBOTS, "team": 0}


def test_variations_2v2_an_attack_spares_the_partner_unless_nothing_else_is_legal():
    """Attack Cards (exactly two Part cards, any factory) in 2v2, Tablebot's reading: the partner's parts
    only when the card has no other legal target; the player's own come before the partner's."""
    s = teams()
    code = "attack:1:Nuclear Explosion"
    h = {0: {"hand": [attack("Nuclear Explosion", 1, "nuclear")]}}
    t = {"players": [{"stacks": [stack(P("head", "nuclear"))]}, {"stacks": [stack(P("arms", "nuclear"))]},
                     {"stacks": [stack(P("legs", "nuclear"))]}, {"stacks": [stack(P("head", "solar"))]}]}
    with pytest.raises(InputError, match="partner"):
        run(s, t, T.PlayAttack(seat=0, code=code, targets=(T.Target(seat=1, stack=0, card=0),
                                                           T.Target(seat=2, stack=0, card=0))), hands=h)
    # the best pick takes the enemy's part and the player's own, never the partner's
    t2, _ = run(s, t, T.PlayAttack(seat=0, code=code), hands=h)
    assert t2["players"][2]["stacks"] and not t2["players"][1]["stacks"] and not t2["players"][0]["stacks"]
    # with only one other Nuclear part in play, the partner's is legal (nothing else is)
    t["players"][0]["stacks"] = [stack(P("head", "solar"))]
    t3, _ = run(s, t, T.PlayAttack(seat=0, code=code, targets=(T.Target(seat=1, stack=0, card=0),
                                                               T.Target(seat=2, stack=0, card=0))), hands=h)
    assert not t3["players"][2]["stacks"]


def test_variations_2v2_ice_blast_spares_the_partner_while_an_opponent_stack_is_open():
    """Frozen Stacks (Ice Blast freezes an enemy stack) in 2v2, Tablebot's reading: the partner is no enemy."""
    s = teams()
    h = {0: {"hand": [attack("Ice Blast", 1)]}}
    t = {"players": [{"stacks": [stack(P("head", "solar"))]}, {"stacks": [stack(P("arms", "nuclear"))]},
                     {"stacks": [stack(P("legs", "nuclear"))]}, {"stacks": []}]}
    with pytest.raises(InputError, match="partner"):
        run(s, t, T.PlayAttack(seat=0, code="attack:1:Ice Blast", targets=(T.Target(seat=2, stack=0),)), hands=h)
    t2, _ = run(s, t, T.PlayAttack(seat=0, code="attack:1:Ice Blast"), hands=h)
    assert t2["players"][1]["stacks"][0]["frozen"] is True and not t2["players"][2]["stacks"][0]["frozen"]


def test_attack_answers_spare_the_partner_too():
    """The answers pick targets by the same rule (`attacks.resolve` with the partner spared): no listed
    target set takes the partner's part while two others are legal; and when they are not, the reason says
    the partner is hit only because nothing else is legal."""
    nuc = Part.of("head", ["nuclear"])
    f = [Factory((Stack((nuc,)),)), Factory((Stack((nuc,)),)), Factory((Stack((nuc,)),)), Factory(())]
    answer = resolve(Effect(DESTROY, energy="nuclear", count=2), f, 0, NAMES, spared=(2,))
    assert all(all(r.factory != 2 for r in o.destroyed) for o in answer.options)
    assert "spared" in answer.why
    f[0] = Factory(())
    answer = resolve(Effect(DESTROY, energy="nuclear", count=2), f, 0, NAMES, spared=(2,))
    assert [sorted(r.factory for r in o.destroyed) for o in answer.options] == [[1, 2]]
    assert "nothing else is legal" in answer.why
    freeze = resolve(Effect(FREEZE), f, 0, NAMES, spared=(2,))
    assert [o.frozen.factory for o in freeze.options] == [1]


# ---- the house rules (Variations) ------------------------------------------------------------------

def test_house_rule_a_perfectly_uniform_robot_wins_when_on():
    """Variations, house rule for a perfectly uniform robot (the rulebook's example: the four Part cards of
    the Electrical/Nuclear hybrid). Tablebot's reading of the reward: the win, with the rule on."""
    uniform = stack(*(P(n, "electrical", "nuclear") for n in NAMES[:3]))
    t = {"players": [{"stacks": [uniform]}, {}]}
    card = P("torso", "electrical", "nuclear")
    off, _ = run(setting(2), t, T.EnterCard(seat=0, where="stack:0", card=card), hands={0: {}})
    assert off["winner"] is None
    on, _ = run(setting(2, uniform_robot=True), t, T.EnterCard(seat=0, where="stack:0", card=card), hands={0: {}})
    assert on["winner"] == {"seats": [0], "how": "uniform_robot"}
    mixed = Stack(tuple(Part.of(n, ["electrical", "nuclear"]) for n in NAMES[:3]) + (Part.of("torso", ["nuclear"]),))
    assert not has_uniform_robot(Factory((mixed,)), NAMES)  # an active robot, but not uniform


def test_house_rule_five_stacks_wins_when_on_a_frozen_or_lone_hybrid_stack_counts():
    """Variations, house rule for five Stacks; a lone hybrid is a unique Stack (note in Attack / Defense
    Cards) and a frozen Stack still counts (Frozen Stacks)."""
    four = [stack(P("head", e), frozen=e == "chemical") for e in ("chemical", "electrical", "mechanical")]
    four.append(stack(P("head", "nuclear", "solar")))
    t = {"players": [{"stacks": four}, {}]}
    card = P("arms", "solar")
    off, _ = run(setting(2), t, T.EnterCard(seat=0, where="new", card=card), hands={0: {}})
    assert off["winner"] is None
    on, _ = run(setting(2, five_stacks=True), t, T.EnterCard(seat=0, where="new", card=card), hands={0: {}})
    assert on["winner"] == {"seats": [0], "how": "five_stacks"}
    assert has_five_stacks(Factory.of([[Part.of("head", [e])] for e in ("chemical", "electrical", "mechanical",
                                                                         "nuclear", "solar")]))


# ---- the Event's outcomes (Clarifications) -----------------------------------------------------------

def power_at_event(s: T.Setting, name: str, players: list[dict] | None = None) -> dict:
    t = {"players": players or [{"stacks": [robot("solar")]}, {}, {}]}
    t = at_event(s, t)
    t, _ = run(s, t, T.EventPower(seat=0, sacrifices=(T.PartAt(stack=0, card=0), T.PartAt(stack=0, card=1)),
                                  power=name))
    return t


def test_cold_fusion_reaches_apocalypse_too_and_every_tied_player_suffers_one_damage():
    """Clarifications: Cold Fusion applies to all players, Apocalypse included; in a tie every player in it
    suffers one damage."""
    s = setting(3)
    t = power_at_event(s, "Cold Fusion", [{"stacks": [robot("solar")], "salvager": "apocalypse"}, {}, {}])
    t, _ = run(s, t, T.EventDamage(seats=(0, 2)))
    assert [T.health(s, p) for p in t["players"]] == [2, 3, 2]
    with pytest.raises(InputError, match="already"):
        run(s, t, T.EventDamage(seats=(1,)))


def test_balance_reaches_peacemaker_too_and_another_power_does_not_hit_its_owner():
    """Clarifications: Balance applies to all players, Peacemaker included. Tablebot's reading: only Cold
    Fusion and Balance are said to reach their owner."""
    s = setting(3)
    t = power_at_event(s, "Balance")
    t2, _ = run(s, t, T.EventDamage(seats=(0, 1, 2)))
    assert [T.health(s, p) for p in t2["players"]] == [2, 2, 2]
    t = power_at_event(s, "Shogun")
    with pytest.raises(InputError, match="only Cold Fusion and Balance"):
        run(s, t, T.EventDamage(seats=(0,)))


def test_a_power_cancelled_by_sentry_gunship_is_used_up_and_affects_nobody():
    """The Event Phase (a Power card cancelled by a Sentry Gunship still gets used up and flipped),
    Defense Cards (Sentry Gunship, out of turn, from an opponent) and Clarifications (a cancelled card
    affects none of the players)."""
    s = setting(3)
    t = power_at_event(s, "Cold Fusion", [{"stacks": [robot("solar")]}, {"stacks": [stack(P("head", "nuclear"))]}, {}])
    h = {1: {"hand": [defense("Sentry Gunship", 1)]}}
    with pytest.raises(InputError, match="opponent"):
        run(s, t, T.CancelEvent(seat=0, code="defense:1:Sentry Gunship"), hands={0: h[1]})
    t, h = run(s, t, T.CancelEvent(seat=1, code="defense:1:Sentry Gunship"), hands=h)
    assert t["turn"]["cancelled_by"] == 1 and h[1]["hand"] == [] and t["discard"][-1]["name"] == "Sentry Gunship"
    me = t["players"][0]
    assert me["powers_left"] == 2 and me["used_powers"] == ["Cold Fusion"]
    with pytest.raises(InputError, match="affects none"):
        run(s, t, T.EventDamage(seats=(1, 2)))
    # used up: the same Power card cannot come back in a later turn
    t, _ = run(s, t, *[T.NextPhase()] * 12)
    assert turn_of(t) == (0, "event")
    t["players"][0]["stacks"] = [robot("solar")]
    with pytest.raises(InputError, match="once per game"):
        run(s, t, T.EventPower(seat=0, sacrifices=(T.PartAt(stack=0, card=0), T.PartAt(stack=0, card=1)),
                               power="cold fusion"))


def test_sentry_gunship_of_a_2v2_partner_cancels_nothing():
    """Defense Cards: Sentry Gunship cancels an opponent's Event; in 2v2 the partner is none (Variations)."""
    s = teams()
    t = power_at_event(s, "Balance", [{"stacks": [robot("solar")]}, {}, {"stacks": [stack(P("head", "solar"))]}, {}])
    with pytest.raises(InputError, match="opponent"):
        run(s, t, T.CancelEvent(seat=2, code="defense:1:Sentry Gunship"), hands={2: {"hand": [defense("Sentry Gunship")]}})


def test_scattershot_cancelled_affects_neither_opponent():
    """Clarifications: a cancelled card that affects several players affects none; with Scattershot one
    opponent cannot be chosen instead."""
    s = setting(3, robot_pile=DATA.robot_pile[3])
    t = {"players": [{"stacks": [robot("solar"), stack(P("head", "nuclear"))]}, {"stacks": [stack(P("head", "chemical"))]}, {}]}
    t = at_event(s, t)
    t, _ = run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=1, card=0)), T.Reveal(seat=0, card="scattershot"))
    gunship = {1: {"hand": [defense("Sentry Gunship")]}}
    t2, _ = run(s, t, T.EventDamage(seats=(1, 2), card="scattershot"))
    with pytest.raises(InputError, match="taken effect"):  # too late once its damage is dealt
        run(s, t2, T.CancelEvent(seat=1, code="defense:1:Sentry Gunship"), hands=gunship)
    t, _ = run(s, t, T.CancelEvent(seat=1, code="defense:1:Sentry Gunship"), hands=gunship)
    with pytest.raises(InputError, match="not even one"):
        run(s, t, T.EventDamage(seats=(2,), card="scattershot"))
    with pytest.raises(InputError, match="cancelled"):
        run(s, t, T.Reveal(seat=0, card="shots_fired", via="katana"))


def test_scattershot_that_goes_through_hits_the_players_named():
    """The Event Phase, option B: a card revealed; what it does is on the card (entered words), so the
    table names who suffers the damage; a card not revealed deals none."""
    s = setting(3, robot_pile=DATA.robot_pile[3])
    t = at_event(s, {"players": [{"stacks": [robot("solar"), stack(P("head", "nuclear"))]}, {}, {}]})
    t, _ = run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=1, card=0)), T.Reveal(seat=0, card="scattershot"))
    with pytest.raises(InputError, match="not revealed"):
        run(s, t, T.EventDamage(seats=(1,), card="shots_fired"))
    t, _ = run(s, t, T.EventDamage(seats=(1, 2), card="scattershot"))
    assert [T.health(s, p) for p in t["players"]] == [3, 2, 2]


def test_meltdown_an_empty_hand_may_discard_nothing_and_suffer_no_damage():
    """Clarifications: when Apocalypse activates Meltdown, a player with no cards in hand may discard
    "nothing" and not suffer one damage; a player holding cards discards one or suffers the damage."""
    s = setting(3)
    t = power_at_event(s, "Meltdown", [{"stacks": [robot("solar")], "salvager": "apocalypse"},
                                       {"hand_count": 0}, {"hand_count": 2}])
    t, _ = run(s, t, T.MeltdownReply(seat=1, reply="nothing"))
    assert T.health(s, t["players"][1]) == 3
    with pytest.raises(InputError, match="no cards in hand"):
        run(s, t, T.MeltdownReply(seat=2, reply="nothing"))
    with pytest.raises(InputError, match="already"):
        run(s, t, T.MeltdownReply(seat=1, reply="damage"))
    h = {2: {"hand": [P("head", "solar"), P("arms", "solar")]}}
    t2, h2 = run(s, t, T.MeltdownReply(seat=2, reply="discard", code="arms:s"), hands=h)
    assert h2[2]["hand"] == [P("head", "solar")] and t2["players"][2]["hand_count"] == 1
    t3, _ = run(s, t, T.MeltdownReply(seat=2, reply="damage"))
    assert T.health(s, t3["players"][2]) == 2
    with pytest.raises(InputError, match="answered by each player"):
        run(s, t, T.EventDamage(seats=(2,)))


def test_katana_and_shogun_reveal_without_a_reshuffle_in_between():
    """Clarifications: when Samurai uses Katana or Shogun the Active Robot pile is not reshuffled in between,
    so the 2-player pile (one Weapons Jammed) cannot show Weapons Jammed twice; it is reshuffled after the
    Event Phase (The Event Phase)."""
    s = setting(2, robot_pile=DATA.robot_pile[2])
    t = power_at_event(s, "Shogun", [{"stacks": [robot("solar")], "salvager": "samurai"}, {}])
    t, _ = run(s, t, T.Reveal(seat=0, card="weapons_jammed", via="shogun"))
    with pytest.raises(InputError, match="not reshuffled"):
        run(s, t, T.Reveal(seat=0, card="weapons_jammed", via="shogun"))
    t, _ = run(s, t, T.Reveal(seat=0, card="shots_fired", via="shogun"))
    assert t["turn"]["revealed"] == [["weapons_jammed", "shogun"], ["shots_fired", "shogun"]]
    t, _ = run(s, t, T.NextPhase())
    assert "revealed" not in t["turn"]
    # Katana is Samurai's: another Salvager's reveal through it is refused
    t = at_event(s, {"players": [{"stacks": [robot("solar"), stack(P("head", "nuclear"))], "salvager": "guardian"}, {}]})
    t, _ = run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=1, card=0)), T.Reveal(seat=0, card="shots_fired"))
    with pytest.raises(InputError, match="Samurai"):
        run(s, t, T.Reveal(seat=0, card="shots_fired", via="katana"))


def test_peacemaker_s_orb_needs_an_active_robot_and_the_orb_confirmed():
    """Clarifications (Peacemaker, two Active Robots, one with the Orb: two Active Robot cards). Two robots
    built already win (Objective), so Tablebot reads the Orb as counting for the second robot (reading
    tr-reading-event-outcomes). Checked: Peacemaker's, after option B's card, an Active Robot not frozen
    (factory analysis), the pile not reshuffled. The Orb is no part name by default, so the player confirms
    it (`orb_confirmed`); with a part named Orb every robot carries it. Another Salvager draws one card."""
    s = setting(3, robot_pile=DATA.robot_pile[3])
    one = [{"stacks": [robot("solar"), stack(P("head", "nuclear"))], "salvager": "peacemaker"}, {}, {}]
    t = at_event(s, {"players": one})
    t, _ = run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=1, card=0)), T.Reveal(seat=0, card="scattershot"))
    with pytest.raises(InputError, match="option B reveals one"):
        run(s, t, T.Reveal(seat=0, card="shots_fired"))
    with pytest.raises(InputError, match="which robot carries the Orb") as err:
        run(s, t, T.Reveal(seat=0, card="shots_fired", via="orb"))
    assert err.value.path == "orb_confirmed"
    with pytest.raises(InputError, match="not reshuffled"):  # the 3-player pile holds one Scattershot
        run(s, t, T.Reveal(seat=0, card="scattershot", via="orb", orb_confirmed=True))
    after, _ = run(s, t, T.Reveal(seat=0, card="shots_fired", via="orb", orb_confirmed=True))
    assert [c for c, _ in after["turn"]["revealed"]] == ["scattershot", "shots_fired"]
    turn = {"seat": 0, "phase": "event", "number": 1, "actions_left": 0, "event": "active_robot",
            "revealed": [["scattershot", "option_b"]]}
    # option B's sacrifice may dismantle the robot ("The Event Phase" note): a frozen one is no Active Robot
    frozen = [{"stacks": [stack(*robot("nuclear")["cards"], frozen=True)], "salvager": "peacemaker"}, {}, {}]
    with pytest.raises(InputError, match="needs an Active Robot") as err:
        run(s, {"players": frozen, "turn": turn}, T.Reveal(seat=0, card="shots_fired", via="orb", orb_confirmed=True))
    assert err.value.path == "via"
    orb_named = T.Setting(seats=3, part_names=("head", "arms", "legs", "orb"), turn_order=s.turn_order,
                          robot_pile=DATA.robot_pile[3])
    assert T.orb_is_a_part(orb_named.part_names) and not T.orb_is_a_part(s.part_names)
    orb_robot = [{"stacks": [{"cards": [P(n, "solar") for n in orb_named.part_names]}], "salvager": "peacemaker"},
                 {}, {}]
    after, _ = run(orb_named, {"players": orb_robot, "turn": turn}, T.Reveal(seat=0, card="shots_fired", via="orb"))
    assert len(after["turn"]["revealed"]) == 2
    guardian = [dict(one[0], salvager="guardian"), {}, {}]
    with pytest.raises(InputError, match="Peacemaker"):
        run(s, {"players": guardian, "turn": turn}, T.Reveal(seat=0, card="shots_fired", via="orb", orb_confirmed=True))


def test_space_pod_may_retype_a_stolen_hybrid():
    """Clarifications: a Hybrid Part card stolen with Space Pod may change its Energy type as it enters the
    thief's Factory: a Chemical/Solar hybrid from a Chemical stack goes onto the thief's Solar stack."""
    s = setting(2)
    victim = {"stacks": [stack(P("head", "chemical"), P("arms", "chemical", "solar"))]}
    thief = {"stacks": [stack(P("head", "solar")), stack(P("legs", "chemical"))]}
    h = {0: {"hand": [{"kind": "defense", "name": "Space Pod", "stacks_required": 1, "play": False}]}}
    t, h = run(s, {"players": [thief, victim]}, T.SpacePod(seat=0, code="defense:1:Space Pod",
                                                            target=T.Target(seat=1, stack=0, card=1), stack=0), hands=h)
    assert t["players"][0]["stacks"][0]["cards"][-1] == P("arms", "chemical", "solar")
    assert t["players"][1]["stacks"][0]["cards"] == [P("head", "chemical")]
    assert h[0]["hand"] == [] and t["discard"][-1]["name"] == "Space Pod"
    with pytest.raises(InputError, match="another factory"):
        run(s, {"players": [thief, victim]}, T.SpacePod(seat=0, code="defense:1:Space Pod",
                                                         target=T.Target(seat=0, stack=0, card=0)),
            hands={0: {"hand": [{"kind": "defense", "name": "Space Pod", "stacks_required": 1}]}})


# ---- a new game (Setup) --------------------------------------------------------------------------------

def test_a_new_game_at_the_same_seats_empties_every_hand_and_restores_health():
    """Setup: each player with three Power cards and nothing in hand ("You start with zero in hand", Turn
    Overview); the same seats and Salvagers; turn 1 of the first in turn order."""
    s = setting(3)
    t = {"players": [{"stacks": [robot("solar")], "health": 0, "salvager": "apocalypse", "used_powers": ["Meltdown"]},
                     {"health": 1, "salvager": "samurai"}, {"health": 0}], "discard": [P("head", "solar")],
         "winner": {"seats": [1], "how": T.LAST_STANDING}}
    hands = {k: {"hand": [P("head", "solar")], "drawn": [P("arms", "solar")]} for k in range(3)}
    with pytest.raises(InputError, match="every seat's hand"):
        T.reduce(s, t, {0: hands[0]}, T.NewGame())
    t, hands = T.reduce(s, t, hands, T.NewGame())
    assert all(h["hand"] == [] and h["drawn"] == [] for h in hands.values())
    assert [T.health(s, p) for p in t["players"]] == [3, 3, 3]
    assert [p.get("salvager") for p in t["players"]] == ["apocalypse", "samurai", None]
    assert all(p["stacks"] == [] and p["hand_count"] == 0 and "used_powers" not in p for p in t["players"])
    assert t["discard"] == [] and t["winner"] is None
    assert (t["turn"]["number"], turn_of(t)) == (1, (1, "draw"))  # Samurai (1) before Apocalypse (5)


# ---- the partner spared, against a brute-force oracle ------------------------------------------------

cards = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from([("nuclear",), ("solar",), ("nuclear", "solar")])),
                 max_size=3)


@settings(max_examples=80, deadline=None)
@given(st.lists(cards, min_size=4, max_size=4))
def test_the_partner_is_hit_exactly_when_nothing_else_is_legal(stacks):
    """Attack Cards (exactly two Part cards of the energy, any factory) with Variations (2v2), Tablebot's
    reading, against every pair of cards: a pair is legal when it takes no more of the partner's cards than
    the others leave missing. `resolve` lists exactly those pairs, the best pick is among them, and the
    reducer takes exactly those."""
    factories = [Factory(tuple(Stack((Part.of(p, e),)) for p, e in seat)) for seat in stacks]
    refs = [(k, i) for k, seat in enumerate(stacks) for i, (_, e) in enumerate(seat) if "nuclear" in e]
    others = sum(k != 2 for k, _ in refs)
    legal = {pair for pair in combinations(refs, 2) if sum(k == 2 for k, _ in pair) <= max(0, 2 - others)}
    effect = Effect(DESTROY, energy="nuclear", count=2)
    answer = resolve(effect, factories, 0, NAMES, spared=(2,))
    listed = {tuple(sorted((r.factory, r.stack) for r in o.destroyed)) for o in answer.options}
    assert listed == legal
    best = best_targets(effect, factories, 0, NAMES, spared=(2,))
    assert {tuple(sorted((r.factory, r.stack) for r in b)) for _, b in best} <= legal
    s = teams()
    t = {"players": [{"stacks": [stack(P(p, *e)) for p, e in seat]} for seat in stacks]}
    code = "attack:0:Nuclear Explosion"
    for pair in combinations(refs, 2):
        h = {0: {"hand": [attack("Nuclear Explosion", 0, "nuclear")]}}
        targets = tuple(T.Target(seat=k, stack=i, card=0) for k, i in pair)
        try:
            T.reduce(s, t, h, T.PlayAttack(seat=0, code=code, targets=targets))
            took = True
        except InputError:
            took = False
        assert took == (pair in legal)
