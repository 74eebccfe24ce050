"""The Two Robots table reducer (solvers/two_robots/table.py): each case names the rulebook section it
encodes (or "Tablebot's reading" where the rulebook is silent)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.two_robots import table as T
from solvers.two_robots.game_data import DATA

NAMES = DATA.part_ids  # head, arms, legs, torso
ORDER = {sv.id: sv.turn_order for sv in DATA.salvagers}


def setting(seats: int = 3, **kw) -> T.Setting:
    return T.Setting(seats=seats, part_names=NAMES, turn_order=kw.pop("turn_order", ORDER), **kw)


def P(part: str, *energies: str) -> dict:
    return {"kind": "part", "part": part, "energies": list(energies)}


def attack(name: str, gold: int = 1, energy: str | None = None) -> dict:
    out = {"kind": "attack", "name": name, "stacks_required": gold, "play": False}
    return out | ({"energy": energy, "destroy": 2} if energy else {})


def defense(name: str, gold: int = 1) -> dict:
    return {"kind": "defense", "name": name, "stacks_required": gold, "play": False}


def stack(*cards: dict, frozen: bool = False) -> dict:
    return {"cards": list(cards), "frozen": frozen}


def robot(energy: str) -> dict:
    return stack(*(P(n, energy) for n in NAMES))


def run(s: T.Setting, table: dict, *actions, hands: dict | None = None) -> tuple[dict, dict]:
    hands = hands if hands is not None else {}
    for a in actions:
        table, hands = T.reduce(s, table, hands, a)
    return table, hands


def turn_of(table: dict) -> tuple[int, str]:
    return table["turn"]["seat"], table["turn"]["phase"]


# ---- cards -------------------------------------------------------------------------------------------

def test_stacking_part_cards_liz_a_chemical_solar_hybrid_alone_becomes_solar_next_to_a_chemical_stack():
    """Stacking Part Cards, Liz example: a Chemical stack (Chemical on a Chemical/Solar hybrid); a new stack
    started with another Chemical/Solar card is a Solar stack, so a Chemical card may not go on it."""
    s = setting()
    t = {"players": [{"stacks": [stack(P("head", "chemical", "solar"), P("arms", "chemical"))]}]}
    hands = {0: {"hand": [P("legs", "chemical", "solar"), P("torso", "chemical")]}}
    t, hands = run(s, t, T.PlayCard(seat=0, code="legs:cs", stack=None), hands=hands)
    assert [c["part"] for c in t["players"][0]["stacks"][1]["cards"]] == ["legs"]
    with pytest.raises(InputError) as err:
        run(s, t, T.PlayCard(seat=0, code="torso:c", stack=1), hands=hands)
    assert err.value.path == "stack"
    assert t["players"][0]["hand_count"] == 1  # public: the size only ("Clarifications")


def test_frozen_stacks_take_no_new_parts():
    """Frozen Stacks: a frozen stack takes no Part cards."""
    t = {"players": [{"stacks": [stack(P("head", "nuclear"), frozen=True)]}]}
    with pytest.raises(InputError, match="frozen"):
        run(setting(), t, T.EnterCard(seat=0, where="stack:0", card=P("arms", "nuclear")), hands={0: {}})


def test_a_hand_changes_only_with_its_seat_s_private_state():
    """Clarifications (only a hand's size is public): an action on a hand needs that seat's private state."""
    with pytest.raises(InputError) as err:
        run(setting(), {}, T.EnterCard(seat=1, where="hand", card=P("head", "solar")), hands={0: {}})
    assert err.value.path == "seat"


def test_the_third_card_of_a_draw_puts_the_draw_in_the_hand():
    """Turn Overview, Draw Phase: three cards from the Action deck."""
    s = setting()
    t, h = run(s, {}, *[T.EnterCard(seat=0, where="drawn", card=P(n, "solar")) for n in NAMES[:2]], hands={0: {}})
    assert (len(h[0]["hand"]), len(h[0]["drawn"]), t["players"][0]["hand_count"]) == (0, 2, 2)
    t, h = run(s, t, T.EnterCard(seat=0, where="drawn", card=P("legs", "solar")), hands=h)
    assert (len(h[0]["hand"]), len(h[0]["drawn"])) == (3, 0)


def test_attack_defense_cards_need_their_gold_number_of_stacks_and_go_to_the_discard_pile():
    """Attack / Defense Cards: playable with at least the gold number of unique stacks; then discarded."""
    s = setting()
    t = {"players": [{"stacks": [stack(P("head", "solar"))]}]}
    h = {0: {"hand": [defense("Homing Missiles", 2)]}}
    with pytest.raises(InputError, match="2 unique stacks"):
        run(s, t, T.PlayCard(seat=0, code="defense:2:Homing Missiles"), hands=h)
    t["players"][0]["stacks"].append(stack(P("head", "nuclear")))
    t, h = run(s, t, T.PlayCard(seat=0, code="defense:2:Homing Missiles"), hands=h)
    assert t["discard"][-1]["name"] == "Homing Missiles" and h[0]["hand"] == []


def test_attack_cards_alyssa_nuclear_explosion_takes_exactly_two_nuclear_parts_her_own_included():
    """Frozen Stacks, Alyssa example: Nuclear Explosion destroys the opponent's lone Nuclear part and her
    own Nuclear HEAD from her frozen stack (Attack Cards: exactly two, any factory, frozen ones too)."""
    s = setting(2)
    alyssa = {"stacks": [stack(P("head", "nuclear"), frozen=True), stack(P("arms", "solar")), stack(P("legs", "chemical"))]}
    t = {"players": [alyssa, {"stacks": [stack(P("arms", "nuclear"))]}]}
    h = {0: {"hand": [attack("Nuclear Explosion", 3, "nuclear")]}}
    code = "attack:3:Nuclear Explosion"
    with pytest.raises(InputError, match="exactly 2"):
        run(s, t, T.PlayAttack(seat=0, code=code, targets=(T.Target(seat=1, stack=0, card=0),)), hands=h)
    with pytest.raises(InputError, match="Nuclear"):  # a Solar part is not a Nuclear Explosion's target
        run(s, t, T.PlayAttack(seat=0, code=code, targets=(T.Target(seat=1, stack=0, card=0),
                                                           T.Target(seat=0, stack=1, card=0))), hands=h)
    t, h = run(s, t, T.PlayAttack(seat=0, code=code, targets=(T.Target(seat=1, stack=0, card=0),
                                                               T.Target(seat=0, stack=0, card=0))), hands=h)
    assert t["players"][1]["stacks"] == [] and len(t["players"][0]["stacks"]) == 2
    assert [c.get("name") or c["part"] for c in t["discard"]] == ["arms", "head", "Nuclear Explosion"]


def test_ice_blast_freezes_one_enemy_stack_not_your_own():
    """Frozen Stacks: Ice Blast freezes an enemy stack (Tablebot's reading: one stack per card)."""
    s = setting(2)
    t = {"players": [{"stacks": [stack(P("head", "solar"))]}, {"stacks": [stack(P("head", "nuclear"))]}]}
    h = {0: {"hand": [attack("Ice Blast", 1)]}}
    with pytest.raises(InputError, match="enemy"):
        run(s, t, T.PlayAttack(seat=0, code="attack:1:Ice Blast", targets=(T.Target(seat=0, stack=0),)), hands=h)
    t, _ = run(s, t, T.PlayAttack(seat=0, code="attack:1:Ice Blast", targets=(T.Target(seat=1, stack=0),)), hands=h)
    assert t["players"][1]["stacks"][0]["frozen"] is True


# ---- turns -------------------------------------------------------------------------------------------

def test_turn_order_smaller_salvager_number_first_scavenger_before_apocalypse():
    """Turn Order example: with Scavenger and Apocalypse, Scavenger goes first (whatever the seats)."""
    s = setting(2)
    t = {"players": [{"salvager": "apocalypse"}, {"salvager": "scavenger"}]}
    t, _ = run(s, t, T.NextPhase())
    assert turn_of(t) == (1, "draw")
    assert T.turn_order(s, t) == [1, 0]
    edited = setting(2, turn_order={**ORDER, "apocalypse": 0})  # the table's numbers, edited
    assert T.turn_order(edited, t) == [0, 1]


def test_turn_overview_four_phases_then_the_next_salvager():
    """Turn Overview: Draw, Play, Event, Cleanup; then the next Salvager in turn order draws."""
    s = setting(3)
    t, _ = run(s, {}, T.NextPhase())
    phases = [turn_of(t)]
    for _ in range(4):
        t, _ = run(s, t, T.NextPhase())
        phases.append(turn_of(t))
    assert phases == [(0, "draw"), (0, "play"), (0, "event"), (0, "cleanup"), (1, "draw")]
    assert t["turn"]["number"] == 2


def test_play_phase_counts_three_actions_and_only_the_turn_s_salvager_plays():
    """Turn Overview / How to Build a Robot: up to three Action cards in the Play phase, each an action."""
    s = setting(2)
    t, _ = run(s, {}, T.NextPhase())
    h = {0: {"hand": [P(n, "solar") for n in NAMES]}, 1: {"hand": [P("head", "nuclear")]}}
    with pytest.raises(InputError, match="Play phase"):  # still the Draw phase
        run(s, t, T.PlayCard(seat=0, code="head:s"), hands=h)
    t, _ = run(s, t, T.NextPhase())
    with pytest.raises(InputError, match="seat 1's turn"):
        run(s, t, T.PlayCard(seat=1, code="head:n"), hands=h)
    t, h = run(s, t, T.PlayCard(seat=0, code="head:s"), T.PlayCard(seat=0, code="arms:s", stack=0),
               T.PlayCard(seat=0, code="legs:s", stack=0), hands=h)
    assert t["turn"]["actions_left"] == 0 and t["players"][0]["actions"] == 0
    with pytest.raises(InputError, match="all 3 actions"):
        run(s, t, T.PlayCard(seat=0, code="torso:s", stack=0), hands=h)


def test_homing_missiles_out_of_turn_costs_no_action_of_the_turn_s_salvager():
    """Defense Cards: Homing Missiles may be played out of turn; it counts as an action only for the
    player whose turn it is."""
    s = setting(2)
    t = {"players": [{"stacks": []}, {"stacks": [stack(P("head", "solar"))]}]}
    t, _ = run(s, t, T.NextPhase(), T.NextPhase())
    h = {1: {"hand": [defense("Homing Missiles", 1)]}}
    t, h = run(s, t, T.PlayCard(seat=1, code="defense:1:Homing Missiles"), hands=h)
    assert t["turn"]["actions_left"] == 3 and t["discard"][-1]["name"] == "Homing Missiles"


def test_event_phase_a_sacrifices_two_parts_and_flips_a_power_card_once_per_turn():
    """The Event Phase, option A: two parts from anywhere in the factory (a robot too: note), one Power card
    used and flipped; health unchanged (note: a flipped Power still counts)."""
    s = setting(2)
    t = {"players": [{"stacks": [robot("solar"), stack(P("head", "nuclear"), frozen=True)]}]}
    t, _ = run(s, t, *[T.NextPhase()] * 3)
    assert turn_of(t) == (0, "event")
    with pytest.raises(InputError, match="frozen"):
        run(s, t, T.EventPower(seat=0, sacrifices=(T.PartAt(stack=0, card=0), T.PartAt(stack=1, card=0))))
    with pytest.raises(InputError, match="sacrifice 2"):
        run(s, t, T.EventPower(seat=0, sacrifices=(T.PartAt(stack=0, card=0),)))
    t, _ = run(s, t, T.EventPower(seat=0, sacrifices=(T.PartAt(stack=0, card=0), T.PartAt(stack=0, card=3))))
    me = t["players"][0]
    assert me["powers_left"] == 2 and T.health(s, me) == 3 and len(me["stacks"][0]["cards"]) == 2
    assert t["turn"]["event"] == "power" and len(t["discard"]) == 2
    with pytest.raises(InputError, match="one Event"):
        run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=0, card=0)))


def test_event_phase_b_needs_an_active_robot_that_is_not_frozen():
    """The Event Phase, option B: with an Active Robot in the factory, one part sacrificed; a frozen robot
    cannot be deployed (Frozen Stacks)."""
    s = setting(2)
    t = {"players": [{"stacks": [stack(*robot("solar")["cards"], frozen=True), stack(P("head", "nuclear"))]}]}
    t, _ = run(s, t, *[T.NextPhase()] * 3)
    with pytest.raises(InputError, match="Active Robot"):
        run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=1, card=0)))
    t["players"][0]["stacks"][0]["frozen"] = False
    t, _ = run(s, t, T.EventRobot(seat=0, sacrifice=T.PartAt(stack=1, card=0)))
    assert t["turn"]["event"] == "active_robot" and len(t["players"][0]["stacks"]) == 1


def test_cleanup_phase_ends_only_at_the_hand_limit_of_seven():
    """Cleanup Phase: discard down to seven cards."""
    s = setting(2)
    h = {0: {"hand": [P("head", "solar")] * 8}}
    t, h = run(s, {}, T.Discard(seat=0, code="head:s"), hands=h)  # hand_count follows the hand
    t["players"][0]["hand_count"] = 8
    t, _ = run(s, t, *[T.NextPhase()] * 4)
    with pytest.raises(InputError, match="discard down to 7"):
        run(s, t, T.NextPhase())
    t, h = run(s, t, T.Discard(seat=0, code="head:s"), hands={0: {"hand": [P("head", "solar")] * 8}})
    t, _ = run(s, t, T.NextPhase())
    assert turn_of(t) == (1, "draw")


# ---- health and the winner ------------------------------------------------------------------------

def test_damage_removes_a_power_card_and_at_zero_the_salvager_is_out_and_skipped():
    """Note in The Event Phase: each damage removes one Power card (flipped ones count as health);
    Objective: a Salvager without health is defeated. Their turns are skipped."""
    s = setting(3)
    t, _ = run(s, {}, T.NextPhase(), T.Damage(seat=1, amount=2))
    assert T.health(s, t["players"][1]) == 1 and t["winner"] is None
    t, _ = run(s, t, T.Damage(seat=1))
    assert T.health(s, t["players"][1]) == 0 and T.alive(s, t) == [0, 2]
    t, _ = run(s, t, *[T.NextPhase()] * 4)
    assert turn_of(t) == (2, "draw")
    with pytest.raises(InputError, match="out of the game"):
        run(s, t, T.Damage(seat=1))


def test_damage_takes_a_flipped_power_card_first():
    """Tablebot's reading of the note in The Event Phase: the Power card removed by damage is a flipped one
    when there is one, so unused Power cards never outnumber health."""
    s = setting(2)
    t = {"players": [{"powers_left": 2}, {}]}
    t, _ = run(s, t, T.Damage(seat=0))
    assert (t["players"][0]["health"], t["players"][0]["powers_left"]) == (2, 2)
    t, _ = run(s, t, T.Damage(seat=0))
    assert (t["players"][0]["health"], t["players"][0]["powers_left"]) == (1, 1)


def test_the_turn_s_salvager_defeated_passes_the_turn_on():
    """Objective: a defeated Salvager plays no more; the next one in turn order draws."""
    s = setting(3)
    t, _ = run(s, {}, T.NextPhase(), T.NextPhase(), T.Damage(seat=0, amount=3))
    assert turn_of(t) == (1, "draw")


def test_last_salvager_standing_wins_and_the_game_is_over():
    """Objective: defeat every other Salvager in battle and Rennova is yours."""
    s = setting(3)
    t, _ = run(s, {}, T.NextPhase(), T.Damage(seat=1, amount=3), T.Damage(seat=2, amount=5))
    assert t["winner"] == {"seats": [0], "how": T.LAST_STANDING}
    with pytest.raises(InputError, match="game is over"):
        run(s, t, T.NextPhase())


def test_two_robots_win_frozen_ones_count():
    """Objective and Frozen Stacks: two Active Robots win, a frozen one counts towards them."""
    s = setting(2)
    t = {"players": [{"stacks": [stack(*robot("solar")["cards"], frozen=True),
                                 stack(*(P(n, "nuclear") for n in NAMES[:3]))]}, {}]}
    t, _ = run(s, t, T.EnterCard(seat=0, where="stack:1", card=P("torso", "nuclear")), hands={0: {}})
    assert t["winner"] == {"seats": [0], "how": T.TWO_ROBOTS}


def test_a_defeated_seat_with_two_robots_does_not_win():
    """Objective: a defeated Salvager is out; their factory wins nothing."""
    s = setting(3)
    t = {"players": [{"stacks": [robot("solar"), robot("nuclear")], "health": 0}, {}, {}]}
    t, _ = run(s, t, T.Damage(seat=1))
    assert t["winner"] is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.just("next"), st.integers(0, 3)), max_size=40))
def test_turns_never_land_on_a_defeated_salvager_and_the_winner_is_the_last_one_left(steps):
    """Turn Order and Objective, against a brute-force oracle: whatever the order of phases and damage,
    the turn is always a seat still in the game, it moves in turn order, and a winner by last standing
    is exactly the one seat left."""
    s = setting(4)
    t, _ = run(s, {"players": [{"salvager": "apocalypse"}, {"salvager": "samurai"}, {}, {"salvager": "guardian"}]},
               T.NextPhase())
    order = [1, 3, 0, 2]  # Samurai 1, Guardian 4, Apocalypse 5, then the seat without a Salvager
    for step in steps:
        before = t
        try:
            t, _ = run(s, t, T.NextPhase() if step == "next" else T.Damage(seat=step))
        except InputError:
            continue
        standing = [k for k in range(4) if T.health(s, t["players"][k] if k < len(t["players"]) else {}) > 0]
        if len(standing) == 1:
            assert t["winner"] == {"seats": standing, "how": T.LAST_STANDING}
            continue
        seat = t["turn"]["seat"]
        assert seat in standing
        if step == "next" and before["turn"]["phase"] == "cleanup":
            prev = before["turn"]["seat"]
            expected = next(order[(order.index(prev) + i) % 4] for i in range(1, 5) if order[(order.index(prev) + i) % 4] in standing)
            assert seat == expected


def test_nuclear_explosion_by_name_alone_destroys_nuclear_parts_and_an_unknown_card_is_resolved_by_hand():
    """Frozen Stacks, Alyssa example: Nuclear Explosion is known by its name (it destroys Nuclear parts);
    an Attack card whose effect Tablebot does not know is not played on the table by it."""
    s = setting(2)
    t = {"players": [{"stacks": [stack(P("head", "nuclear"), frozen=True)]}, {"stacks": [stack(P("torso", "nuclear"))]}]}
    h = {0: {"hand": [attack("Nuclear Explosion", 1), attack("Mystery Beam", 1)]}}
    both = (T.Target(seat=0, stack=0, card=0), T.Target(seat=1, stack=0, card=0))
    with pytest.raises(InputError, match="does not know"):
        run(s, t, T.PlayAttack(seat=0, code="attack:1:Mystery Beam", targets=both), hands=h)
    t, h = run(s, t, T.PlayAttack(seat=0, code="attack:1:Nuclear Explosion", targets=both), hands=h)
    assert t["players"][0]["stacks"] == [] and t["players"][1]["stacks"] == []
    assert [c["name"] for c in h[0]["hand"]] == ["Mystery Beam"]


def test_a_tap_on_the_turn_or_health_a_phone_showed_applies_once():
    """Tablebot's reading: two phones tapping "Next phase" (or a damage) on the same turn move the game once."""
    s = setting(2)
    t, _ = run(s, {}, T.NextPhase(seen="start"))
    with pytest.raises(T.Moved):
        run(s, t, T.NextPhase(seen="start"))
    t, _ = run(s, t, T.NextPhase(seen=T.turn_key(t)), T.Damage(seat=1, seen=3))
    assert turn_of(t) == (0, "play") and T.health(s, t["players"][1]) == 2
    with pytest.raises(T.Moved):
        run(s, t, T.Damage(seat=1, seen=3))


def test_the_simpler_game_has_no_event_phase_no_health_and_two_robots_is_the_only_win():
    """Variations: the simpler game plays without Special Abilities or Power cards, with the Action deck only:
    no Event (nothing to trigger one), no health to lose, so the win is two robots."""
    s = setting(2, simple=True)
    t, _ = run(s, {}, T.NextPhase(), T.NextPhase(), T.NextPhase())
    assert turn_of(t) == (0, "cleanup")
    with pytest.raises(InputError, match="no Power cards"):
        run(s, t, T.Damage(seat=1))
    with pytest.raises(InputError, match="no Event"):
        run(s, {"players": [{"stacks": [robot("solar")]}]}, T.EventPower(seat=0, sacrifices=(
            T.PartAt(stack=0, card=0), T.PartAt(stack=0, card=1))))
    t = {"players": [{"health": 0}, {"health": 0}]}  # health left over from a standard game counts for nothing
    t, _ = run(s, t, T.NextPhase())
    assert t["winner"] is None and turn_of(t) == (0, "draw")
    t["players"][1]["stacks"] = [robot("solar"), stack(*(P(n, "nuclear") for n in NAMES[:3]))]
    t, _ = run(s, t, T.EnterCard(seat=1, where="stack:1", card=P("torso", "nuclear")), hands={1: {}})
    assert t["winner"] == {"seats": [1], "how": T.TWO_ROBOTS}


def test_every_salvager_at_zero_at_once_is_nobody_standing_no_winner_no_turn():
    """Clarifications (Cold Fusion and Balance damage their own player too, every tied player takes one)
    with Objective: both last Salvagers at 0 together; the rulebook names no winner, Tablebot reads nobody
    wins (tr-reading-nobody-standing). One still at 1 is the last standing; the simpler game has no health."""
    s = setting(2)
    both_out = {"players": [{"health": 0}, {"health": 0}]}
    assert T.nobody_standing(s, both_out) and T.decided(s, both_out) is None
    assert not T.nobody_standing(s, {"players": [{"health": 0}, {"health": 1}]})
    assert not T.nobody_standing(setting(2, simple=True), both_out)
