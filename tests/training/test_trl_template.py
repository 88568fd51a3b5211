"""Exported TRL rows through a real tool-calling chat template: arguments encoded once."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jinja2
import jinja2.sandbox
from training_helpers import episode

from tau_emotion.data import Message, ToolCall
from tau_emotion.training.export import export_trl

# The tool-call part of Qwen2.5's template, as shipped with Qwen/Qwen2.5-*-Instruct (Llama 3.1
# renders `arguments | tojson` the same way): the arguments go through `tojson`.
QWEN25_STYLE = """
{%- if tools %}
{{- '<|im_start|>system\\n' + messages[0].content + '\\n\\n# Tools\\n\\n<tools>' }}
{%- for tool in tools %}{{- '\\n' + (tool | tojson) }}{%- endfor %}
{{- '\\n</tools><|im_end|>\\n' }}
{%- endif %}
{%- for message in messages[1:] %}
{%- if message.role == 'user' %}
{{- '<|im_start|>user\\n' + message.content + '<|im_end|>\\n' }}
{%- elif message.role == 'assistant' %}
{{- '<|im_start|>assistant' }}
{%- if message.content %}{{- '\\n' + message.content }}{%- endif %}
{%- for tool_call in message.tool_calls or [] %}
{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}
{{- '\\n<tool_call>\\n{"name": "' + tool_call.name + '", "arguments": ' }}
{{- tool_call.arguments | tojson }}
{{- '}\\n</tool_call>' }}
{%- endfor %}
{{- '<|im_end|>\\n' }}
{%- elif message.role == 'tool' %}
{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}
{%- endif %}
{%- endfor %}
"""


def render(row: dict[str, Any]) -> str:
    env = jinja2.sandbox.ImmutableSandboxedEnvironment()  # as transformers renders templates
    # transformers renders chat templates with a tojson that is json.dumps (not HTML-escaped).
    env.filters["tojson"] = lambda value: json.dumps(value, ensure_ascii=False)
    return env.from_string(QWEN25_STYLE).render(
        messages=row["messages"], tools=json.loads(row["tools"])
    )


def test_exported_arguments_render_once_encoded(tmp_path: Path) -> None:
    base = episode(calls=2)
    nested = ToolCall(
        id="call_n",
        name="get_booking",
        arguments={"booking_code": "B7", "passengers": [{"name": "Zoë", "age": 7}]},
    )
    messages = [*base.messages[:-2], Message(role="assistant", tool_calls=[nested])]
    messages += base.messages[-2:]
    path = tmp_path / "trl.jsonl"
    export_trl([base.model_copy(update={"messages": messages})], path)
    row = json.loads(path.read_text(encoding="utf-8").splitlines()[0])

    text = render(row)
    blocks = re.findall(r"<tool_call>\n(.*?)\n</tool_call>", text)
    assert len(blocks) == 3
    decoded = [json.loads(b) for b in blocks]
    # Once-encoded: the arguments decode straight to the objects the agent sent, not to a
    # string that holds JSON (which is what a JSON-string export rendered through tojson gives).
    assert [d["arguments"] for d in decoded] == [
        {"booking_code": "B0", "customer_id": "CU-1"},
        {"booking_code": "B1", "customer_id": "CU-1"},
        {"booking_code": "B7", "passengers": [{"name": "Zoë", "age": 7}]},
    ]
    assert '\\"' not in "".join(blocks)
    assert '"name": "get_booking"' in text.split("</tools>")[0]  # the schemas are rendered too
