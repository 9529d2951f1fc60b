"""``codeagent serve``: one warm process answering over HTTP (JSON, SSE, NDJSON), MCP, a web page.

Only :mod:`codeagent.server.address` and :mod:`codeagent.server.client` are imported by the
light CLI path (``codeagent ask`` talking to a running server); everything else imports
Starlette, uvicorn and the agent.
"""
