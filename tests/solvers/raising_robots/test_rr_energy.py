"""Raising Robots: the phases a seat performs and their Total Energy (solver). Each case names the player-aid
rule it encodes (facts/raising_robots.md section 1, from the public player aid S1): "Phase Rules" (a phase is
performed if its Phase Card was assigned or a cube lies on it; board order), "Total Energy" (card value,
+1 per cube, x2 with the card's multiplier, +1 per battery, + unlocked bonuses; batteries and bonuses never
open a phase), the 2-player dummy and the break; William from the Friends Inventor Explanations."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.raising_robots.abilities import Who
from solvers.raising_robots.energy import PHASES, EnergyCard, round_phases
from solvers.raising_robots.rounds import board_cubes, dummy_cubes, round_facts


def by_phase(result):
    return {p.phase: p for p in result.phases}


def test_phase_rules_assigned_phases_are_performed_in_board_order():
    """Phase Rules: you perform the two phases you assigned, at least 2; always Upgrade -> Recycle."""
    r = round_phases([EnergyCard("design", 5), EnergyCard("upgrade", 3)])
    assert [p.phase for p in r.phases] == ["upgrade", "assemble", "design", "fabricate", "recycle"]
    assert r.performed() == ("upgrade", "design")
    assert by_phase(r)["design"].total == 5 and by_phase(r)["upgrade"].total == 3


def test_phase_rules_a_cube_on_a_phase_opens_it_whoever_put_it_there():
    """Phase Rules: a cube on a phase's board space lets every seat perform it, +1 energy per cube."""
    r = round_phases([EnergyCard("design", 5), EnergyCard("upgrade", 3)], {"recycle": 2})
    rec = by_phase(r)["recycle"]
    assert rec.performed and rec.total == 2 and rec.card == 0
    assert "Not assigned" in rec.why and "2 cubes lie on Recycle" in rec.why


def test_total_energy_card_plus_cubes():
    """Total Energy: the card's value + 1 per cube on that phase (yours and others' alike)."""
    r = round_phases([EnergyCard("fabricate", 4, cubes=1), EnergyCard("assemble", 2)], {"fabricate": 3})
    fab = by_phase(r)["fabricate"]
    assert (fab.total, fab.card, fab.cube_energy) == (7, 4, 3)
    assert "Total Energy 4 (card) + 3 (3 cubes) = 7" in fab.why


def test_total_energy_multiplier_doubles_the_cubes_not_the_card():
    """Total Energy: a card with the cube multiplier doubles the energy from the cubes on its phase (the
    aid's example: 2 cubes are worth 4)."""
    r = round_phases([EnergyCard("design", 3, multiplier=True), EnergyCard("recycle", 1)], {"design": 2})
    d = by_phase(r)["design"]
    assert (d.cube_energy, d.total) == (4, 7)
    assert "4 (2 cubes ×2: your card’s multiplier)" in d.why


def test_total_energy_multiplier_only_on_its_own_phase():
    """Total Energy: the multiplier belongs to the card; cubes on a phase you did not assign count once."""
    r = round_phases([EnergyCard("design", 3, multiplier=True), EnergyCard("recycle", 1)], {"assemble": 2})
    assert by_phase(r)["assemble"].total == 2


def test_total_energy_batteries_and_bonuses_add():
    """Total Energy: +1 per battery spent and + the unlocked bonuses on the player board."""
    r = round_phases([EnergyCard("design", 5), EnergyCard("upgrade", 3)], {"design": 1},
                     batteries={"design": 2}, bonuses={"design": 1})
    d = by_phase(r)["design"]
    assert (d.total, d.batteries, d.bonus) == (9, 2, 1)
    assert "2 (2 batteries)" in d.why and "1 (unlocked bonus)" in d.why


def test_batteries_and_bonuses_never_open_a_phase():
    """Total Energy: batteries and bonuses do not let you perform a phase you did not assign and that has no
    cube; they are not spent there."""
    r = round_phases([EnergyCard("design", 5), EnergyCard("upgrade", 3)],
                     batteries={"fabricate": 3}, bonuses={"fabricate": 2})
    fab = by_phase(r)["fabricate"]
    assert not fab.performed and fab.total == 0 and fab.batteries == 0
    assert "never open a phase" in fab.why


def test_upgrade_and_assemble_split_rows_are_thresholds():
    """Upgrade / Assemble: energy is split between actions; Design / Fabricate / Recycle: a threshold."""
    r = by_phase(round_phases([EnergyCard("assemble", 4), EnergyCard("recycle", 6)]))
    assert "Split it" in r["assemble"].why
    assert "at most 6" in r["recycle"].why


def test_one_phase_card_of_each_phase():
    """Round Preparation: a seat has one Phase Card per phase, so two cards cannot lie under one phase."""
    with pytest.raises(InputError) as e:
        round_phases([EnergyCard("design", 5), EnergyCard("design", 3)])
    assert e.value.path == "cards[1].phase"


def test_two_cards_a_round_unless_ada_or_john():
    """Round Preparation: 2 energy cards a round; Ada and John (Friendship Ability Clarifications) let a seat
    assign more Phase Cards."""
    three = [EnergyCard("design", 5), EnergyCard("upgrade", 3), EnergyCard("recycle", 2)]
    with pytest.raises(InputError) as e:
        round_phases(three)
    assert e.value.path == "cards"
    assert round_phases(three, who=Who.of(friendships=["Ada"])).performed() == ("upgrade", "design", "recycle")


@pytest.mark.parametrize("field,value,path", [
    ("energy", -1, "cards[0].energy"), ("energy", 21, "cards[0].energy"), ("cubes", True, "cards[0].cubes"),
    ("phase", "dance", "cards[0].phase")])
def test_bad_cards_name_the_field(field, value, path):
    card = {"phase": "design", "energy": 3, "cubes": 0, field: value}
    with pytest.raises(InputError) as e:
        round_phases([EnergyCard(**card)])
    assert e.value.path == path


def test_bad_board_names_the_phase():
    with pytest.raises(InputError) as e:
        round_phases([EnergyCard("design", 3)], {"lunch": 1})
    assert e.value.path == "board_cubes.lunch"


def test_william_card_runs_the_phase_twice_without_batteries():
    """William (Friends Inventor Explanations): a phase under his special card is performed twice; then
    batteries may not be spent, cubes and unlocked upgrades still count."""
    r = round_phases([EnergyCard("fabricate", 2, twice=True), EnergyCard("design", 4)], {"fabricate": 1},
                     batteries={"fabricate": 3}, bonuses={"fabricate": 1}, who=Who.of("William"))
    fab = by_phase(r)["fabricate"]
    assert (fab.times, fab.total, fab.batteries) == (2, 4, 0)
    assert "twice" in fab.why and "rr-william-complexity-hard" in fab.rules
    with pytest.raises(InputError) as e:
        round_phases([EnergyCard("fabricate", 2, twice=True)])
    assert e.value.path == "cards[0].twice"


def test_abilities_not_modelled_are_listed():
    """An ability that may change the answer (Nikola swaps cubes, Charles's tokens) is listed, never ignored."""
    r = round_phases([EnergyCard("design", 3)], who=Who.of("", friendships=["Nikola", "Charles", "Temple"]))
    t = {x.ability: x.treatment for x in r.abilities}
    assert t == {"nikola": "not_modelled", "charles": "not_modelled", "temple": "no_effect"}


def test_fewer_board_cubes_than_own_cards_is_noted():
    r = round_phases([EnergyCard("design", 3, cubes=2)], {"design": 1})
    assert any("Fewer cubes" in n for n in r.notes)


# ---- the round -------------------------------------------------------------------------------------

def test_dummy_cubes_follow_the_line():
    """2-player dummy: card 3 carries 1 cube, card 4 two; after 4 are revealed the line is dealt again, so
    rounds 1, 3, 5, 7 bring 1 cube and rounds 2, 4, 6, 8 two."""
    assert [dummy_cubes(r) for r in range(1, 9)] == [1, 2, 1, 2, 1, 2, 1, 2]
    assert round_facts(3, 2).dummy_cubes == 1 and round_facts(3, 3).dummy_cubes is None


def test_break_at_round_five():
    """Break Period: when the marker reaches round 5, a Class Card draw and the energy deck reshuffled."""
    facts = {r: round_facts(r, 3) for r in range(1, 9)}
    assert [r for r, f in facts.items() if f.break_now] == [5]
    assert [facts[r].cards_left for r in range(1, 9)] == [8, 6, 4, 2, 8, 6, 4, 2]
    assert facts[8].last and not facts[7].last
    assert "rr-fact-break-period" in facts[5].rules


def test_board_cubes_sum_every_seat_and_the_dummy():
    """Round Preparation: every seat's cubes move onto the phase under their card, the dummy's onto its phase."""
    a = [EnergyCard("design", 3, cubes=1), EnergyCard("upgrade", 2, cubes=2)]
    b = [EnergyCard("design", 1, cubes=1), EnergyCard("recycle", 4)]
    assert board_cubes([a, b], "fabricate", 2) == {"upgrade": 2, "assemble": 0, "design": 2, "fabricate": 2,
                                                   "recycle": 0}


# ---- property test against a brute-force oracle -------------------------------------------------------

def oracle(cards, board, batteries, bonuses):
    """The player aid's Total Energy read literally, one unit at a time: walk the board phase by phase, put
    the cubes down one by one, spend the batteries one by one."""
    out = {}
    for phase in PHASES:
        mine = [c for c in cards if c.phase == phase]
        cube_list = ["cube"] * board.get(phase, 0)
        if not mine and not cube_list:
            out[phase] = (False, 0)
            continue
        energy = mine[0].energy if mine else 0
        for _ in cube_list:
            energy += 2 if (mine and mine[0].multiplier) else 1
        for _ in range(batteries.get(phase, 0)):
            energy += 1
        for _ in range(bonuses.get(phase, 0)):
            energy += 1
        out[phase] = (True, energy)
    return out


phase = st.sampled_from(PHASES)
counts = st.dictionaries(phase, st.integers(0, 6), max_size=5)


@settings(max_examples=150, deadline=None)
@given(st.lists(phase, min_size=0, max_size=2, unique=True), st.lists(st.integers(0, 9), min_size=2, max_size=2),
       st.lists(st.booleans(), min_size=2, max_size=2), counts, counts, counts)
def test_against_oracle(phases, values, mults, board, batteries, bonuses):
    """Property (Total Energy, Phase Rules): the solver equals the literal reading for any cards and board;
    a seat with two cards always performs at least those two phases."""
    cards = [EnergyCard(p, values[k], multiplier=mults[k]) for k, p in enumerate(phases)]
    r = round_phases(cards, board, batteries, bonuses)
    assert {p.phase: (p.performed, p.total) for p in r.phases} == oracle(cards, board, batteries, bonuses)
    assert set(phases) <= set(r.performed())
    bare = round_phases(cards, board)
    assert bare.performed() == r.performed()  # batteries and bonuses never change which phases run


def test_board_cubes_add_the_ones_no_card_accounts_for():
    """Phase Rules: a cube counts whoever put it there (here one from a player not using Tablebot)."""
    assert board_cubes([[EnergyCard("design", 3, cubes=1)]], extra={"design": 1, "recycle": 2})["design"] == 2
