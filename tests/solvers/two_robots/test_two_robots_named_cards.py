"""Powers, Salvager abilities and Active Robot cards entered by name (solvers/two_robots/named_cards.py):
the rulebook names them ("Special Abilities", "Clarifications") but prints no text, so they are reminded in
their phase and named under the answers, never modelled."""
from __future__ import annotations

from solvers.two_robots.named_cards import KNOWN, Entered, known, not_modelled, reminders

SHOGUN = Entered(name="Shogun", kind="power", salvager="samurai", phase="event", text="")
KATANA = Entered(name="Katana", kind="ability", salvager="samurai", phase="any", text="")
MELTDOWN = Entered(name="Meltdown", kind="power", salvager="apocalypse", phase="event", text="")
SHOTS = Entered(name="Shots Fired", kind="robot_card", salvager=None, phase="event", text="")


def test_special_abilities_are_reminded_in_the_phase_they_name():
    """Special Abilities: the Salvager card names the phase its ability is used in; a Power card is the
    Event phase's (option A); the Active Robot cards are revealed in the Event phase (option B)."""
    cards = [SHOGUN, KATANA, MELTDOWN, SHOTS]
    assert reminders(cards, "samurai", "play") == [KATANA]
    assert reminders(cards, "samurai", "event") == [SHOGUN, KATANA, SHOTS]
    assert reminders(cards, "apocalypse", "event") == [MELTDOWN, SHOTS]
    assert reminders(cards, None, "draw") == []


def test_every_card_of_a_salvager_at_the_table_is_named_as_not_modelled():
    """The standard: a card that could change an answer is named under it when it is not modelled."""
    cards = [SHOGUN, KATANA, MELTDOWN, SHOTS]
    assert not_modelled(cards, ["samurai", None]) == [SHOGUN, KATANA, SHOTS]


def test_the_rulebook_s_clarifications_are_kept_with_the_names():
    """Clarifications: Cold Fusion and Balance reach every player and a tie costs each one damage; Meltdown
    lets an empty hand discard nothing; Katana and Shogun reveal without a reshuffle; the Orb with two
    robots draws two; a cancelled Scattershot affects none."""
    says = {k.name: k.says for k in KNOWN}
    assert "every player in a tie suffers one damage" in says["Cold Fusion"] == says["Balance"].replace("Peacemaker", "Apocalypse")
    assert "discard nothing" in says["Meltdown"]
    assert "not reshuffled" in says["Katana"] and "not reshuffled" in says["Shogun"]
    assert "two Active Robot cards" in says["Orb"]
    assert "affects none" in says["Scattershot"]
    assert known("  cold   FUSION ").name == "Cold Fusion" and known("Laser Beak") is None
