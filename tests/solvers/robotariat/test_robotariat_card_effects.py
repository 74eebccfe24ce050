"""Upgrade and Sabotage card effects as the players enter them (solvers/robotariat/card_effects.py), applied
to the inputs of the NPC turn, the suggestions and the forecast. Each test names the rule it relies on:
the rulebook's sections ("NPC Turn", "Encounter Quick-Reference Table", "Game End", "Reputation",
"SPARK", "Round Order") and the facts file's space activations (§5: a Sabotage card is used once and
stays face up while its effect lasts; an Upgrade card is a lasting ability). Example board, default
(unverified) dice: black 4 blue arrows, 1 yellow arrow, 1 blue X; red 4 yellow arrows, 1 blue arrow, 1
yellow X."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from solvers.robotariat import card_effects as ce
from solvers.robotariat.forecast import game_forecast
from solvers.robotariat.game import GameRules, start_round
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import TableState
from solvers.robotariat.npc_turn import npc_turn
from solvers.robotariat.policies import SuggestionPolicy
from solvers.robotariat.suggest import headline, suggest

B = DEFAULTS.board
IX = B.index
RULES = DEFAULTS.rules(3)  # 3 players: the SPARK target is 45 (Revolution Table)
G = GameRules(board=B, rules=RULES, dice=DEFAULTS.dice, weights=DEFAULTS.weights, entry_track=DEFAULTS.entry_track)


def table(**kw) -> TableState:
    s = dict(oppressors=(IX["p1"],), civilians=(), players=(IX["mm"],) * 3, characters=(None,) * 3,
             posters=(0,) * B.n, junk=0, funds=10, reputation=5, office=0, entry=IX["mm"], active=0, round=2)
    s.update(kw)
    return TableState(**s)


def card(deck: str = "sabotage", seat: int = 0, **effect) -> ce.InPlay:
    return ce.InPlay(seat=seat, deck=deck, name="card", effect=ce.Effect(**effect), once=deck == "sabotage")


def turn(s: TableState, effects: ce.Effects | None = None):
    """The NPC turn seat s.active conducts, with the cards' effects on its inputs (the funds' change
    counted from `s`, the card's own change included)."""
    dice, start = DEFAULTS.dice, s
    if effects:
        s, dice = effects.before_npc(B, RULES, s), effects.dice_for(s, dice)
    out = npc_turn(B, RULES, dice, s, G.valuer(s)).summary()
    out["funds_delta"] += s.funds - start.funds
    return out


SET_BLACK = dict(kind="roll", when="next_npc_turn", die="black", face="blue_arrow")


def test_a_card_that_sets_the_black_die_makes_the_oppressor_s_fine_certain():
    """NPC Turn, Rolling for movement: the black die moves every Oppressor; Encounter table: an Oppressor
    fines each player on its space 2 SPARK. Oppressor on Poster 1, all three players on Move the Masses
    (Poster 1's blue next space). Rolled, the blue arrow (4 faces of 6) brings the fine: -6 at 2/3. With a
    card setting the black die to the blue arrow for its holder's NPC turn, the fine is certain."""
    s = table()
    plain = turn(s)
    assert plain["p_fine"] == Fraction(2, 3) and plain["funds_delta"] == -4
    effects = ce.Effects.of([card(**SET_BLACK)], s)
    with_card = turn(s, effects)
    assert with_card["p_fine"] == 1 and with_card["funds_delta"] == -6
    # the card is its holder's: seat 1's NPC turn rolls the die as usual
    other = replace(s, active=1)
    assert turn(other, ce.Effects.of([card(**SET_BLACK)], other))["p_fine"] == Fraction(2, 3)
    # ... unless it says any player's
    assert turn(other, ce.Effects.of([card(**SET_BLACK, who="any")], other))["p_fine"] == 1


def test_a_card_that_moves_an_oppressor_onto_the_players_resolves_its_encounter():
    """NPC Turn: an NPC that moves onto a space encounters everything there; Encounter table: 4 or more
    posters, Civilians and players make it suspicious (Reputation -1) and it fines each player 2 SPARK.
    Oppressor 1 one step along the blue path from Poster 1 lands on Move the Masses with 3 players and a
    Civilian: 4 in all."""
    s = table(civilians=(IX["mm"],))
    e = ce.Effect(kind="move", piece="oppressor", index=0, path="blue", steps=1)
    after = ce.apply_effect(B, RULES, s, e, 0)
    assert after.oppressors == (IX["mm"],) and after.reputation == 4 and after.funds == 4
    # two steps along the yellow path: Poster 1 -> Sabotage 1 -> Recruitment Office (nobody there)
    e2 = ce.Effect(kind="move", piece="oppressor", index=0, path="yellow", steps=2)
    after = ce.apply_effect(B, RULES, replace(s, office=3), e2, 0)
    assert after.oppressors == (IX["ro"],) and after.office == 1 and after.funds == 10  # the Office fined 2
    # a Civilian moved onto the players donates 1 per player (Encounter table)
    c = ce.Effect(kind="move", piece="civilian", index=0, to=IX["p2"])
    after = ce.apply_effect(B, RULES, table(civilians=(IX["mm"],), players=(IX["p2"],) * 3), c, 0)
    assert after.civilians == (IX["p2"],) and after.funds == 13
    # the Entry token and a player's piece move without an encounter
    assert ce.apply_effect(B, RULES, s, ce.Effect(kind="move", piece="entry", path="blue", steps=2), 0).entry == IX["up2"]
    moved = ce.apply_effect(B, RULES, s, ce.Effect(kind="move", piece="player", index=1, to=IX["p1"]), 0)
    assert moved.players == (IX["mm"], IX["p1"], IX["mm"]) and moved.funds == 10


def test_fines_donations_and_reputation_keep_the_tracks_rules():
    """SPARK: taken SPARK leaves the Funds track (never below 0); Game End: the Revolution succeeds the
    moment the Funds reach the target (45 with 3 players) and fails the moment Reputation is 0; the Office
    Contributions track runs 0..10."""
    s = table(funds=2, office=9)
    fine = ce.Effect(kind="fine", amount=3)
    assert ce.apply_effect(B, RULES, s, fine, 0).funds == 0
    assert ce.apply_effect(B, RULES, s, ce.Effect(kind="fine", amount=3, track="office"), 0).office == 6
    assert ce.apply_effect(B, RULES, s, ce.Effect(kind="donation", amount=5, track="office"), 0).office == 10
    done = ce.apply_effect(B, RULES, table(funds=44), ce.Effect(kind="donation", amount=1), 0)
    assert done.funds == 45 and done.ended == "success"
    lost = ce.apply_effect(B, RULES, table(reputation=1), ce.Effect(kind="reputation", amount=-1), 0)
    assert lost.reputation == 0 and lost.ended == "failure"
    assert ce.apply_effect(B, RULES, table(reputation=3), ce.Effect(kind="reputation", amount=2), 0).reputation == 5
    # nothing happens once the game is over
    assert ce.apply_effect(B, RULES, done, ce.Effect(kind="fine", amount=5), 0).funds == 45


def test_a_fine_at_the_npc_turn_changes_its_expectation():
    """SPARK (taken SPARK leaves the track) with NPC Turn: a card's 3 SPARK fine as its holder's NPC turn
    starts. From 10 SPARK the NPC turn's expected change is -4 (the Oppressor's fine at 2/3) and the fine's
    -3 on top: -7."""
    s = table()
    effects = ce.Effects.of([card(kind="fine", when="next_npc_turn", amount=3)], s)
    assert turn(s, effects)["funds_delta"] == -7
    assert turn(s)["funds_delta"] == -4


def test_a_sabotage_card_counts_once_and_an_upgrade_every_round():
    """Round Order 1: each round starts with the next NPC of the entry track entering on the Entry token's
    space and meeting it; facts §5: a Sabotage card is used once, an Upgrade card is a lasting ability.
    Round 3's entry is a Civilian (Set Up 6: C, O, C, ...) on Move the Masses, where the 3 players stand:
    +3. A round-start donation of 2 counts at round 3's start for both cards, at round 4's only for the
    Upgrade."""
    s = table(oppressors=(IX["p1"],), civilians=(IX["p2"],), round=3)  # round 3's NPC still to enter
    sab = card(kind="donation", when="round_start", amount=2)
    upg = card(deck="upgrade", kind="donation", when="round_start", amount=2)
    assert start_round(G, s).funds == 13
    for c, fourth in ((sab, 0), (upg, 2)):
        g = replace(G, effects=ce.Effects.of([c], s))
        r3 = start_round(g, s)
        assert r3.funds == 15 and r3.civilians == (IX["p2"], IX["mm"])
        # round 4's entry is an Oppressor on Move the Masses: it fines the 3 players (-6) and counts 4 there
        r4 = start_round(g, replace(r3, round=4))
        assert r4.funds == 15 - 6 + fourth and r4.reputation == 4


def test_a_used_once_card_is_pinned_to_its_holder_s_next_npc_turn():
    """Round Order 2-4: each player takes a turn, then conducts an NPC turn. A Sabotage card whose holder
    (seat 0) has already had this round's NPC turn (seat 1 is playing) happens at seat 0's NPC turn next
    round; with the round unknown, the NPCs entered say which round it is."""
    s = table(active=1, round=2)
    effects = ce.Effects.of([card(**SET_BLACK)], s)
    assert effects.moments == (("npc", 3, 0),)
    assert effects.dice_for(replace(s, active=0, round=3), DEFAULTS.dice).black == ("blue_arrow",) * 6
    assert effects.dice_for(replace(s, active=0, round=4), DEFAULTS.dice) == DEFAULTS.dice
    # round-start cards: the next round start (round 2's entry has happened: 2 NPCs entered, round 2)
    two = table(oppressors=(IX["p1"],), civilians=(IX["p2"],), round=2)
    assert ce.Effects.of([card(kind="fine", when="round_start", amount=1)], two).moments == (("round_start", 3, None),)


def test_the_suggestions_steer_by_a_card_that_sets_the_black_die():
    """Player Turn with NPC Turn: the suggestions score each turn by the NPC turn after it. The Oppressor on
    Poster 3 goes to Move the Masses on the yellow arrow (1 face of 6) and elsewhere on the others; with
    the black die set to the blue arrow it surely goes to Upgrade 2, so staying on Move the Masses is safe
    and the best turn changes."""
    s = table(oppressors=(IX["p3"],), civilians=(IX["p2"],), players=(IX["mm"], IX["sy"], IX["ro"]))
    plain = suggest(B, RULES, DEFAULTS.dice, s, G.valuer(s)).options[0]
    assert headline(B, s, plain) == "On Move the Masses, move Civilian 1 to Scrap Yard, then move to Poster 1"
    assert plain.score == Fraction(17905, 15552)
    effects = ce.Effects.of([card(**SET_BLACK)], s)
    best = ce.suggest_with(B, RULES, DEFAULTS.dice, s, G.valuer(s), effects).options[0]
    assert headline(B, s, best) == "Stay on Move the Masses, move Civilian 1 to Scrap Yard"
    assert best.score == Fraction(5635, 3888)
    # the option's table is the one the player leaves: the card acts as the NPC turn starts
    assert best.after.oppressors == (IX["p3"],)


def test_the_forecast_plays_the_cards():
    """Game End: after round 6 without enough SPARK the Revolution fails; Encounter table: a Civilian gives
    1 SPARK per player it meets. The last NPC turn of the game (every NPC of the track has entered), 42 of
    45 SPARK, the three players on Move the Masses and a Civilian on Poster 3 (its yellow next space): it
    succeeds on the red die's yellow arrow (4 faces of 6). Set to the yellow arrow by a card, it always
    does. Before the turn, Move the Masses brings that Civilian onto the players at once; a lasting 3 SPARK
    fine at the last player's turn start leaves no way to 45."""
    s = table(oppressors=(IX["sb1"],) * 3, civilians=(IX["p3"], IX["ro"], IX["ro"]), funds=42, active=2, round=6)
    plain = game_forecast(G, s, SuggestionPolicy(G), npc_turn_next=True)
    assert plain.method == "exact" and plain.p_success.exact == Fraction(2, 3)
    red = ce.Effects.of([card(seat=2, kind="roll", when="next_npc_turn", die="red", face="yellow_arrow")], s)
    g = replace(G, effects=red)
    assert game_forecast(g, s, ce.EffectPolicy(g, red), npc_turn_next=True).p_success.exact == 1
    # before the turn: Move the Masses brings the Civilian onto the players at once (+3)
    assert game_forecast(G, s, SuggestionPolicy(G)).p_success.exact == 1
    fine = ce.Effects.of([card(deck="upgrade", seat=2, kind="fine", amount=3)], s)
    g = replace(G, effects=fine)
    lost = game_forecast(g, s, ce.EffectPolicy(g, fine))
    assert lost.p_success.exact == 0 and lost.p_fail_time.exact == 1


def test_effects_say_what_they_miss_and_read_as_words():
    """The entry form's checks (a move needs a piece and where; a die is set for an NPC turn) and the words
    the answers list under a counted card."""
    assert ce.effect_problem(ce.Effect(kind="move", piece="oppressor")) == (
        "to", "say where it moves: a space, or a path and a number of steps")
    assert ce.effect_problem(ce.Effect(kind="roll", die="black", face="blue_arrow"))[0] == "when"
    assert ce.effect_problem(ce.Effect(kind="reputation", amount=0))[0] == "amount"
    assert ce.effect_problem(ce.Effect(kind="other", text="draw again")) is None
    c = card(kind="move", when="next_npc_turn", piece="oppressor", index=0, path="blue", steps=2)
    assert ce.counted_line(B, c, ("Ann", "Bo", "Cy")) == (
        "Sabotage card “card” (Ann): Oppressor 1 moves two steps along the blue path, at the NPC turn, once; "
        "as read by the players (card texts unverified).")
    assert ce.in_play(0, "sabotage", "x", c.effect, played=False, done=False) is None  # not used yet
    assert ce.in_play(0, "sabotage", "x", c.effect, played=True, done=True) is None  # face down
    assert ce.in_play(0, "upgrade", "x", c.effect, played=False, done=False).once is False
    assert ce.in_play(0, "upgrade", "x", ce.Effect(kind="other"), played=False, done=False) is None


def test_a_move_of_a_piece_not_on_the_board_changes_nothing_and_says_so():
    """NPC Turn: only the NPCs on the board move. A card that moves Oppressor 2 while one Oppressor is on
    the board moves nothing, and the answers say so rather than dropping the card silently."""
    s = table()
    e = ce.Effect(kind="move", when="next_npc_turn", piece="oppressor", index=1, path="blue", steps=1)
    assert ce.apply_effect(B, RULES, s, e, 0) == s
    effects = ce.Effects.of([card(**vars(e))], s)
    assert effects.notes(s) == ["card: Oppressor 2 is not on the board, so its move changes nothing for now."]
    # with two Oppressors on the board the same card moves the second one, and there is no note
    two = table(oppressors=(IX["p1"], IX["p2"]))
    assert ce.Effects.of([card(**vars(e))], two).notes(two) == []
