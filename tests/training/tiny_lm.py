"""A tiny causal LM and tokenizer built locally for SFT tests: no download, random weights.

The tokenizer is a word-level `tokenizers` model trained on the test's own data, wrapped in
`PreTrainedTokenizerFast` with a ChatML-style chat template that renders tools, tool calls,
tool results and reasoning, and marks assistant output with ``{% generation %}`` so that
``return_assistant_tokens_mask`` (TRL's assistant-only loss) works.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

SPECIAL = [
    "<unk>",
    "<pad>",
    "<|im_start|>",
    "<|im_end|>",
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
]

# Assistant turns are wrapped whole in generation markers, including the end-of-turn token,
# so the model learns to stop; the role header stays outside (it is the prompt). No `{%-`
# trimming: the literal newlines between the tags are part of the format.
CHAT_TEMPLATE = (
    "{% if messages[0].role == 'system' %}"
    "<|im_start|>system\n{{ messages[0].content }}"
    "{% if tools %}\n# Tools\n{% for tool in tools %}\n{{ tool | tojson }}{% endfor %}{% endif %}"
    "<|im_end|>\n"
    "{% set rest = messages[1:] %}"
    "{% else %}{% set rest = messages %}{% endif %}"
    "{% for message in rest %}"
    "{% if message.role == 'assistant' %}"
    "<|im_start|>assistant\n"
    "{% generation %}"
    "{% if message.reasoning_content %}<think>\n{{ message.reasoning_content }}\n</think>\n{% endif %}"
    "{{ message.content or '' }}"
    "{% for call in message.tool_calls or [] %}"
    '<tool_call>\n{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}\n</tool_call>'
    "{% endfor %}"
    "<|im_end|>\n"
    "{% endgeneration %}"
    "{% else %}"
    "<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n"
    "{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def corpus(rows: Iterable[dict[str, Any]]) -> list[str]:
    texts: list[str] = []
    for row in rows:
        texts.append(row["tools"] if isinstance(row["tools"], str) else json.dumps(row["tools"]))
        for m in row["messages"]:
            texts.append(m.get("content") or "")
            texts.append(m.get("reasoning_content") or "")
            for call in m.get("tool_calls") or []:
                texts.append(json.dumps(call["function"]))
    return texts


def build_tokenizer(rows: list[dict[str, Any]], out: Path) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]
    )
    tok.train_from_iterator(
        corpus(rows), trainers.WordLevelTrainer(vocab_size=4000, special_tokens=SPECIAL)
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="<unk>",
        pad_token="<pad>",
        eos_token="<|im_end|>",
        bos_token=None,
        additional_special_tokens=SPECIAL[2:],
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(out)
    return fast


def build_model(tokenizer: Any, out: Path) -> None:
    # OLMo-2 (a Llama-style decoder) because transformers maps its model type to the generic
    # tokenizers backend, so the word-level tokenizer saved beside it reloads unchanged
    # (a qwen2 or llama model type would rebuild it as a BPE tokenizer).
    import torch
    from transformers import AutoModelForCausalLM, Olmo2Config

    torch.manual_seed(0)
    config = Olmo2Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=4096,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    model = AutoModelForCausalLM.from_config(config)
    model.save_pretrained(out)


def assistant_block(message: dict[str, Any]) -> str:
    """What the template renders inside an assistant turn's generation markers."""
    text = ""
    if message.get("reasoning_content"):
        text += f"<think>\n{message['reasoning_content']}\n</think>\n"
    text += message.get("content") or ""
    for call in message.get("tool_calls") or []:
        fn = call["function"]
        text += (
            f'<tool_call>\n{{"name": "{fn["name"]}", "arguments": {json.dumps(fn["arguments"])}}}'
            "\n</tool_call>"
        )
    return text + "<|im_end|>\n"


def shrink(row: dict[str, Any]) -> dict[str, Any]:
    """A row with a one-line system prompt, only the tools it calls and clipped tool results:
    short sequences, so a CPU step takes a second."""
    used = {c["function"]["name"] for m in row["messages"] for c in m.get("tool_calls") or []}
    tools = [t for t in json.loads(row["tools"]) if t["function"]["name"] in used]
    messages = [dict(m) for m in row["messages"]]
    messages[0]["content"] = "You are a customer-service agent."
    for m in messages:
        if m["role"] == "tool":
            m["content"] = m["content"][:160]
    return {**row, "messages": messages, "tools": json.dumps(tools)}
