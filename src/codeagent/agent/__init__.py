"""The agent: a LangGraph state machine that routes a question to the AST tool or to search,
falls back from one to the other, and writes a cited answer (see docs/agent.md).

    from codeagent.agent import AgentSession
    AgentSession(repo_root, settings).ask("list the classes in app/models.py").to_json()

Importing this package stays light: LangGraph is imported when a question first needs it.
"""

from __future__ import annotations

from codeagent.agent.session import AgentSession, AskResult

__all__ = ["AgentSession", "AskResult"]
