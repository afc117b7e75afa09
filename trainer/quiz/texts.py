"""Words the quiz shows, in French first with English alongside (or Italian when chosen).

Imports the rules layer (card names) and the signals layer (signs, gestures) only. Proper names
of the cards stay French in every language (``la Vache``), with a translation beside them.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.rules.cards import Card, Group
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign

LANGUAGES = ("fr", "en", "it")


class QuizError(ValueError):
    """A bad quiz argument: unknown language, kind, item, or an answer that is not one of the choices."""


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise QuizError(f"unknown language {language!r}: use 'fr', 'en' or 'it'")
    return language


@dataclass(frozen=True, slots=True)
class Text:
    """The same words in French, English and Italian."""

    fr: str
    en: str
    it: str

    def show(self, language: str = "fr") -> str:
        """French with English beside it (``fr``), English with French (``en``), Italian with French (``it``)."""
        check_language(language)
        if language == "fr":
            return self.fr if self.fr == self.en else f"{self.fr} — {self.en}"
        if language == "en":
            return self.en if self.fr == self.en else f"{self.en} — {self.fr}"
        return self.it if self.fr == self.it else f"{self.it} — {self.fr}"

    def only(self, language: str) -> str:
        check_language(language)
        return getattr(self, language)

    def all(self) -> tuple[str, str, str]:
        return (self.fr, self.en, self.it)


def card_text(card: Card) -> Text:
    """A card's name as players say it: its nickname where it has one (kept French in Italian, with
    the Italian name beside), else the plain name. Never its code (``3D``): codes are for files and
    logs, not for a learner's eyes."""
    if card.nickname:
        return Text(card.nickname, card.nickname_english or card.nickname, f"{card.nickname}, {card.italian}")
    return Text(card.french, card.english, card.italian)


def card_name(card: Card) -> Text:
    """The name alone, without the code: what a card → name question expects."""
    if card.nickname:
        return Text(card.nickname, card.nickname_english or card.nickname, card.nickname)
    return Text(card.french, card.english, card.italian)


GROUP_TEXT = {
    Group.LUETTES: Text("les luettes (les 4 plus fortes)", "luettes (the 4 strongest)", "luettes (le 4 più forti)"),
    Group.DOUBLES: Text("les doubles (niveaux 5 à 8)", "doubles (levels 5 to 8)", "doubles (livelli da 5 a 8)"),
    Group.FIGURES: Text("les figures (as, rois, cavaliers, valets)", "figures (aces, kings, knights, jacks)",
                        "figures (assi, re, cavalli, fanti)"),
    Group.BIGAILLES: Text("les bigailles (les petites)", "bigailles (the small cards)", "bigailles (le carte basse)"),
}

GESTURE_TEXT = {
    Gesture.BROWS_UP: Text("lever les sourcils", "raise the eyebrows", "alzare le sopracciglia"),
    Gesture.LOOK_UP: Text("regarder le ciel", "look up to the sky", "guardare il cielo"),
    Gesture.LIP_CORNER: Text("relever un coin des lèvres", "raise one corner of the lips",
                             "alzare un angolo delle labbra"),
    Gesture.HEAD_TILT: Text("pencher la tête", "tilt the head", "inclinare la testa"),
    Gesture.WINK: Text("cligner d'un œil", "wink (one eye closed)", "fare l'occhiolino"),
    Gesture.EYES_CLOSED: Text("fermer les deux yeux", "close both eyes", "chiudere gli occhi"),
    Gesture.POUT: Text("faire la moue", "pout (lips pushed forward)", "fare il broncio"),
    Gesture.MOUTH_OPEN: Text("ouvrir la bouche", "open the mouth", "aprire la bocca"),
    Gesture.TONGUE_OUT: Text("tirer la langue", "stick out the tongue", "tirare fuori la lingua"),
    Gesture.LIP_BITE: Text("se mordre la lèvre inférieure", "bite the lower lip", "mordersi il labbro inferiore"),
    Gesture.SHRUG: Text("hausser une épaule", "shrug one shoulder", "alzare una spalla"),
    Gesture.GRIMACE: Text("faire la grimace", "grimace", "fare una smorfia"),
    Gesture.THUMB: Text("montrer le pouce", "show the thumb", "mostrare il pollice"),
    Gesture.PINKY: Text("montrer le petit doigt", "show the little finger", "mostrare il mignolo"),
    Gesture.INDEX: Text("montrer l'index", "show the index finger", "mostrare l'indice"),
    Gesture.INDEX_MIDDLE: Text("montrer l'index et le majeur", "show index and middle fingers",
                               "mostrare indice e medio"),
    Gesture.RING: Text("montrer l'annulaire", "show the ring finger", "mostrare l'anulare"),
    Gesture.WRITING: Text("mimer l'écriture", "mime writing", "mimare la scrittura"),
}

def sign_text(sign: Sign) -> Text:
    """What a sign says: ``la Vache``, ``un as``, ``misère`` … (names, never card codes)."""
    french = {Sign.MISERE: "misère (main faible)", Sign.MORDIENNE: "je tente la mordienne"}.get(sign, sign.french)
    return Text(french, sign.english, sign.italian)


SPOILED = Text("pourri (égalité, personne ne gagne)", "spoiled (a tie, nobody wins)",
               "pourri (pareggio, nessuno vince)")
