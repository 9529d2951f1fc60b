"""The structure of a Python file, read once from its ``ast`` tree: what the chunker, the
symbol graph and the AST tool all read.

    structure = scan(tree)        # definitions, imports, module-level assignments, scopes
    for call, scope in calls(structure): ...   # call sites, each in its scope

Standard library only: the AST route imports it and must start fast.
"""

from __future__ import annotations

from codeagent.pysyntax.calls import calls
from codeagent.pysyntax.structure import Block, DefSite, StmtSite, Structure, scan

__all__ = ["Block", "DefSite", "StmtSite", "Structure", "calls", "scan"]
