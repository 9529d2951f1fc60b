"""The agent's tools: ``base`` (what a tool is), ``registry`` (which tools the agent has),
``ast_tool`` (exact facts about one Python file), ``rag_tool`` (search over the index)."""
