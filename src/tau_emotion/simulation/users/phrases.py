"""Phrase banks for the scripted emotional user: how an emotion condition sounds.

The emotion colours the opening and the complaints; politeness sets the register (greetings,
please/thanks); urgency adds pressure and shortens replies; trust adds requests to
double-check. Banks are small on purpose: the scripted user is a deterministic test and
benchmark device, and its wording only has to be recognisably different per condition.
"""

from __future__ import annotations

FEELING: dict[str, tuple[str, ...]] = {
    "annoyance": ("This is a bit annoying, honestly.", "I'm irritated that I even have to ask."),
    "frustration": ("I'm really frustrated with this.", "This has been so frustrating."),
    "exasperation": ("I'm at my wits' end here.", "Honestly, I've had enough of this."),
    "argumentativeness": (
        "I don't accept that this is how it should work.",
        "I'm going to argue this point if I have to.",
    ),
    "bitterness": ("Typical. This always happens to me.", "I'm bitter about how this went."),
    "nervousness": ("I'm a little nervous about this.", "I'm a bit on edge about this."),
    "anxiety": ("I'm quite anxious about this.", "This has been worrying me a lot."),
    "dread": ("I've been dreading dealing with this.", "I'm scared this will go badly."),
    "desperation": (
        "I really need this to work, I'm desperate.",
        "Please, I have no other option.",
    ),
    "dislike": ("I don't like how this was handled.", "I'm not happy with this at all."),
    "aversion": (
        "I'd rather not deal with this mess at all.",
        "I want nothing more to do with it.",
    ),
    "distaste": ("Frankly, this leaves a bad taste.", "I find this whole thing distasteful."),
    "repugnance": ("This is appalling, to be honest.", "I find this genuinely revolting."),
    "disappointment": ("I'm disappointed, I expected better.", "This is disappointing."),
    "discouragement": ("I'm starting to lose heart with this.", "I'm feeling pretty discouraged."),
    "helplessness": ("I don't know what else to do.", "I feel completely stuck."),
    "hopelessness": ("I doubt anything can be done, but here I am.", "I've nearly given up."),
    "sorrow": ("It's been a hard time for me.", "I'm quite sad about all this."),
    "relief": ("I'm relieved I finally reached someone.", "What a relief to get through."),
    "peace": ("No rush, I'm calm about it.", "I'm feeling fine about this."),
    "pride": ("I've done my homework on this.", "I'm usually on top of these things."),
    "excitement": ("I'm so excited about this!", "I can't wait to get this sorted!"),
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
NEED_REASSURANCE = {
    "fear": "Is this going to be okay?",
    "sadness": "I just need someone to understand.",
    "anger": "Do you even get why I'm upset?",
    "disgust": "Do you see why this bothers me?",
    "enjoyment": "",
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
