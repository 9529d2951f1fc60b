"""``python -m codeagent``: the same command as ``codeagent``.

``python -m`` puts the current directory first on ``sys.path``; run inside a repository that
has a top-level package of a dependency's name (pygments' own checkout, say), the dependency
would be imported from the repository. The repository is data, never code to import: that
entry goes before anything else is imported.
"""

import os
import sys

if sys.path and sys.path[0] and os.path.realpath(sys.path[0]) == os.path.realpath(os.getcwd()):
    del sys.path[0]

from codeagent.cli.main import main

main()
