"""Robotariat NPC turn, case by case (rulebook "NPC Turn", "Encounter Quick-Reference Table", "Round
Order", "Game End", "Character Abilities"; semantics.md is the reading), and the board rules."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from solvers.robotariat.board import Board, board_problems
from solvers.robotariat.gamedata import DEFAULTS, defaults_json
from solvers.robotariat.model import FAILURE, SUCCESS, Dice, Rules, TableState
from solvers.robotariat.npc_turn import (
    CIVILIAN,
    OPPRESSOR,
    TurnResult,
    _final_state,
    _move,
    _resolve,
    _Table,
    enter_npc,
    npc_turn,
)
from solvers.robotariat.value import Valuer, Weights

# A ring of five: yellow goes up (s0 -> s1 -> ...), blue goes down (s1 -> s0 -> s4 ...)
KINDS5 = ["move_the_masses", "poster", "recruitment_office", "sabotage", "scrap_yard"]
RING = {"spaces": [{"id": f"s{i}", "kind": k} for i, k in enumerate(KINDS5)],
        "links": [[f"s{i}", f"s{(i + 1) % 5}"] for i in range(5)],
        "yellow_next": {f"s{i}": f"s{(i + 1) % 5}" for i in range(5)},
        "blue_next": {f"s{i}": f"s{(i - 1) % 5}" for i in range(5)}}
BOARD = Board.from_json(RING)
REWARDS = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
RULES = Rules(target=45, office_rewards=REWARDS)
PLAIN = Weights(office=Fraction(0), poster=Fraction(0))  # value = funds + 5 reputation (+ win/loss)


def table(opp=(), civ=(), players=("s3", "s3", "s3"), chars=(), posters=None, junk=0, funds=10, rep=5,
          office=0, entry="s0", active=0) -> TableState:
    ix = BOARD.index
    chars = tuple(chars) + (None,) * (len(players) - len(chars))
    return TableState(oppressors=tuple(ix[x] for x in opp), civilians=tuple(ix[x] for x in civ),
                      players=tuple(ix[p] for p in players), characters=chars,
                      posters=tuple((posters or {}).get(s, 0) for s in BOARD.ids), junk=junk, funds=funds,
                      reputation=rep, office=office, entry=ix[entry], active=active)


def roll(s: TableState, black: str, red: str, rules: Rules = RULES, weights: Weights = PLAIN,
         horizon: int = 0) -> TurnResult:
    """The NPC turn for one roll, resolved as npc_turn resolves each of the 36 (only these cases need a
    roll on its own); ArciTech, if at the table, re-posts where the valuer says is best."""
    valuer = Valuer(BOARD, rules, DICE, weights, horizon)
    opp, civ, entry, queue = _move(BOARD, s, black, red)
    t = _Table(BOARD, rules, s, opp, civ)
    r, _ = _resolve(s, t, queue, entry, valuer, s.seat_of("arcitech") is not None)
    after = _final_state(s, t, r, entry)
    return TurnResult(black, red, after, r.final_encounters(), funds_delta=after.funds - s.funds,
                      reputation_delta=after.reputation - s.reputation, office_delta=after.office - s.office,
                      posters_junked=sum(e.posters_junked for e in r.encounters),
                      fines=sum(1 for e in r.encounters if e.fined_players))


DICE = Dice(black=("blue_arrow",) * 4 + ("yellow_arrow", "blue_x"), red=("yellow_arrow",) * 4 + ("blue_arrow", "yellow_x"))
OPP_ONLY = ("yellow_arrow", "yellow_x")  # oppressors step up the ring, civilians stay
CIV_ONLY = ("blue_x", "yellow_arrow")


# ---- Encounter Quick-Reference Table, Human Oppressor column ----------------------------------------

def test_oppressor_fines_two_spark_per_player():
    """Encounter table, Human Oppressor x each Player: -2 SPARK for each player on the space."""
    r = roll(table(opp=["s0"], players=["s1", "s1", "s3"]), *OPP_ONLY)
    assert r.funds_delta == -4 and r.fines == 1 and r.encounters[0].fined_players == 2


def test_oppressor_tears_posters_down_to_the_junk_pile():
    """Encounter table, Human Oppressor x Posters: they go to the Junk Pile (3 things: not suspicious)."""
    r = roll(table(opp=["s0"], posters={"s1": 3}), *OPP_ONLY)
    assert r.state.posters[BOARD.index["s1"]] == 0 and r.state.junk == 3 and r.posters_junked == 3
    assert r.reputation_delta == 0 and r.fines == 0


def test_four_or_more_posters_civilians_players_cost_one_reputation():
    """Encounter table, Human Oppressor x 4 or more posters, Civilians and/or players: -1 Reputation,
    and the other effects still happen (fine, tear-down)."""
    r = roll(table(opp=["s0"], civ=["s1"], players=["s1", "s3", "s3"], posters={"s1": 2}), *OPP_ONLY)
    assert r.reputation_delta == -1 and r.funds_delta == -2 and r.posters_junked == 2
    r3 = roll(table(opp=["s0"], civ=["s1"], players=["s3", "s3", "s3"], posters={"s1": 2}), *OPP_ONLY)
    assert r3.reputation_delta == 0  # exactly 3: no suspicion


def test_oppressors_do_not_count_each_other_and_second_fines_again():
    """Encounter table, Human Oppressor x Human Oppressor: no effect; a second oppressor on the same
    space fines again but finds no posters left."""
    r = roll(table(opp=["s0", "s0", "s0"], players=["s1", "s3", "s3"], posters={"s1": 2}), *OPP_ONLY)
    assert r.reputation_delta == 0  # 2 posters + 1 player = 3; the oppressors are not counted
    assert r.funds_delta == -6 and r.fines == 3
    assert [e.posters_junked for e in r.encounters] == [2, 0, 0]


def test_oppressor_fines_the_office_two_not_below_zero():
    """Encounter table, Human Oppressor x Recruitment Office: contributions -2, never below 0."""
    assert roll(table(opp=["s1"], office=5), *OPP_ONLY).office_delta == -2
    assert roll(table(opp=["s1"], office=1), *OPP_ONLY).state.office == 0


def test_funds_never_go_below_zero():
    """Equation for a Successful Revolution (SPARK track): a fine stops at 0 funds."""
    r = roll(table(opp=["s0"], players=["s1", "s1", "s1"], funds=3), *OPP_ONLY)
    assert r.state.funds == 0 and r.funds_delta == -3 and r.fines == 1


# ---- Civilian Robot column -------------------------------------------------------------------------

def test_civilian_meeting_an_oppressor_does_nothing_else():
    """NPC Turn, Civilian Robots: a robot that meets a human encounters nothing else (the oppressor was
    already there and did not move)."""
    s = table(opp=["s1"], civ=["s0"], players=["s1", "s1", "s3"], posters={"s1": 3})
    r = roll(s, *CIV_ONLY)
    assert r.funds_delta == 0 and r.encounters[0].blocked and r.state.posters == s.posters


def test_civilian_donates_per_player_and_per_poster():
    """Encounter table, Civilian Robot x each Player (+1) and x Posters (+1 each); posters stay; 4 or
    more things bring no extra effect for a civilian."""
    s = table(civ=["s0"], players=["s1", "s1", "s3"], posters={"s1": 3})
    r = roll(s, *CIV_ONLY)
    assert r.funds_delta == 5 and r.state.posters == s.posters and r.reputation_delta == 0


def test_civilian_at_the_office_donates_the_office_reward():
    """Encounter table, Civilian Robot x Recruitment Office: + Office Rewards at the current contributions
    (unchanged), only when contributions > 0."""
    r = roll(table(civ=["s1"], office=4), *CIV_ONLY)
    assert r.funds_delta == REWARDS[4] and r.office_delta == 0
    assert roll(table(civ=["s1"], office=0), *CIV_ONLY).funds_delta == 0


def test_oppressors_resolve_before_civilians_and_count_arriving_civilians():
    """NPC Turn: oppressor encounters come first; the oppressor counts the civilian that moved onto its
    space (positions after the move), and that civilian then stops."""
    s = table(opp=["s0"], civ=["s0"], players=["s1", "s3", "s3"], posters={"s1": 2})
    r = roll(s, "yellow_arrow", "yellow_arrow")
    opp_e, civ_e = r.encounters
    assert opp_e.npc == OPPRESSOR and opp_e.suspicious and civ_e.npc == CIVILIAN and civ_e.blocked
    assert r.funds_delta == -2 and r.reputation_delta == -1


def test_a_civilian_that_moved_away_is_not_counted():
    """NPC Turn: counts use the positions after the move: a civilian leaving the space is gone."""
    s = table(opp=["s0"], civ=["s1"], players=["s1", "s3", "s3"], posters={"s1": 2})
    r = roll(s, "yellow_arrow", "yellow_arrow")  # civilian s1 -> s2 before the oppressor arrives
    assert r.reputation_delta == 0


def test_uberbot_doubles_posters_for_suspicion_and_donations():
    """Character Abilities, Überbot: each poster on his space counts as two, for an oppressor's count
    and a civilian's donation."""
    s = table(opp=["s0"], players=["s1", "s3", "s3"], chars=["uberbot"], posters={"s1": 2})
    assert roll(s, *OPP_ONLY).reputation_delta == -1  # 2x2 + Überbot himself = 5
    s = table(civ=["s0"], players=["s1", "s3", "s3"], chars=["uberbot"], posters={"s1": 2})
    assert roll(s, *CIV_ONLY).funds_delta == 1 + 4


# ---- Game End ---------------------------------------------------------------------------------------

def test_reputation_zero_ends_the_game_at_once():
    """Game End: 0 Reputation fails the Revolution immediately; that oppressor tears nothing down and
    fines no one, later oppressors and civilians do nothing."""
    s = table(opp=["s0", "s2"], civ=["s4"], players=["s1", "s1", "s0"], posters={"s1": 2, "s0": 1}, rep=1)
    r = roll(s, "yellow_arrow", "yellow_arrow")
    assert r.state.ended == FAILURE and r.state.reputation == 0
    assert len(r.encounters) == 1 and r.funds_delta == 0 and r.posters_junked == 0


def test_reaching_the_target_ends_the_game_mid_turn():
    """Game End / Revolution Table: funds reaching the target succeed at once; the next civilian does not
    donate. Each donation (players, posters, office) is added whole."""
    s = table(civ=["s0", "s0"], players=["s1", "s1", "s3"], posters={"s1": 3}, funds=44)
    r = roll(s, *CIV_ONLY)
    assert r.state.ended == SUCCESS and len(r.encounters) == 1
    assert r.state.funds == 46  # the players' donation (+2) reached 45; the posters' part is not added


def test_x_faces_move_the_entry_token_not_the_npcs():
    """NPC Turn: an X moves the NPC Entry token one step on its colour's path (black die first), and no
    NPC moves or meets anything."""
    s = table(opp=["s0"], civ=["s2"], entry="s0")
    r = roll(s, "blue_x", "yellow_x")
    assert r.state.oppressors == s.oppressors and r.state.civilians == s.civilians and not r.encounters
    assert BOARD.ids[r.state.entry] == "s0"  # blue: s0 -> s4, then yellow: s4 -> s0
    assert BOARD.ids[roll(s, "yellow_x", "yellow_x").state.entry] == "s2"


def test_no_npc_turn_after_the_game_ended():
    """Game End: nothing resolves after the end."""
    with pytest.raises(ValueError):
        npc_turn(BOARD, RULES, DICE, replace(table(), ended=SUCCESS),
                 Valuer(BOARD, RULES, DICE, PLAIN, 0))


# ---- the distribution ----------------------------------------------------------------------------

def test_outcomes_are_merged_by_face_kind_and_sum_to_one():
    """NPC Turn, rolling both dice: with 4 blue arrows, 1 yellow arrow, 1 X on black and the mirror on
    red, (blue arrow, yellow arrow) has 16 of the 36 rolls."""
    f = npc_turn(BOARD, RULES, DICE, table(opp=["s0"], civ=["s2"]), Valuer(BOARD, RULES, DICE, PLAIN, 0))
    probs = {(o.black, o.red): o.p for o in f.outcomes}
    assert len(probs) == 9 and sum(probs.values()) == 1
    assert probs[("blue_arrow", "yellow_arrow")] == Fraction(16, 36)
    assert probs[("blue_x", "yellow_x")] == Fraction(1, 36)


def test_expectations_of_a_simple_turn():
    """NPC Turn: one oppressor on s0 (players on s4 and s1) fines on its blue step (4/6) and its yellow
    step (1/6); expected funds -2 * 5/6."""
    s = table(opp=["s0"], players=["s4", "s1", "s3"])
    f = npc_turn(BOARD, RULES, DICE, s, Valuer(BOARD, RULES, DICE, PLAIN, 0))
    summary = f.summary()
    assert summary["funds_delta"] == Fraction(-10, 6) and summary["p_fine"] == Fraction(5, 6)
    assert summary["p_reputation_loss"] == 0


# ---- Round Order 1: the round-start entry ---------------------------------------------------------

def test_round_start_oppressor_enters_and_fines():
    """Round Order 1: the next NPC is placed on the Entry token's space and encounters it (row 2 is an
    oppressor in the Set Up order)."""
    s = table(players=["s0", "s0", "s3"], posters={"s0": 1}, entry="s0")
    e = enter_npc(BOARD, RULES, s, DEFAULTS.entry_track[1], row=2)
    assert e.npc == OPPRESSOR and e.encounter.fined_players == 2 and e.state.funds == 6
    assert e.state.junk == 1 and e.state.oppressors == (0,) and not e.last_round


def test_round_start_civilian_meeting_an_oppressor_does_nothing():
    """Round Order 1 + NPC Turn: an entering civilian on an oppressor's space does nothing; taking row 6
    marks the last round."""
    s = table(opp=["s0"], players=["s0", "s3", "s3"], entry="s0")
    e = enter_npc(BOARD, RULES, s, CIVILIAN, row=6)
    assert e.encounter.blocked and e.state.funds == s.funds and e.last_round and e.state.round == 6


def test_entry_track_is_the_setup_order():
    """Set Up 6: Civilian, Oppressor, Civilian, Oppressor, Oppressor, Civilian."""
    assert DEFAULTS.entry_track == ("civilian", "oppressor", "civilian", "oppressor", "oppressor", "civilian")


# ---- Character Abilities ---------------------------------------------------------------------------

def test_alice_smith_chooses_the_better_path():
    """Character Abilities, Alice Smith: she chooses the oppressors' path instead of rolling; blue would
    fine two players, yellow fines none, so yellow; only the red die is rolled."""
    s = table(opp=["s0"], players=["s4", "s4", "s3"], chars=["alice_smith"])
    f = npc_turn(BOARD, RULES, DICE, s, Valuer(BOARD, RULES, DICE, PLAIN, 0))
    assert f.alice["chosen"] == "yellow_arrow" and not f.alice["tied"]
    assert {o.black for o in f.outcomes} == {"yellow_arrow"} and sum(o.p for o in f.outcomes) == 1
    assert f.summary()["p_fine"] == 0


def test_alice_smith_tie_is_reported():
    """Character Abilities, Alice Smith: when both paths are worth the same, the tie is said."""
    s = table(opp=["s0"], players=["s3", "s3", "s3"], chars=["alice_smith"])
    f = npc_turn(BOARD, RULES, DICE, s, Valuer(BOARD, RULES, DICE, PLAIN, 0))
    assert f.alice["tied"] and f.alice["chosen"] == "yellow_arrow"


def test_mt_rho_rerolls_only_worse_than_a_fresh_roll():
    """Character Abilities, MT-ρ: re-roll both dice once when the first roll is worse than a fresh
    roll's expectation; keep on a tie. Red die 2 yellow / 2 blue / 2 X: the civilian on s0 brings +2,
    +1 or 0 (mean +1): only X is re-rolled."""
    dice = Dice(black=("yellow_x",) * 6, red=("yellow_arrow",) * 2 + ("blue_arrow",) * 2 + ("yellow_x",) * 2)
    s = table(civ=["s0"], players=["s1", "s1", "s4"], chars=["mt_rho"])
    f = npc_turn(BOARD, RULES, dice, s, Valuer(BOARD, RULES, dice, PLAIN, 0))
    p = {o.red: o.p for o in f.outcomes}
    assert f.mt_rho["reroll"] == [("yellow_x", "yellow_x")] and f.mt_rho["p_reroll"] == Fraction(1, 3)
    assert p == {"yellow_arrow": Fraction(4, 9), "blue_arrow": Fraction(4, 9), "yellow_x": Fraction(1, 9)}
    assert f.summary()["funds_delta"] == Fraction(4, 3)


def test_mt_rho_only_on_their_own_npc_turn():
    """Character Abilities, MT-ρ: the re-roll belongs to the one who rolls (the active player)."""
    dice = Dice(black=("yellow_x",) * 6, red=("yellow_arrow",) * 2 + ("blue_arrow",) * 2 + ("yellow_x",) * 2)
    s = table(civ=["s0"], players=["s1", "s1", "s4"], chars=["mt_rho"], active=1)
    f = npc_turn(BOARD, RULES, dice, s, Valuer(BOARD, RULES, dice, PLAIN, 0))
    assert f.mt_rho is None and f.summary()["funds_delta"] == 1


def test_arcitech_reposts_a_torn_poster_where_a_civilian_arrives():
    """Character Abilities, ArciTech: once per NPC turn, when oppressors tear posters down, one goes back
    up anywhere; here on s2, where the civilian arrives, so it donates +1."""
    s = table(opp=["s0"], civ=["s1"], players=["s3", "s3", "s4"], chars=["arcitech"], posters={"s1": 2})
    r = roll(s, "yellow_arrow", "yellow_arrow")
    assert r.arcitech == BOARD.index["s2"] and r.funds_delta == 1 and r.state.junk == 1


def test_arcitech_reposts_once_per_npc_turn():
    """Character Abilities, ArciTech: once per NPC turn even when two oppressors tear posters down."""
    s = table(opp=["s0", "s2"], civ=["s4"], players=["s3", "s3", "s4"], chars=["arcitech"],
              posters={"s1": 1, "s3": 1})
    r = roll(s, "yellow_arrow", "yellow_arrow")  # civilian s4 -> s0: a poster there is worth +1
    assert r.posters_junked == 2 and r.state.junk == 1 and sum(r.state.posters) == 0 + 1
    assert sum(1 for e in r.encounters if e.reposted_to is not None) == 1


def test_arcitech_declines_when_nothing_is_gained():
    """Character Abilities, ArciTech ("may"): with no civilian to meet the poster and no value on posters
    left on the board, the poster stays in the junk pile (declining wins the tie)."""
    s = table(opp=["s0"], players=["s3", "s3", "s4"], chars=["arcitech"], posters={"s1": 2})
    assert roll(s, *OPP_ONLY).arcitech is None
    r = roll(s, *OPP_ONLY, weights=Weights(), horizon=2)  # posters now worth future donations
    assert r.arcitech is None  # there are no civilians to donate later either
    s2 = table(opp=["s0"], civ=["s3"], players=["s3", "s3", "s4"], chars=["arcitech"], posters={"s1": 2})
    assert roll(s2, *OPP_ONLY, weights=Weights(), horizon=2).arcitech is not None


def test_arcitech_not_at_round_start():
    """Round Order 1 vs Character Abilities (ArciTech: once per NPC turn): the round-start entry is not
    an NPC turn, so no re-post (Tablebot's reading)."""
    s = table(players=["s3", "s3", "s4"], chars=["arcitech"], posters={"s0": 2}, entry="s0")
    e = enter_npc(BOARD, RULES, s, OPPRESSOR, row=2)
    assert e.state.junk == 2 and sum(e.state.posters) == 0


# ---- the score -------------------------------------------------------------------------------------

def test_future_donations_use_the_red_die_chain():
    """value.py: a poster on s2 with a civilian on s1 is worth the expected civilian arrivals at s2 over
    the horizon: 4/6 (yellow arrow) in one NPC turn with the default red die."""
    v = Valuer(BOARD, RULES, DICE, Weights(), 1)
    s = table(civ=["s1"], posters={"s2": 1})
    assert v.future(s) == (0, Fraction(4, 6))
    assert v.value(s) == 10 + 5 * 5 + Fraction(4, 6)


# ---- the board -------------------------------------------------------------------------------------

def _problems(board):
    errors, warnings = board_problems(board)
    return [p.message for p in errors], [p.message for p in warnings]


def test_board_needs_both_next_spaces_along_black_lines():
    """NPC Turn (NPCs move along the black lines, on the yellow or the blue path): every space needs a
    yellow and a blue next space joined to it by a black line."""
    bad = {**RING, "yellow_next": {k: v for k, v in RING["yellow_next"].items() if k != "s2"},
           "blue_next": {**RING["blue_next"], "s0": "s2"}}
    errors, _ = _problems(bad)
    assert any("s2 has no next space on the yellow path" in e for e in errors)
    assert any("does not follow a black line" in e for e in errors)


def test_board_links_must_name_known_spaces():
    """Player Turn, Movement: black lines join two spaces of the board."""
    errors, _ = _problems({**RING, "links": RING["links"] + [["s0", "zz"], ["s1", "s1"]]})
    assert any("'zz' is not a space" in e for e in errors) and any("two different spaces" in e for e in errors)
    errors, _ = _problems({**RING, "spaces": RING["spaces"] + [{"id": "s0", "kind": "poster"}]})
    assert any("used twice" in e for e in errors)


def test_board_warns_about_unreachable_spaces():
    """Player Turn, Movement: players move along black lines only, so a split board gets a warning."""
    board = {"spaces": RING["spaces"] + [{"id": "a", "kind": "poster"}, {"id": "b", "kind": "poster"}],
             "links": RING["links"] + [["a", "b"]],
             "yellow_next": {**RING["yellow_next"], "a": "b", "b": "a"},
             "blue_next": {**RING["blue_next"], "a": "b", "b": "a"}}
    errors, warnings = _problems(board)
    assert not errors and any("falls into 2 parts" in w for w in warnings)


def test_example_board_is_valid_and_marked_example():
    """The printed board is in no source: the default is an example, marked so."""
    data = defaults_json()
    assert data["board"]["provenance"]["note"] == "example: enter your printed board"
    errors, warnings = board_problems({k: data["board"][k] for k in ("spaces", "links", "yellow_next", "blue_next")})
    assert not errors and not warnings


def test_game_data_sources():
    """Revolution Table (45/60/75) and objective numbers are public facts with their URL; dice, Office
    Rewards and starting reputation are unverified defaults."""
    data = defaults_json()
    assert data["spark_target"]["by_players"] == {"3": 45, "4": 60, "5": 75}
    assert data["spark_target"]["provenance"]["url"].startswith("https://rise.eye4games.com")
    assert data["objectives"]["bursar_threshold"] == {"3": 5, "4": 7, "5": 7}
    assert data["objectives"]["scrapper_posters"] == {"3": 4, "4": 6, "5": 6}
    assert data["objectives"]["turncoat_cards"] == {"3": 6, "4": 8, "5": 10}
    for key in ("dice", "office_rewards", "starting_reputation"):
        assert data[key]["provenance"]["source"] == "unverified"


def test_shared_roll_memo_respects_arcitechs_choice():
    """Character Abilities, ArciTech + Game End: re-posting on the civilian's space wins at once (funds
    43 -> 45); with three more posters elsewhere (worth future donations only while the game goes on, and
    a win bonus of 0) re-posting where the game goes on is worth more. Two states that differ only by
    those posters elsewhere must not share the roll's resolution."""
    weights = Weights(win=Fraction(0), poster=Fraction(1))
    v = Valuer(BOARD, RULES, DICE, weights, 2)
    a = table(opp=["s0"], civ=["s1"], players=["s2", "s3", "s3"], chars=["arcitech"], posters={"s1": 1}, funds=43)
    b = table(opp=["s0"], civ=["s1"], players=["s2", "s3", "s3"], chars=["arcitech"], posters={"s1": 1, "s4": 3},
              funds=43)
    memo: dict = {}
    npc_turn(BOARD, RULES, DICE, a, v, memo)
    shared = {(o.black, o.red): o.result.state for o in npc_turn(BOARD, RULES, DICE, b, v, memo).outcomes}
    fresh = {(o.black, o.red): o.result.state for o in npc_turn(BOARD, RULES, DICE, b, v).outcomes}
    assert shared == fresh
    assert roll(a, "yellow_arrow", "yellow_arrow", weights=weights, horizon=2).state.ended == SUCCESS
    assert roll(b, "yellow_arrow", "yellow_arrow", weights=weights, horizon=2).state.ended is None
