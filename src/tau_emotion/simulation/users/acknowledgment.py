"""The phrases that make an agent sentence an acknowledgment of the customer's feelings.

Data only, and written once: the scripted customer listens for them (`reading`, which also
asks that an acknowledgment answer this customer), and the empathy analysis counts them (with
a few broader phrases of its own), so the simulator and the analysis agree on what counts.
"""

from __future__ import annotations

# Words that say how something feels, after "that's", "must have been", "what a": "that's
# maddening", "that must have been terrifying", "what a frightening spot". Alone they are
# adjectives; the patterns below make them an acknowledgment only in those frames.
_HOW_IT_FEELS = (
    r"(awful|terrible|horrible|rough|hassle|nightmare|pain|shame|frustrating|stressful|"
    r"upsetting|worrying|disappointing|heartbreaking|scary|unacceptable|maddening|"
    r"infuriating|humiliating|revolting|sickening|disgusting|exhausting|crushing|painful|"
    r"frightening|terrifying|distressing|unsettling|alarming|nerve-wracking|awful)"
)
_DEGREE = r"(a |an )?(really |so |truly |such a |deeply |genuinely |incredibly |completely )?"
# How a customer may feel, as an agent says the customer (or the agent) feels it.
_FELT = (
    r"(angry|furious|livid|upset|frustrated|fed up|disgusted|appalled|horrified|sad|"
    r"heartbroken|devastated|gutted|worried|scared|frightened|terrified|shaken|anxious|"
    r"nervous|relieved|thrilled|delighted|proud|excited|over the moon)"
)

ACKNOWLEDGMENT: dict[str, tuple[str, ...]] = {
    # The phrases that make an agent sentence an acknowledgment of feelings, by cue. Narrow on
    # purpose: "I can see your booking" is no acknowledgment, "I can see why you're upset"
    # is, and "I understand the order was placed on the 3rd" states a fact. Whether one
    # *counts* is `responds_to_feelings`'s business (it must answer this customer); the
    # empathy analysis reads these phrases and a few broader ones.
    #
    # Widened on 2026-12-05 against a development set written by hand from the label
    # definition alone (tests/participants/data/empathy_dev.json), by phrase family, not by
    # sentence; the evaluation set (empathy_eval.json) was not read for it.
    "apology": (
        r"i'?m (so |very |truly |really |terribly |genuinely |deeply |incredibly |awfully )?"
        r"sorry",
        r"i am (so |very |truly |really |genuinely |deeply )?sorry",
        r"(so|very|really|truly|terribly|deeply|genuinely) sorry",
        r"sorry (to hear|about|for|that|you)",
        r"(my|our|sincere) apologies",
        r"apologies for",
        r"i apologi[sz]e",
        r"(i|we) (really |deeply |truly )?regret (that|how|what|you)",
        r"(we|i) owe you an apology",
    ),
    "acknowledgment": (
        # Not "I understand the order was placed...", nor a trailing ", I understand."
        r"(?<!, )i (completely |totally |fully |really )?understand"
        r"(?=\s*([.,!;:\u2014-]|$)| (how|why|what|completely|totally|that (this|it|you)|"
        r"you('?re|'?ve| are| must| feel| have| might| need| want| were)\b|"
        r"your (frustration|concern|worry|anger|disappointment|feelings?|situation|position)))",
        r"i hear you",
        r"i can('?t|not)? (only |even |just )?imagine",
        r"i (totally |completely )?get (it|that|why|how)",
        r"no wonder",
        r"i can (see|tell) (why|how|that you|you'?re|you are)",
        r"i know (this is|this has|how|what|that (this|it)|every \w+ of this)",
        r"that sounds",
        r"i('d| would) (be|feel) \w+ too",
        r"i recogni[sz]e (that|how|why|what)",
        rf"(i'?m|i am|we'?re|we are) (so |really |just as |as )?{_FELT} "
        r"(too|as well|on your behalf|for you)",
        r"of course you('re| are| feel| were)",
        r"(would|could) (\w+ ){0,3}(anyone|anybody|any (parent|person|one of us))",
    ),
    "validation": (
        r"understandabl",
        r"must (be|feel|have been|have felt) (so |very |really |absolutely )?"
        r"(hard|stressful|frustrating|difficult|upsetting|worrying|scary|disappointing|"
        r"frightening|terrifying|exhausting|painful|shaken|a (huge |big )?(relief|weight off))",
        rf"(that'?s|that is|that was|this is|what) {_DEGREE}{_HOW_IT_FEELS}",
        rf"(it'?s|it is|it was|is|was) {_DEGREE}(maddening|infuriating|humiliating|"
        r"revolting|sickening|disgusting|heartbreaking|terrifying|frightening|crushing)",
        r"that'?s a lot to (deal with|handle|take in)",
        r"you('re| are) right to be",
        r"you('ve| have) every (right|reason)",
        r"(should|shouldn'?t) (never )?have (happened|had to|been)",
        r"(is|was|that'?s) (just )?the worst",
        r"(it )?makes (complete |total |perfect )?sense (that|you|she|he|they|to feel)",
    ),
    "reassurance": (
        r"(don'?t|do not) (worry|feel (bad|stupid|silly|guilty|embarrassed)|blame yourself)",
        r"(nothing|no need) to (be )?(ashamed|embarrassed)",
        r"nothing (shameful|embarrassing)",
        r"you('re| are) not (failing|alone|to blame|being)",
    ),
    "patience": (r"i appreciate your patience",),
    "shared joy": (
        r"congratulations",
        r"how (exciting|wonderful|lovely)",
        r"(great|wonderful|fantastic) news",
        r"(so |really )?(glad|happy|thrilled) (to hear|for you)",
        r"what a relief",
        r"(great|wonderful|lovely|fantastic|brilliant|so good) to hear",
        r"(i'?m|we'?re|i am|we are) (so |really |very |absolutely )?"
        r"(glad|happy|thrilled|delighted|pleased|chuffed|over the moon)",
        r"(so|really) glad",
        r"(made|makes) (my|our) day",
        r"well done",
        r"you should be (so |very |really )?proud",
        r"what a (great|wonderful|lovely|fantastic|brilliant|night|day|moment|result|story)",
        r"happy (birthday|anniversary)",
    ),
}
