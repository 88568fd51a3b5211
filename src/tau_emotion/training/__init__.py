"""Training data from agent rollouts: collect, classify, mix, export, fine-tune.

The stages, each a plain function over files on disk:

1. `collect`: run the train split once per task (via the runner) and record every rollout
   with its outcome class (success, violated, failed, dissatisfied) and a summary.
2. `mixes`: keep the successes (policy-clean, without duplicates) and sample named, seeded
   training mixes from a spec.
3. `export`: write a mix as TRL conversational tool-calling rows or LLaMA-Factory sharegpt.
4. `sft`: fine-tune a model on an exported mix with TRL's SFTTrainer.

Heavy libraries (torch, transformers, trl, datasets, peft, ray) are imported only inside the
functions that need them, so importing this package stays cheap.
"""
