"""The table's reducer (solvers/robotariat/table.py), case by case from the rulebook ("Round Order", "Set Up",
"Player Turn", "Types of Space Activations", "Secret Objectives", "Character Abilities")."""
from __future__ import annotations

import pytest

from solvers.errors import InputError
from solvers.robotariat import table as rt
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import TableState
from solvers.robotariat.turn import Activation

B = DEFAULTS.board
IX = B.index
SETTING = rt.Setting(game=GameRules(board=B, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                                    entry_track=DEFAULTS.entry_track),
                     starting_reputation=5, character_starts=DEFAULTS.character_starts)


def game(**kw) -> rt.Game:
    s = dict(oppressors=(), civilians=(), players=(IX["mm"], IX["sy"], IX["p2"]), characters=("a1_5", None, None),
             posters=(0,) * B.n, junk=0, funds=0, reputation=5, office=0, entry=IX["mm"], active=0, round=1)
    s.update(kw)
    return rt.Game(state=TableState(**s))


def test_set_up_puts_everyone_on_their_start_and_keeps_a1_5_s_card_off_the_table():
    """Set Up 4-6 and A1-5: characters on their start spaces, the Entry token on Move the Masses, round 1's
    NPC still to enter; A1-5's Upgrade card drawn at setup is kept on A1-5's phone (its seat's private state),
    not in the table's card list; entered as a setup card it counts for no objective."""
    g = rt.reduce(SETTING, game(funds=20, round=4, oppressors=(IX["p1"],)), rt.Setup())
    s = g.state
    assert s.players[0] == IX["sy"] and s.entry == IX["mm"] and s.funds == 0 and s.round == 1 and not s.oppressors
    assert s.reputation == 5 and g.log == () and g.office_track == (0,)
    assert g.cards == ()
    g = rt.reduce(SETTING, g, rt.AddCard(seat=0, deck="upgrade", name="x", setup=True))
    g = rt.reduce(SETTING, g, rt.PlayCard(index=0))
    assert g.cards_played(3) == [0, 0, 0]  # the setup card counts for nobody


def test_the_next_round_starts_only_once_every_player_has_had_a_turn():
    """Round Order: the first player takes a turn and conducts an NPC turn, then the next, until all have;
    only then does the next round's NPC enter. Round 1's entry comes first of all."""
    g = game()
    assert g.round_can_start(SETTING.game)  # round 1: its NPC has not entered yet
    g = rt.reduce(SETTING, g, rt.StartRound())
    assert g.state.civilians == (IX["mm"],) and g.state.round == 1  # Set Up 6: a Civilian first
    for seat in range(3):
        with pytest.raises(InputError, match="still to play"):
            rt.reduce(SETTING, g, rt.StartRound())
        assert not g.round_can_start(SETTING.game)
        g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[seat]))
        g = rt.reduce(SETTING, g, rt.Roll(black="blue_x", red="yellow_x"))
    assert g.played_this_round() == {0, 1, 2} and g.state.active == 0 and g.round_done()
    # Round Order, step 1 comes first: no one plays a second lap of round 1
    with pytest.raises(InputError, match="start round 2 first") as err:
        rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[0]))
    assert err.value.path == "do"
    with pytest.raises(InputError, match="start round 2 first"):
        rt.reduce(SETTING, g, rt.Roll(black="blue_x", red="yellow_x"))
    g = rt.reduce(SETTING, g, rt.StartRound())
    assert g.state.round == 2 and len(g.state.oppressors) == 1 and g.log[-1].turn == "round_start"
    assert not g.round_done()
    g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[0]))


def test_the_revolution_fails_once_round_6_is_over_without_enough_spark():
    """Game End: after 6 rounds without the SPARK the Revolution Table asks for, the Revolution fails at
    once; before the last seat's NPC turn of round 6 the game goes on."""
    g = rt.reduce(SETTING, game(), rt.StartRound())
    for _ in range(5):
        for seat in range(3):
            g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[seat]))
            g = rt.reduce(SETTING, g, rt.Roll(black="blue_x", red="yellow_x"))
        g = rt.reduce(SETTING, g, rt.StartRound())
    assert g.state.round == 6 and g.state.ended is None
    for seat in range(3):
        assert g.state.ended is None
        g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[seat]))
        g = rt.reduce(SETTING, g, rt.Roll(black="blue_x", red="yellow_x"))
    assert g.state.funds < 18 and g.state.ended == "failure"
    with pytest.raises(InputError, match="the game is over"):
        rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[0]))


def test_a_turn_must_follow_the_rules():
    """Movement: one black line at most. Activations: not where an Oppressor stands; the poster supply is 8."""
    g = rt.reduce(SETTING, game(), rt.StartRound())
    with pytest.raises(InputError) as e:
        rt.reduce(SETTING, g, rt.PlayTurn(move_to=IX["sy"]))
    assert e.value.path == "move_to"
    blocked = rt.Game(state=TableState(**{**g.state.__dict__, "oppressors": (IX["mm"],)}), log=g.log)
    act = Activation(kind="move_the_masses", space=IX["mm"], when="here", npc="civilian", npc_index=0, npc_to=IX["p1"])
    with pytest.raises(InputError) as e:
        rt.reduce(SETTING, blocked, rt.PlayTurn(move_to=IX["mm"], activation=act))
    assert e.value.path == "activate.space"
    full = rt.Game(state=TableState(**{**g.state.__dict__, "junk": 8}), log=g.log)
    poster = Activation(kind="poster", space=IX["p1"], when="after_move", place_on=IX["p1"])
    with pytest.raises(InputError, match="posters are out"):
        rt.reduce(SETTING, full, rt.PlayTurn(move_to=IX["p1"], activation=poster))
    after = rt.reduce(SETTING, g, rt.PlayTurn(move_to=IX["p1"], activation=poster))
    assert after.state.posters[IX["p1"]] == 1 and after.turn_played()
    with pytest.raises(InputError, match="NPC turn comes next"):
        rt.reduce(SETTING, after, rt.PlayTurn(move_to=IX["p1"]))


def test_cards_are_entered_by_name_and_counted_for_the_objectives():
    """Secret Objectives: Dealer (most cards played, ties count), Turncoat (all cards played), Gambler
    ("Sliding Scale" or "Adjust Traffic Reports" played); a held card is not played yet."""
    g = game(characters=(None, None, None))
    g = rt.reduce(SETTING, g, rt.AddCard(seat=1, deck="upgrade", name="sliding scale"))
    g = rt.reduce(SETTING, g, rt.AddCard(seat=2, deck="sabotage", name="", played=True))
    assert g.cards_played(3) == [0, 0, 1] and not g.gambler_cards_played()
    assert g.cards[1].name == "Sabotage card"  # a card whose title nobody typed keeps its deck's name
    g = rt.reduce(SETTING, g, rt.PlayCard(index=0))
    assert g.cards_played(3) == [0, 1, 1] and g.gambler_cards_played()
    with pytest.raises(InputError) as e:
        rt.reduce(SETTING, g, rt.AddCard(seat=0, deck="upgrade", name="x", setup=True))
    assert e.value.path == "setup"  # only A1-5 draws a card at setup
    g = rt.reduce(SETTING, g, rt.RemoveCard(index=0))
    assert g.cards_played(3) == [0, 0, 1]


def test_the_table_applies_a_card_s_effect_at_its_moment_and_turns_a_sabotage_card_face_down():
    """Facts §5: a Sabotage card is used once (face up while its effect lasts, then face down), an Upgrade
    card is a lasting ability. A fine of 3 at the holder's NPC turn happens with that Roll (from 10: the
    blue X moves no NPC, so 7), then the card is face down and the next Roll is plain. A played card's
    start-of-turn effect happens when it is marked played; an Upgrade's at each of its holder's turns."""
    from solvers.robotariat.card_effects import Effect

    g = game(funds=10, civilians=(IX["p2"],), round=1)
    fine = Effect(kind="fine", when="next_npc_turn", amount=3)
    g = rt.reduce(SETTING, g, rt.AddCard(seat=0, deck="sabotage", name="Tax", played=True, effect=fine))
    assert g.state.funds == 10 and not g.cards[0].done
    g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[0]))
    g = rt.reduce(SETTING, g, rt.Roll(black="blue_x", red="yellow_x"))
    assert g.state.funds == 7 and g.cards[0].done
    g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[1]))
    g = rt.reduce(SETTING, g, rt.Roll(black="blue_x", red="yellow_x"))
    assert g.state.funds == 7
    # a Sabotage card's this-turn effect: at once when played (Reputation 5 -> 4)
    rep = Effect(kind="reputation", amount=-1)
    g = rt.reduce(SETTING, g, rt.AddCard(seat=2, deck="sabotage", name="Riot", effect=rep))
    assert g.state.reputation == 5
    g = rt.reduce(SETTING, g, rt.PlayCard(index=1))
    assert g.state.reputation == 4 and g.cards[1].done
    # an Upgrade card of seat 2 giving 1 SPARK at the start of each of its turns
    gift = Effect(kind="donation", amount=1)
    g = rt.reduce(SETTING, g, rt.AddCard(seat=2, deck="upgrade", name="Fans", effect=gift))
    g = rt.reduce(SETTING, g, rt.PlayTurn(move_to=g.state.players[2]))
    assert g.state.funds == 8
    g = rt.reduce(SETTING, g, rt.CardDone(index=2))
    assert g.effects().cards == ()
