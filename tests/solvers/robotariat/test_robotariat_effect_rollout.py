"""The forecast's quick policy with Upgrade and Sabotage cards in play (card_effects.EffectRollout; issue 25: a
forecast that answers on the first view, cards or not). It returns what card_effects.EffectPolicy returns,
the table as its NPC turn starts: the turn-start effects applied before the rollout's estimate ranks the
turns ("Round Order": a this-turn effect comes at the start of the player's turn), the NPC turn's moves and
track changes after; where a card only sets a die of that NPC turn ("NPC Turn", rolling for movement), the
best of the estimate's shortlist scored exactly on that die; where a card acts otherwise at that NPC turn (a
move, a fine, a donation as it starts), the suggestions' exact turn. Its games are the same in the games helper's process (a round-start donation:
"Round Order" 1, "SPARK"). Example board, default (unverified) dice."""
from __future__ import annotations

import pickle
import random
from dataclasses import replace

from solvers.robotariat import card_effects as ce
from solvers.robotariat.forecast import Forecaster, _Game, _sample_game
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import CHARACTERS, TableState
from solvers.robotariat.policies import SuggestionPolicy
from solvers.robotariat.rollout import RolloutPolicy

B = DEFAULTS.board
IX = B.index
SET_BLACK = dict(kind="roll", when="next_npc_turn", die="black", face="blue_arrow")
ROUND_DONATION = dict(kind="donation", when="round_start", amount=3)


def _game(players: int, effects: ce.Effects | None = None) -> GameRules:
    return GameRules(board=B, rules=DEFAULTS.rules(players), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                     entry_track=DEFAULTS.entry_track, effects=effects or None)


def card(deck: str = "sabotage", seat: int = 0, **effect) -> ce.InPlay:
    return ce.InPlay(seat=seat, deck=deck, name="card", effect=ce.Effect(**effect), once=deck == "sabotage")


def table(**kw) -> TableState:
    s = dict(oppressors=(IX["p1"],), civilians=(), players=(IX["mm"],) * 3, characters=(None,) * 3,
             posters=(0,) * B.n, junk=0, funds=10, reputation=5, office=0, entry=IX["mm"], active=0, round=2)
    s.update(kw)
    return TableState(**s)


def _new_game(players: int = 4) -> TableState:
    """Setup: a new game on the example board, every player on a start space, round 1."""
    starts = ("sy", "up1", "mm", "up2", "ro")[:players]
    return TableState(oppressors=(), civilians=(), players=tuple(IX[x] for x in starts),
                      characters=("uberbot", "arcitech", "mt_rho", "alice_smith", None)[:players],
                      posters=(0,) * B.n, junk=0, funds=0, reputation=5, office=0, entry=IX["mm"], active=0, round=1)


def test_a_card_that_sets_the_black_die_takes_the_suggestions_turn():
    """NPC Turn, rolling for movement; Player Turn with NPC Turn. The Oppressor on Poster 3 goes to Move the
    Masses on the yellow arrow (1 face of 6); a card setting the black die to the blue arrow sends it surely
    to Upgrade 2, and the suggestions' best turn changes (stay on Move the Masses). The estimate reads the
    plain dice: where a card sets a die of this NPC turn, its shortlist is scored exactly on that die, and
    here the quick policy plays the suggestions' turn."""
    s = table(oppressors=(IX["p3"],), civilians=(IX["p2"],), players=(IX["mm"], IX["sy"], IX["ro"]))
    effects = ce.Effects.of([card(**SET_BLACK)], s)
    g = _game(3, effects)
    quick, exact = ce.EffectRollout(g, effects), ce.EffectPolicy(g, effects)
    assert quick.choose(s) == exact.choose(s)
    assert quick.choose(s).players[0] == IX["mm"]  # stays on Move the Masses, as the suggestions do
    # a later seat's turn: its NPC turn has no card, so the estimate ranks it from the table alone
    later = replace(s, active=1)
    assert not quick.sees_past_estimate(later)
    assert quick.choose(later) == RolloutPolicy(_game(3)).choose(later)


def test_an_npc_turn_fine_takes_the_suggestions_turn_and_starts_the_npc_turn_fined():
    """A held Upgrade card fining its holder 2 SPARK as each of their NPC turns starts ("SPARK": never below
    0): the estimate cannot see it, so the turn is the suggestions', and the table returned is the one the
    NPC turn starts from, fined."""
    s = table(funds=10)
    effects = ce.Effects.of([card(deck="upgrade", kind="fine", when="next_npc_turn", amount=2)], s)
    g = _game(3, effects)
    quick = ce.EffectRollout(g, effects)
    assert quick.sees_past_estimate(s)
    got = quick.choose(s)
    assert got == ce.EffectPolicy(g, effects).choose(s)
    left = ce.suggest_with(B, g.rules, g.dice, s, g.valuer(s), effects, lean=True).options[0].after
    assert left.funds >= 2 and got == replace(left, funds=left.funds - 2)


def _random_table(rng: random.Random, players: int) -> TableState:
    """A table mid-game on the example board: NPCs, players, posters and tracks at random."""
    n = B.n
    chars = rng.sample(list(CHARACTERS) + [None] * players, players)
    chars = [c if c not in chars[:i] else None for i, c in enumerate(chars)]
    posters = [0] * n
    for _ in range(rng.randint(0, 5)):
        posters[rng.randrange(n)] += 1
    opp = tuple(rng.randrange(n) for _ in range(rng.randint(0, 3)))
    civ = tuple(rng.randrange(n) for _ in range(rng.randint(0, 3)))
    return TableState(oppressors=opp, civilians=civ, players=tuple(rng.randrange(n) for _ in range(players)),
                      characters=tuple(chars), posters=tuple(posters), junk=rng.randint(0, 8 - sum(posters)),
                      funds=rng.randint(0, 30), reputation=rng.randint(2, 6), office=rng.randint(0, 10),
                      entry=rng.randrange(n), active=rng.randrange(players),
                      round=max(len(opp) + len(civ), rng.randint(1, 6)))


EFFECTS = (dict(kind="donation", when="round_start", amount=3), dict(kind="fine", when="round_start", amount=2),
           dict(kind="reputation", when="round_start", amount=1), dict(kind="donation", when="this_turn", amount=2),
           dict(kind="fine", when="this_turn", amount=1, track="office"),
           dict(kind="move", when="this_turn", piece="oppressor", index=0, path="blue", steps=1),
           SET_BLACK, dict(kind="fine", when="next_npc_turn", amount=2),
           dict(kind="move", when="next_npc_turn", piece="civilian", path="yellow", steps=2))


def test_the_quick_policy_is_the_rollouts_turn_from_the_turn_start_where_no_card_acts_at_the_npc_turn():
    """Over random tables and cards of every moment (turn start, NPC turn, round start; held or played; the
    holder's or any player's): where no card acts at this NPC turn (no die set, nothing as it starts), the
    table returned is before_npc(RolloutPolicy on the plain game from at_turn_start(s)); where one does, it
    is EffectPolicy's."""
    rng = random.Random(25)
    plain_turns = exact_turns = 0
    for k in range(40):
        players = 3 + k % 3
        s = _random_table(rng, players)
        chosen = [card(deck=rng.choice(("upgrade", "sabotage")), seat=rng.randrange(players),
                       who=rng.choice(("holder", "any")), **rng.choice(EFFECTS)) for _ in range(rng.randint(1, 2))]
        effects = ce.Effects.of(chosen, s)
        g = _game(players, effects)
        quick = ce.EffectRollout(g, effects)
        s0 = effects.at_turn_start(g.board, g.rules, s)
        got = quick.choose(s)
        if s0.ended is not None:
            assert got == s0
        elif quick.sees_past_estimate(s0):
            exact_turns += 1
            firing = effects.firing((ce.NPC, ce.round_of(s0), s0.active))
            if all(effects.cards[i].effect.kind == "roll" for i in firing):
                assert got in quick.inner.shortlist_of(s0, ce.ROLL_SHORTLIST)  # (the die's own test: below)
            else:
                assert got == ce.EffectPolicy(g, effects).choose(s)
        else:
            plain_turns += 1
            assert effects.dice_for(s0, g.dice) is g.dice
            after = RolloutPolicy(replace(g, effects=None)).choose(s0)
            assert got == (effects.before_npc(g.board, g.rules, after) if after.ended is None else after)
    assert plain_turns >= 15 and exact_turns >= 5


def test_a_die_a_card_sets_picks_the_best_of_the_estimates_shortlist_by_the_suggestions_score():
    """NPC Turn, rolling for movement, with a die set by the active seat's Upgrade card (either die, every
    character: Alice Smith and MT-ρ choose among the rolls the card leaves): the estimate (plain dice)
    shortlists card_effects.ROLL_SHORTLIST turns, and the one played is the suggestions' first among them. The
    oracle is the suggestions' own list with the card (suggest_with: best first, ties in their order, every plain
    turn before an extra poster move), where they list the table played (their Scrap Yard placements may differ
    from the estimate's)."""
    rng = random.Random(26)
    dice = [dict(SET_BLACK, die=die, face=face) for die in ("black", "red")
            for face in ("blue_arrow", "yellow_arrow", "blue_x", "yellow_x")]
    compared = 0
    for k in range(90):
        players = 3 + k % 3
        s = _random_table(rng, players)
        if k % 2 == 0:  # (the characters who choose their roll, often)
            chars = list(s.characters)
            chars[s.active] = ("alice_smith", "mt_rho")[k // 2 % 2]
            chars = [c if i == s.active or c != chars[s.active] else None for i, c in enumerate(chars)]
            s = replace(s, characters=tuple(chars))
        effects = ce.Effects.of([card(deck="upgrade", seat=s.active, **dice[k % len(dice)])], s)
        g = _game(players, effects)
        quick = ce.EffectRollout(g, effects)
        s0 = effects.at_turn_start(g.board, g.rules, s)
        if s0.ended is not None:
            continue
        got = quick.choose(s)
        listed = [o.after for o in ce.suggest_with(B, g.rules, g.dice, s, g.valuer(s0), effects).options]
        if got in listed:
            compared += 1
            short = set(quick.inner.shortlist_of(s0, ce.ROLL_SHORTLIST))
            assert got == next(t for t in listed if t in short)
    assert compared >= 60


def test_the_shortlist_holds_the_rollouts_own_choice():
    """RolloutPolicy.shortlist_of(s, k) lists the tables of the estimate's k best turns (extra poster moves
    included): the rollout's own choice, the best of its NEAR_END_SHORTLIST by the exact score, is among them."""
    rng = random.Random(27)
    for k in range(40):
        players = 3 + k % 3
        s = _random_table(rng, players)
        if s.ended is not None:
            continue
        policy = RolloutPolicy(_game(players))
        assert policy.choose(s) in policy.shortlist_of(s, 3)


def test_the_rollout_reads_no_card():
    """The quick estimate's tables read the plain dice: RolloutPolicy never asks the game for a card's dice
    or effects (GameRules.dice_for, GameRules.effects), so the inner one's game has none."""
    s = _new_game(3)
    effects = ce.Effects.of([card(**SET_BLACK)], s)

    class NoCards(GameRules):
        def dice_for(self, st):
            raise AssertionError("the rollout asked for a card's dice")

        def __getattribute__(self, name):
            if name == "effects":
                raise AssertionError("the rollout read the cards")
            return super().__getattribute__(name)

    g = NoCards(board=B, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                entry_track=DEFAULTS.entry_track)
    play = _Game(replace(_game(3), effects=None), RolloutPolicy(g))
    for k in range(3):
        _sample_game(play.g, play, s, random.Random(f"0:{k}"), False)
    assert ce.EffectRollout(_game(3, effects), effects).inner.game.effects is None


def test_without_cards_the_forecast_keeps_the_plain_rollout():
    g = _game(3)
    assert type(ce.quick_policy(g)) is RolloutPolicy
    s = _new_game(3)
    effects = ce.Effects.of([card(deck="upgrade", **ROUND_DONATION)], s)
    assert type(ce.quick_policy(_game(3, effects))) is ce.EffectRollout


def test_the_games_rules_with_cards_pickle_for_the_helper():
    """The helper gets the forecast's GameRules pickled: the cards in play, pinned to their moments, come
    back equal, and the policy built from them is the cards' quick one."""
    s = _new_game(4)
    effects = ce.Effects.of([card(deck="sabotage", **ROUND_DONATION), card(deck="upgrade", seat=2, **SET_BLACK)], s)
    g = _game(4, effects)
    back, start, npc_next, seed = pickle.loads(pickle.dumps((g, s, False, 7)))
    assert back == g and back.effects.moments == effects.moments and start == s
    assert type(ce.quick_policy(back)) is ce.EffectRollout


DONATION_GAMES = 200


def test_with_a_round_start_donation_the_helper_plays_the_games_one_process_plays(helper, an_idle_core):
    """Round Order 1 (the round starts with the entry), SPARK: a Sabotage card played for 3 SPARK at the next
    round start. Shared with the helper (which plays with the same quick policy from the pickled rules),
    the games counted are, in order, the ones one process plays alone, and the helper played some."""
    s = _new_game(4)
    effects = ce.Effects.of([card(deck="sabotage", **ROUND_DONATION)], s)
    g = _game(4, effects)
    both = Forecaster(g, s, ce.EffectPolicy(g, effects), seed=9, rollout=ce.quick_policy(g), helper=helper)
    both.exact_tried = True
    both.run(0.5)
    both.run(0.3)  # a second view: the helper keeps this forecast's policy warm under its token
    for _ in range(20):  # more short views while the helper played none yet (a slow or loaded machine)
        if both.helped > 0:
            break
        both.run(0.3)
    assert both.helped > 0 and both.runs >= 2
    alone = Forecaster(g, s, ce.EffectPolicy(g, effects), seed=9, rollout=ce.quick_policy(g))
    alone.exact_tried = True
    alone.run(None, until_runs=both.runs)
    assert both.games == alone.games
    assert both.result().p_success == alone.result().p_success
    # the donation counts: the same games without the card end with less SPARK on the whole (over a fixed count of
    # games: the few SPARK between the two sums can flip over a count the clock decides)
    alone.run(None, until_runs=max(DONATION_GAMES, both.runs))
    bare = Forecaster(_game(4), s, SuggestionPolicy(_game(4)), seed=9, rollout=ce.quick_policy(_game(4)))
    bare.exact_tried = True
    bare.run(None, until_runs=DONATION_GAMES)
    assert sum(f for _, _, f in bare.games[:DONATION_GAMES]) < sum(f for _, _, f in alone.games[:DONATION_GAMES])
