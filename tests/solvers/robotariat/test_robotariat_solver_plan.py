"""Robotariat suggestions, look-ahead and objectives (rulebook "Player Turn", "NPC Turn", "Secret
Objectives", "Completely Cooperative Mode"; numbers per player count from the publisher's rules)."""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from test_robotariat_solver import BOARD, DICE, PLAIN, RULES, table
from test_robotariat_solver_oracle import _after_encounters, oracle_distribution, oracle_value

from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.lookahead import lookahead
from solvers.robotariat.model import FAILURE, SUCCESS, Dice
from solvers.robotariat.npc_turn import npc_turn
from solvers.robotariat.objectives import IN_PROGRESS, ObjectiveFacts, check_objectives
from solvers.robotariat.suggest import suggest
from solvers.robotariat.value import Valuer, Weights

IX = BOARD.index


def plan(s, weights=PLAIN, horizon=0, dice=DICE):
    return suggest(BOARD, RULES, dice, s, Valuer(BOARD, RULES, dice, weights, horizon))


def described(o) -> tuple:
    a = o.activation
    return (BOARD.ids[o.move_to], None if a is None else (a.kind, a.when, a.place_on, a.contribute, a.npc_to,
                                                          a.placement))


# ---- suggestions -----------------------------------------------------------------------------------

def test_every_legal_turn_is_listed():
    """Player Turn: stay or move one black line; activate the space left (before moving) or reached
    (after moving), in any order. From s1 (Poster) on the ring: stay (none, 5 posters), to s0 (none,
    5 posters before, Move the Masses after: 1 civilian x 2 lines), to s2 (none, 5 posters before, 3
    contributions after)."""
    s = table(civ=["s3"], players=["s1", "s4", "s4"], funds=3)
    opts = plan(s).options
    count = Counter((BOARD.ids[o.move_to], o.activation.kind if o.activation else None,
                     o.activation.when if o.activation else None) for o in opts)
    assert count[("s1", None, None)] == 1 and count[("s1", "poster", "here")] == 5
    assert count[("s0", "poster", "before_move")] == 5 and count[("s0", "move_the_masses", "after_move")] == 2
    assert count[("s2", "recruitment_office", "after_move")] == 3  # funds 3 limits the contribution
    assert len(opts) == 1 + 5 + (1 + 5 + 2) + (1 + 5 + 3)


def test_no_activation_on_an_oppressor_space():
    """Types of Space Activations: a space with a Human Oppressor cannot be activated."""
    s = table(opp=["s1"], players=["s1", "s4", "s4"])
    assert all(o.activation is None or o.activation.space != IX["s1"] for o in plan(s).options)


def test_scores_are_the_exact_expectation_of_the_next_npc_turn():
    """NPC Turn: each option's score is E[V after the NPC turn] - V now; checked against the plain
    enumeration of the 36 rolls for every option."""
    s = table(opp=["s4"], civ=["s4"], players=["s1", "s0", "s2"], posters={"s0": 1}, junk=1, funds=12, office=2)
    game = GAME
    v0 = oracle_value(game, _as_oracle(s))
    for o in plan(s).options:
        pre = _pre_state(s, o)
        if pre["ended"]:
            expected = oracle_value(game, pre)
        else:
            expected = sum(p * oracle_value(game, st) for p, st in oracle_distribution(game, pre).values())
        assert o.score == expected - v0, described(o)


def test_ties_are_ties():
    """Sabotage/Upgrade draws are scored like not activating: they tie, and the tie is reported."""
    s = table(players=["s3", "s4", "s4"])  # s3 is a Sabotage space
    out = plan(s).as_json(BOARD)
    stay = [o for o in out["options"] if o["move_to"] == "s3"]
    assert {o["activate"]["kind"] if o["activate"] else None for o in stay} == {None, "sabotage"}
    assert stay[0]["expected"]["score"] == stay[1]["expected"]["score"] and stay[0]["tied_with"] >= 1
    assert stay[0]["rank"] == stay[1]["rank"]


def test_best_poster_goes_where_civilians_arrive():
    """Poster activation + Civilian Robot encounter: +1 SPARK per poster met. The civilian on s0 steps
    to s1 on 4 of 6 red faces (yellow arrow): the best turn places the poster on s1."""
    s = table(civ=["s0"], players=["s1", "s3", "s3"], funds=5)
    best = plan(s).options[0]
    assert best.activation is not None and best.activation.kind == "poster" and best.activation.place_on == IX["s1"]


def test_move_the_masses_resolves_its_encounter_at_once():
    """Move the Masses: the moved NPC meets its new space immediately. Moving the oppressor from s0 to s4
    puts it on the player standing there: -2 at once."""
    s = table(opp=["s0"], players=["s0", "s4", "s3"])
    opts = [o for o in plan(s).options if o.activation and o.activation.kind == "move_the_masses"]
    assert opts == []  # the Move the Masses space holds the oppressor: cannot activate it
    s = table(opp=["s1"], players=["s0", "s0", "s3"])
    mm = [o for o in plan(s).options if o.activation and o.activation.kind == "move_the_masses"
          and o.activation.npc_to == IX["s0"]]
    assert mm and all(o.immediate.fined_players == 2 for o in mm)


def test_move_the_masses_can_win_the_game():
    """Game End: a civilian moved by Move the Masses that brings the funds to the target wins at once."""
    s = table(civ=["s1"], players=["s0", "s0", "s0"], funds=43)
    best = plan(s).options[0]
    assert best.activation.kind == "move_the_masses" and best.expected["p_success"] == 1


def test_scrap_yard_puts_every_junk_poster_back():
    """Scrap Yard: every poster of the junk pile goes onto the board."""
    s = table(civ=["s2"], players=["s4", "s3", "s3"], junk=2)
    scrap = [o for o in plan(s).options if o.activation and o.activation.kind == "scrap_yard"]
    assert scrap and all(sum(n for _, n in o.activation.placement) == 2 for o in scrap)
    assert scrap[0].activation.placement == ((IX["s3"], 2),)  # the civilian's yellow step


def test_office_contribution_limits():
    """Recruitment Office: up to 5 per activation, the track stops at 10."""
    s = table(players=["s2", "s3", "s3"], funds=30, office=7)
    c = sorted(o.activation.contribute for o in plan(s).options
               if o.activation and o.activation.kind == "recruitment_office" and o.move_to == IX["s2"])
    assert c == [1, 2, 3]


def test_mr_postman_and_wally_st_extras():
    """Character Abilities: Mr. Postman moves a poster, WallyST pays a contribution for one; both once
    per own turn, offered on top of the options."""
    s = table(civ=["s0"], players=["s3", "s4", "s4"], chars=["mr_postman"], posters={"s4": 1})
    res = plan(s)
    best = res.options[0]
    assert best.extra is not None and best.extra.ability == "mr_postman" and best.extra.to == IX["s1"]
    assert res.notes
    s = table(civ=["s0"], players=["s3", "s4", "s4"], chars=["wally_st"], office=1)
    best = plan(s).options[0]
    assert best.extra is not None and best.extra.ability == "wally_st" and best.extra.to == IX["s1"]
    s = table(civ=["s0"], players=["s3", "s4", "s4"], chars=["wally_st"], office=0)
    assert all(o.extra is None for o in plan(s).options)


GAME = {"board": BOARD.to_json(), "target": 45, "rewards": list(RULES.office_rewards), "black": list(DICE.black),
        "red": list(DICE.red), "weights": PLAIN.as_dict(), "horizon": 0}


def _as_oracle(s) -> dict:
    ids = BOARD.ids
    return {"oppressors": [ids[x] for x in s.oppressors], "civilians": [ids[x] for x in s.civilians],
            "players": [{"at": ids[p], "character": c} for p, c in zip(s.players, s.characters)],
            "active": s.active, "posters": {ids[i]: n for i, n in enumerate(s.posters) if n}, "junk": s.junk,
            "funds": s.funds, "reputation": s.reputation, "office": s.office, "entry": ids[s.entry],
            "ended": s.ended}


def _pre_state(s, o) -> dict:
    """The option's state before the NPC turn, built independently of suggest.py."""
    st = _as_oracle(s)
    ids = BOARD.ids
    a = o.activation
    if a is not None and a.when == "after_move":
        st["players"][s.active]["at"] = ids[o.move_to]
    if a is not None:
        if a.kind == "poster":
            st["posters"][ids[a.place_on]] = st["posters"].get(ids[a.place_on], 0) + 1
        elif a.kind == "scrap_yard":
            for x, n in a.placement:
                st["posters"][ids[x]] = st["posters"].get(ids[x], 0) + n
            st["junk"] = 0
        elif a.kind == "recruitment_office":
            st["funds"] -= a.contribute
            st["office"] += a.contribute
        elif a.kind == "move_the_masses":
            group = st["oppressors"] if a.npc == "oppressor" else st["civilians"]
            group[a.npc_index] = ids[a.npc_to]
            st.update(fines=0, junked=0, rep_lost=False, reposted=None)
            # the oracle's encounter code, with no ArciTech (not an NPC turn)
            st = _after_encounters(GAME, st, [(a.npc, ids[a.npc_to])], False)[0]
    st["players"][s.active]["at"] = ids[o.move_to]
    return st


# ---- look-ahead -------------------------------------------------------------------------------------

def _brute_reach(dice_faces, start, turns, path_of):
    hits = {s: Fraction(0) for s in range(BOARD.n)}
    present = {s: Fraction(0) for s in range(BOARD.n)}
    for word in itertools.product(dice_faces, repeat=turns):
        pos, landed = list(start), set()
        for face in word:
            if face.endswith("arrow"):
                pos = [path_of(face)[p] for p in pos]
                landed |= set(pos)
        for s in landed:
            hits[s] += Fraction(1, 6 ** turns)
        for s in set(pos):
            present[s] += Fraction(1, 6 ** turns)
    return hits, present


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_lookahead_matches_every_sequence_of_rolls(turns):
    """NPC Turn: all oppressors move together on the black die; the chance one of them moves onto each
    space within k turns, and stands there after k, equal the enumeration of all 6**k black rolls."""
    s = table(opp=["s0", "s2"], civ=["s4"])
    la = lookahead(BOARD, DICE, s, turns)
    hits, present = _brute_reach(DICE.black, s.oppressors, turns, lambda f: BOARD.path(f.split("_")[0]))
    assert list(la.oppressors.reach) == [hits[i] for i in range(BOARD.n)]
    assert list(la.oppressors.present[-1]) == [present[i] for i in range(BOARD.n)]
    hits, _ = _brute_reach(DICE.red, s.civilians, turns, lambda f: BOARD.path(f.split("_")[0]))
    assert list(la.civilians.reach) == [hits[i] for i in range(BOARD.n)]


def test_lookahead_one_turn_and_entry_token():
    """NPC Turn: in one turn the oppressor on s0 reaches s4 (blue) on 4/6 and s1 (yellow) on 1/6; the
    Entry token moves on X faces only: blue X (1/6 black) then yellow X (1/6 red)."""
    s = table(opp=["s0"], entry="s0")
    la = lookahead(BOARD, DICE, s, 1)
    assert la.oppressors.reach[IX["s4"]] == Fraction(4, 6) and la.oppressors.reach[IX["s1"]] == Fraction(1, 6)
    assert la.entry[0][IX["s0"]] == Fraction(25, 36) + Fraction(1, 36)  # no X, or blue X then yellow X
    assert la.entry[0][IX["s4"]] == Fraction(5, 36) and la.entry[0][IX["s1"]] == Fraction(5, 36)
    assert sum(la.oppressors.expected[0]) == 1


# ---- objectives ------------------------------------------------------------------------------------

def won(players=3, **kw):
    target = DEFAULTS.spark_target[players]
    return replace(table(players=["s0"] * players, funds=target, **kw), ended=SUCCESS)


def check(s, players=3, **facts):
    return check_objectives(s, players, ObjectiveFacts(**facts), DEFAULTS)


def met(result, objective, seat=0):
    return result.check_for(seat, objective).met


def test_revolution_outcome():
    """Game End / Revolution Table: success at the target (60 for 4 players), failure at 0 Reputation or
    when round 6 ends short; otherwise the game goes on."""
    assert check(won(4), 4).revolution == SUCCESS
    assert check(table(funds=59, players=["s0"] * 4), 4).revolution == IN_PROGRESS
    assert check(table(funds=59, players=["s0"] * 4), 4, revolution_over=True).revolution == FAILURE
    assert check(table(rep=0), 3).revolution == FAILURE


def test_bursar_threshold_then_zero():
    """Secret Objectives, Bursar: contributions reach 5/7/7 (3/4/5 players) and later return to 0."""
    assert met(check(won(4), 4, office_track=(0, 7, 5, 3, 0, 2)), "bursar") is True
    assert met(check(won(4), 4, office_track=(0, 6, 0)), "bursar") is False
    assert met(check(won(3), 3, office_track=(0, 6, 0)), "bursar") is True
    assert met(check(won(3), 3, office_track=(0, 0, 5)), "bursar") is False
    log = ((1, 0, "", 0, 5), (1, 1, "", 0, 3), (2, 0, "", 0, 0))
    assert met(check(won(3), 3, log=log), "bursar") is True


def test_dealer_counts_ties():
    """Secret Objectives, Dealer: the most cards played, a tie counts."""
    r = check(won(3), 3, cards_played=(3, 3, 1))
    assert met(r, "dealer", 0) and met(r, "dealer", 1) and not met(r, "dealer", 2)


def test_gambler_only_with_four_or_more():
    """Secret Objectives, Gambler: not used with 3 players."""
    assert all(c.objective != "gambler" for c in check(won(3), 3).table_checks)
    assert met(check(won(4), 4, gambler_cards=True), "gambler") is True
    assert met(check(won(4), 4), "gambler") is False


def test_saboteur_exactly_one_reputation():
    """Secret Objectives, Saboteur: success with exactly 1 Reputation."""
    assert met(check(won(3, rep=1), 3), "saboteur") is True
    assert met(check(won(3, rep=2), 3), "saboteur") is False


def test_scrapper_posters_in_one_turn():
    """Secret Objectives, Scrapper: at least 4/6/6 posters junked in one single turn; one player's turn
    and their NPC turn are one turn, the round-start entry is its own."""
    log = ((1, 0, "", 2, None), (1, 0, "", 2, None), (2, None, "round_start", 3, None), (2, 1, "", 2, None))
    assert met(check(won(3), 3, log=log), "scrapper") is True
    assert met(check(won(4), 4, log=log), "scrapper") is False
    assert met(check(won(4), 4, log=log, max_junked=6), "scrapper") is True


def test_spy_traffic_director_turncoat():
    """Secret Objectives: Spy (first guess right), Traffic Director (all oppressors on one space), Turncoat
    (6/8/10 cards: at least that many with a success, fewer with a failure)."""
    r = check(won(3, opp=["s2", "s2"]), 3, spy_correct=(True, False, False), cards_played=(2, 2, 2))
    assert met(r, "spy", 0) and not met(r, "spy", 1) and met(r, "traffic_director") and met(r, "turncoat")
    assert not met(check(won(3, opp=["s2", "s1"]), 3), "traffic_director")
    lost = table(rep=0)
    assert met(check(lost, 3, cards_played=(1, 2, 2)), "turncoat") is True
    assert met(check(lost, 3, cards_played=(2, 2, 2)), "turncoat") is False
    assert met(check(lost, 3, spy_correct=(True, True, True)), "spy") is False


def test_completely_cooperative_mode():
    """Completely Cooperative Mode: no objectives; everyone wins if the Revolution succeeds."""
    out = check(won(3), 3, cooperative=True).as_json(("A", "B", "C"))
    assert out["mode"] == "cooperative" and all(seat["wins"] for seat in out["seats"])
    out = check(table(rep=0), 3, cooperative=True).as_json()
    assert not any(seat["wins"] for seat in out["seats"])


def test_future_terms_change_the_ranking():
    """value.py: with the poster weight, a poster where a civilian arrives later (not next turn) beats
    one nobody reaches; without it they tie."""
    s = table(civ=["s3"], players=["s1", "s4", "s4"])
    dice = Dice(black=("blue_x",) * 6, red=("yellow_arrow",) * 5 + ("yellow_x",))
    plain = [o for o in plan(s, dice=dice).options if o.activation and o.activation.kind == "poster"]
    # without it: the poster on s4 (the civilian's next step) is best, whatever the move; s0, where the
    # civilian arrives later, ties with every space nobody reaches
    best = max(o.score for o in plain)
    assert {BOARD.ids[o.activation.place_on] for o in plain if o.score == best} == {"s4"}
    rest = [o for o in plain if o.score != best]
    assert len({o.score for o in rest}) == 1
    assert {BOARD.ids[o.activation.place_on] for o in rest} == {"s0", "s1", "s2", "s3"}
    rich = [o for o in plan(s, Weights(), 2, dice).options if o.activation and o.activation.kind == "poster"]
    order = list(dict.fromkeys(BOARD.ids[o.activation.place_on] for o in rich))
    assert order[:2] == ["s4", "s0"]  # next step, then the one after


def test_npc_turn_forecast_for_suggest_is_cached():
    """suggest.py reuses one forecast per distinct state (the sabotage draw and staying share it)."""
    s = table(players=["s3", "s4", "s4"])
    f1 = npc_turn(BOARD, RULES, DICE, s, Valuer(BOARD, RULES, DICE, PLAIN, 0))
    opts = plan(s).options
    stay = [o for o in opts if o.move_to == IX["s3"]]
    assert all(o.score == f1.expected_value for o in stay)
