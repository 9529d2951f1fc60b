"""The agent: a LangGraph state machine built from the tool registry. It routes a question
to a tool, falls back when the tool fails, and writes a cited answer (see docs/agent.md).
The public entry point is :class:`codeagent.Workspace`.

Importing this package stays light: LangGraph is imported when a question first needs it.
"""
