"""How many sources an answer or a search may have: the one bound every front end checks ``k``
against (the settings, ``-k`` of the CLI, the HTTP request bodies, MCP's ``search_code``, eval).

One hundred: a search's windows are at most a few dozen lines each, so a hundred of them stay
within what a client reads at once, and eval needs at least ten (hit@10). Standard library
only: the CLI's option parsing reads it on every start-up.
"""

from __future__ import annotations

K_MIN = 1
K_MAX = 100
