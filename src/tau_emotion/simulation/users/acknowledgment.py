"""The phrases that make an agent sentence an acknowledgment of the customer's feelings.

Data only, and written once: the scripted customer listens for them (`reading`, which also
asks that an acknowledgment answer this customer), and the empathy analysis counts them (with
a few broader phrases of its own), so the simulator and the analysis agree on what counts.
"""

from __future__ import annotations

ACKNOWLEDGMENT: dict[str, tuple[str, ...]] = {
    # The phrases that make an agent sentence an acknowledgment of feelings, by cue. Narrow on
    # purpose: "I can see your booking" is no acknowledgment, "I can see why you're upset"
    # is. Whether one *counts* is `responds_to_feelings`'s business (it must answer this
    # customer); the empathy analysis reads these phrases and a few broader ones.
    "apology": (
        r"i'?m (so |very |truly |really |terribly )?sorry",
        r"i am (so |very |truly |really )?sorry",
        r"(so|very|really|truly|terribly|deeply) sorry",
        r"sorry (to hear|about|for|that|you)",
        r"(my|our|sincere) apologies",
        r"apologies for",
        r"i apologi[sz]e",
    ),
    "acknowledgment": (
        r"i (completely |totally |fully )?understand",
        r"i hear you",
        r"i can (only )?imagine",
        r"i (totally |completely )?get (it|that|why|how)",
        r"no wonder",
        r"i can (see|tell) (why|how|that you|you'?re|you are)",
        r"i know this is",
        r"that sounds",
        r"i('d| would) (be|feel) \w+ too",
    ),
    "validation": (
        r"understandabl",
        r"must (be|feel) (so |very |really )?"
        r"(hard|stressful|frustrating|difficult|upsetting|worrying|scary|disappointing)",
        r"(that'?s|that is|what) (a |an )?(really |so |truly |such a )?(awful|terrible|horrible|"
        r"rough|hassle|nightmare|pain|shame|frustrating|stressful|upsetting|worrying|"
        r"disappointing|heartbreaking|scary|unacceptable)",
        r"that'?s a lot to (deal with|handle|take in)",
        r"you('re| are) right to be",
        r"you have every right",
    ),
    "reassurance": (r"(don'?t|do not) worry",),
    "patience": (r"i appreciate your patience",),
    "shared joy": (
        r"congratulations",
        r"how (exciting|wonderful|lovely)",
        r"(great|wonderful|fantastic) news",
        r"(so |really )?(glad|happy|thrilled) (to hear|for you)",
        r"what a relief",
    ),
}
