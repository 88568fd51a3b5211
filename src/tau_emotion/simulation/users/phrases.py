"""Phrase banks for the scripted emotional user: how an emotion condition sounds.

Two kinds of table live here.

Colouring lines, one of which the customer adds to a turn so the condition shows throughout the
conversation, each conveying one part of the condition and nothing else:

- `FEELING`: six lines per emotion that convey the emotion (and fit its family) and say
  nothing about time, nothing about trusting the agent, and state no fact;
- `URGENCY_LINES`: six lines per urgency value, only how pressed for time the customer is;
- `TRUST_LINES`: six lines per trust value, only how far the customer takes the agent's word.

Because any line may meet any other part of the condition, each is free of what would
contradict one: no politeness markers (please, thanks, insults), no question the agent would
have to answer with a fact, and none of the words the oracle and the checks read as a yes, a
no or a settle (tests/participants/test_scripted_phrases.py holds them to that).

Fixed replies, one per politeness, urgency, trust or family value: the greeting and the
register (`GREETING`, `PLEASE`, `THANKS`), consent and refusal (`YES`, `REFUSE`, `DONE`,
`DONT_KNOW`), pressure (`URGENCY`, `NO_PROGRESS`), requests to double-check (`DOUBLE_CHECK`),
repeats (`REPEATED`), the wish to be understood (`NEED_REASSURANCE`) and leaving
(`WALK_AWAY`). The scripted user is a deterministic test and benchmark device, so these stay
small: its wording only has to be recognisably different per condition.
"""

from __future__ import annotations

from tau_emotion.emotions.space import Emotion as E
from tau_emotion.emotions.space import Family as F

FEELING: dict[str, tuple[str, ...]] = {
    E.ANNOYANCE: (
        "I'm irritated that I even have to ask.",
        "Honestly, I find this a bit annoying.",
        "It irks me to be bothered with this at all.",
        "What a needless little hassle for me.",
        "This sort of petty nuisance grates on me.",
        "I'm a little irked, to be frank.",
    ),
    E.FRUSTRATION: (
        "I'm really frustrated with this.",
        "Everything I try just hits a wall.",
        "I keep going around in circles, and it's maddening.",
        "I feel blocked at every turn.",
        "I've tried and tried, and I'm fed up.",
        "It's one obstacle after another for me.",
    ),
    E.EXASPERATION: (
        "I'm at my wits' end here.",
        "Honestly, I've had enough of this.",
        "Not this again. I'm so exasperated.",
        "I'm worn out by the same trouble over and over.",
        "Here we go again, and I'm sick of it.",
        "I've lost count of how often I've been through this.",
    ),
    E.ARGUMENTATIVENESS: (
        "I'm going to argue this point if I have to.",
        "I have a strong case here, and I intend to make it.",
        "I won't concede this point easily.",
        "Frankly, I'm spoiling for an argument about this.",
        "Hear me out, because I disagree with how this works.",
        "I'm determined to come out on top here.",
    ),
    E.BITTERNESS: (
        "Typical. This always happens to me.",
        "I'm bitter about how this went.",
        "I resent how I was treated over this.",
        "I've been nursing a grudge about it.",
        "Just my luck, as usual.",
        "I can't say I'm surprised; it's the story of my life.",
    ),
    E.NERVOUSNESS: (
        "I'm a little nervous about this.",
        "I'm feeling a bit jittery, to be honest.",
        "I'm uneasy that some small thing might go wrong.",
        "I get jumpy about things like this.",
        "I'm on edge, though I can't quite say why.",
        "My nerves are a little frayed over this.",
    ),
    E.ANXIETY: (
        "I'm quite anxious about this.",
        "This has been worrying me a lot.",
        "I keep picturing everything that could fall apart.",
        "My mind is racing with what-ifs.",
        "Worry has been gnawing at me over this.",
        "I can't get this off my mind.",
    ),
    E.DREAD: (
        "I've been dreading dealing with this.",
        "I'm scared this will go badly.",
        "I'm bracing myself for bad news.",
        "I have a sinking feeling about all this.",
        "I'm almost afraid to hear the answer.",
        "A heavy sense of doom is hanging over me.",
    ),
    E.DESPERATION: (
        "I really need this to work; I'm desperate.",
        "I'm out of options and frightened.",
        "I'm grasping at straws here.",
        "I'm begging you; I have nowhere else to turn.",
        "This is my last hope, honestly.",
        "I'm clinging to this as my only way out.",
    ),
    E.DISLIKE: (
        "I dislike how this was handled.",
        "I'm distinctly unimpressed with this.",
        "This just isn't to my liking.",
        "I've never cared for this kind of thing.",
        "I'm lukewarm about this at best.",
        "I'm not keen on any of this.",
    ),
    E.AVERSION: (
        "I'd rather not be dealing with this mess at all.",
        "I'd keep this at arm's length if I could.",
        "I shrink back just thinking about it.",
        "I'd prefer never to go near this again.",
        "Every part of me wants to steer clear of this.",
        "I can barely bring myself to look at it.",
    ),
    E.DISTASTE: (
        "Frankly, this leaves a bad taste in my mouth.",
        "I find this whole thing distasteful.",
        "This strikes me as rather sloppy.",
        "It all seems a bit tacky to me.",
        "I disapprove of the way this was done.",
        "It offends my sense of how things should be.",
    ),
    E.REPUGNANCE: (
        "Honestly, I'm appalled by this.",
        "I find this genuinely revolting.",
        "I'm disgusted, plain and simple.",
        "To me, this is morally repugnant.",
        "I'm repelled by all of it.",
        "The whole thing sickens me.",
    ),
    E.DISAPPOINTMENT: (
        "I'm disappointed; I expected better.",
        "This is a real disappointment for me.",
        "My hopes were up, and they've been dashed.",
        "I feel deflated, honestly.",
        "It's not what I was hoping for at all.",
        "I thought this would go better for me.",
    ),
    E.DISCOURAGEMENT: (
        "I'm starting to lose heart with this.",
        "I'm feeling pretty discouraged.",
        "Each setback takes a little more out of me.",
        "I'm running low on the will to keep going.",
        "I wonder whether it's even worth the effort.",
        "My motivation has all but drained away.",
    ),
    E.HELPLESSNESS: (
        "I feel completely stuck.",
        "I'm lost and can't fix this by myself.",
        "I'm at a loss with this.",
        "I really need someone to guide me through this.",
        "This is beyond me, I admit it.",
        "I have little idea where to even begin.",
    ),
    E.HOPELESSNESS: (
        "I've nearly given up.",
        "Nothing ever seems to work out for me.",
        "I expect this will fail, like everything else.",
        "I've more or less resigned myself to this.",
        "It feels pointless, but here I am.",
        "I feel like it's a lost cause.",
    ),
    E.SORROW: (
        "I'm quite sad about all this.",
        "My heart feels so heavy.",
        "I'm feeling very low in myself.",
        "Everything feels so grey to me.",
        "I'm trying to hold myself together.",
        "There's a deep sadness in me over this.",
    ),
    E.RELIEF: (
        "What a relief this is for me.",
        "I'm so relieved to be getting somewhere.",
        "That's a weight off my shoulders.",
        "Phew, I feel so much lighter.",
        "I can feel the tension draining out of me.",
        "I'm glad things are looking up.",
    ),
    E.PEACE: (
        "I'm feeling quite calm about all this.",
        "Nothing about this is getting to me.",
        "I'm keeping a cool head about it.",
        "My mood is easy and unruffled.",
        "I'm in a pretty mellow frame of mind.",
        "I feel content and even-keeled.",
    ),
    E.PRIDE: (
        "I've done my homework on this.",
        "I'm usually on top of these things.",
        "I'm rather pleased with myself, I must say.",
        "I know my stuff here, if I say so myself.",
        "I'm proud of how organised I've been.",
        "I think I did my part of this really well.",
    ),
    E.EXCITEMENT: (
        "I'm so excited about this!",
        "I'm really looking forward to this!",
        "This has me thrilled to bits!",
        "I could practically bounce off the walls!",
        "Oh, I've got such a buzz about this!",
        "My enthusiasm is through the roof!",
    ),
}

URGENCY_LINES: dict[str, tuple[str, ...]] = {
    "low": (
        "There's zero hurry on my end.",
        "Whenever it gets done works for me.",
        "Timing isn't an issue for me.",
        "I've got all the time in the world.",
        "Take as long as you need; my schedule is wide open.",
        "There's nothing pressing about this for me.",
    ),
    "moderate": (
        "Sooner rather than later would suit me.",
        "I'd like this wrapped up reasonably soon.",
        "I'd rather this moved along at a decent pace.",
        "I have some time, though not endless time.",
        "I'd prefer to get this off my plate in good time.",
        "Within reason, I want to keep things moving.",
    ),
    "high": (
        "I'm seriously pressed for time here.",
        "Every minute counts for me.",
        "I need it handled immediately.",
        "I'm really short on time, so speed matters.",
        "I can't afford any delay on this.",
        "I'm racing the clock on this.",
    ),
}

TRUST_LINES: dict[str, tuple[str, ...]] = {
    "trusting": (
        "I'm the type to take people at their word.",
        "When you tell me something, I take it as given.",
        "I trust you to know what you're doing.",
        "I have faith in how you handle these things.",
        "I'm inclined to believe what you folks tell me.",
        "Your say-so is generally good enough for me.",
    ),
    "cautious": (
        "I'd like the details double-checked before I agree.",
        "I want to be certain before I commit to anything.",
        "I like to go step by step with these things.",
        "I'd rather have every detail spelled out first.",
        "I tend to read the small print carefully.",
        "I'm open-minded, though I like to look closely first.",
    ),
    "skeptical": (
        "I'll believe it when I see it.",
        "I've been misled before, so I'm wary.",
        "Companies like yours have burned me in the past.",
        "I'll need more than your word on this.",
        "I'm not taking anything at face value.",
        "Promises are cheap; I've heard plenty of them.",
    ),
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
CLARIFY = {
    # Before the request restated, when the agent asks what the customer means.
    "warm": "Sorry if I wasn't clear. What I'm hoping for is this:",
    "neutral": "What I mean is this:",
    "cold": "I said it already:",
}
