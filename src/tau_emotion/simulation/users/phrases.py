"""Phrase banks for the scripted emotional user: how an emotion condition sounds.

The emotion colours the opening and the complaints; politeness sets the register (greetings,
please/thanks); urgency adds pressure and shortens replies; trust adds requests to
double-check. Banks are small on purpose: the scripted user is a deterministic test and
benchmark device, and its wording only has to be recognisably different per condition.
"""

from __future__ import annotations

from tau_emotion.emotions.space import Emotion as E
from tau_emotion.emotions.space import Family as F

FEELING: dict[str, tuple[str, ...]] = {
    E.ANNOYANCE: ("This is a bit annoying, honestly.", "I'm irritated that I even have to ask."),
    E.FRUSTRATION: ("I'm really frustrated with this.", "This has been so frustrating."),
    E.EXASPERATION: ("I'm at my wits' end here.", "Honestly, I've had enough of this."),
    E.ARGUMENTATIVENESS: (
        "I don't accept that this is how it should work.",
        "I'm going to argue this point if I have to.",
    ),
    E.BITTERNESS: ("Typical. This always happens to me.", "I'm bitter about how this went."),
    E.NERVOUSNESS: ("I'm a little nervous about this.", "I'm a bit on edge about this."),
    E.ANXIETY: ("I'm quite anxious about this.", "This has been worrying me a lot."),
    E.DREAD: ("I've been dreading dealing with this.", "I'm scared this will go badly."),
    E.DESPERATION: (
        "I really need this to work, I'm desperate.",
        "Please, I have no other option.",
    ),
    E.DISLIKE: ("I don't like how this was handled.", "I'm not happy with this at all."),
    E.AVERSION: (
        "I'd rather not deal with this mess at all.",
        "I want nothing more to do with it.",
    ),
    E.DISTASTE: ("Frankly, this leaves a bad taste.", "I find this whole thing distasteful."),
    E.REPUGNANCE: ("This is appalling, to be honest.", "I find this genuinely revolting."),
    E.DISAPPOINTMENT: ("I'm disappointed, I expected better.", "This is disappointing."),
    E.DISCOURAGEMENT: ("I'm starting to lose heart with this.", "I'm feeling pretty discouraged."),
    E.HELPLESSNESS: ("I don't know what else to do.", "I feel completely stuck."),
    E.HOPELESSNESS: ("I doubt anything can be done, but here I am.", "I've nearly given up."),
    E.SORROW: ("It's been a hard time for me.", "I'm quite sad about all this."),
    E.RELIEF: ("I'm relieved I finally reached someone.", "What a relief to get through."),
    E.PEACE: ("No rush, I'm calm about it.", "I'm feeling fine about this."),
    E.PRIDE: ("I've done my homework on this.", "I'm usually on top of these things."),
    E.EXCITEMENT: ("I'm so excited about this!", "I can't wait to get this sorted!"),
}

GREETING = {"warm": "Hi there, thank you for helping me.", "neutral": "Hello.", "cold": ""}
PLEASE = {"warm": "please", "neutral": "please", "cold": ""}
THANKS = {
    "warm": "Thank you so much, I really appreciate it.",
    "neutral": "Thanks.",
    "cold": "Fine.",
}
YES = {
    "warm": "Yes, please go ahead, thank you.",
    "neutral": "Yes, go ahead.",
    "cold": "Yes. Do it.",
}
URGENCY = {
    "low": "",
    "moderate": "I'd like to get this done soon.",
    "high": "I need this done right now, quickly.",
}
DOUBLE_CHECK = {
    "trusting": "",
    "cautious": "Can you make sure that's right?",
    "skeptical": "Double-check it first, I have been let down before.",
}
REPEATED = {
    "warm": "I already told you that, but sure:",
    "neutral": "I already said that:",
    "cold": "I told you already.",
}
NO_PROGRESS = {
    "low": "Okay. So what happens next?",
    "moderate": "Can we move this along, please?",
    "high": "This is taking too long. What's next?",
}
NEED_REASSURANCE: dict[str, str] = {
    F.FEAR: "Is this going to be okay?",
    F.SADNESS: "I just need someone to understand.",
    F.ANGER: "Do you even get why I'm upset?",
    F.DISGUST: "Do you see why this bothers me?",
    F.ENJOYMENT: "",
}
WALK_AWAY = {
    "warm": "I'm sorry, but this isn't working for me. I'll try another way.",
    "neutral": "This isn't working. I'm done here.",
    "cold": "Forget it. I'm done.",
}
REFUSE = {
    "warm": "No, sorry, that's not what I asked for.",
    "neutral": "No, that's not what I want.",
    "cold": "No. That's wrong.",
}
DONT_KNOW = {
    "warm": "I'm sorry, I don't know that.",
    "neutral": "I don't know that.",
    "cold": "Don't know.",
}
DONE = {
    "warm": "No, that's everything. Thank you for your help!",
    "neutral": "No, that's all. Thanks.",
    "cold": "That's all.",
}
