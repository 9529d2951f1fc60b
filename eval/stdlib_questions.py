"""The questions of eval/stdlib.jsonl, written by hand (answers: see make_stdlib_suite.py).

STRUCTURAL: (package, file relative to the package, operation, class or None, question).
CONCEPTUAL: (package, expected files, answer_must_contain, question); the expected files were
chosen by reading the code of CPython 3.11: the file(s) holding the code that answers it.
REPORTS: (package, expected files, text): issue reports written in the style of real bug
reports (several paragraphs, a code block or a traceback, an Environment section), each
containing a structural phrase ("classes that inherit from", "where is X defined", "who
calls"); a router must search them, not send them to a structural tool.
"""

# ruff: noqa: E501  (a table of questions: one question per line reads best)

from __future__ import annotations

STRUCTURAL: list[tuple[str, str, str, str | None, str]] = [
    ("json", "__init__.py", "functions", None, "list the functions in __init__.py"),
    ("json", "decoder.py", "classes", None, "Which classes are defined in decoder.py?"),
    ("json", "encoder.py", "methods", "JSONEncoder", "what methods does JSONEncoder have in encoder.py?"),
    ("json", "encoder.py", "functions", None, "What functions does encoder.py define?"),
    ("json", "scanner.py", "functions", None, "list the functions in scanner.py"),
    ("email", "message.py", "classes", None, "list the classes in message.py"),
    ("email", "message.py", "methods", "Message", "List the methods of class Message in message.py"),
    ("email", "headerregistry.py", "classes", None, "which classes are in headerregistry.py?"),
    ("email", "utils.py", "functions", None, "What functions are defined in utils.py?"),
    ("email", "feedparser.py", "classes", None, "list all classes in feedparser.py"),
    ("email", "feedparser.py", "methods", "FeedParser", "Which methods does the FeedParser class in feedparser.py define?"),
    ("email", "charset.py", "functions", None, "list the functions defined in charset.py"),
    ("email", "charset.py", "methods", "Charset", "what are the methods of the Charset class in charset.py?"),
    ("email", "errors.py", "classes", None, "Which exception classes does errors.py define?"),
    ("email", "base64mime.py", "functions", None, "what functions are in base64mime.py?"),
    ("email", "encoders.py", "functions", None, "List the functions in encoders.py."),
    ("http", "client.py", "classes", None, "What classes are defined in client.py?"),
    ("http", "client.py", "methods", "HTTPConnection", "list the methods of HTTPConnection in client.py"),
    ("http", "cookiejar.py", "classes", None, "which classes are defined in cookiejar.py"),
    ("http", "server.py", "methods", "SimpleHTTPRequestHandler", "What methods does SimpleHTTPRequestHandler define in server.py?"),
    ("http", "server.py", "functions", None, "list the top-level functions in server.py"),
    ("http", "cookies.py", "methods", "Morsel", "list the methods of the Morsel class in cookies.py"),
    ("logging", "handlers.py", "classes", None, "list the classes in handlers.py"),
    ("logging", "handlers.py", "methods", "RotatingFileHandler", "which methods does RotatingFileHandler have in handlers.py?"),
    ("logging", "config.py", "functions", None, "What functions are defined in config.py?"),
    ("logging", "__init__.py", "methods", "Logger", "list the methods of class Logger in __init__.py"),
    ("concurrent", "futures/thread.py", "classes", None, "what classes are in futures/thread.py?"),
    ("concurrent", "futures/_base.py", "functions", None, "list the functions in futures/_base.py"),
    ("concurrent", "futures/_base.py", "methods", "Future", "Which methods does the Future class in futures/_base.py have?"),
    ("concurrent", "futures/process.py", "methods", "ProcessPoolExecutor", "list the methods of ProcessPoolExecutor in futures/process.py"),
    ("urllib", "parse.py", "functions", None, "Which functions are defined in parse.py?"),
    ("urllib", "request.py", "classes", None, "list the classes in request.py"),
    ("urllib", "request.py", "methods", "OpenerDirector", "what methods does OpenerDirector have in request.py"),
    ("urllib", "error.py", "classes", None, "What classes does error.py define?"),
    ("urllib", "robotparser.py", "methods", "RobotFileParser", "list the methods of RobotFileParser in robotparser.py"),
    ("asyncio", "locks.py", "classes", None, "which classes are defined in locks.py?"),
    ("asyncio", "queues.py", "methods", "Queue", "What are the methods of class Queue in queues.py?"),
    ("asyncio", "tasks.py", "functions", None, "list the functions in tasks.py"),
    ("asyncio", "taskgroups.py", "methods", "TaskGroup", "which methods does TaskGroup define in taskgroups.py?"),
    ("asyncio", "runners.py", "functions", None, "What functions are in runners.py?"),
    ("json", "tool.py", "imports", None, "list the imports in tool.py"),
    ("asyncio", "runners.py", "imports", None, "What does runners.py import?"),
    ("concurrent", "futures/thread.py", "imports", None, "which imports does futures/thread.py have?"),
    ("email", "utils.py", "imports", None, "List the imports of utils.py"),
    ("urllib", "error.py", "imports", None, "what modules does error.py import?"),
    ("json", "decoder.py", "classes", None, "which classes in decoder.py inherit from something?"),
    ("email", "errors.py", "classes", None, "what in errors.py subclasses anything?"),
]  # fmt: skip

CONCEPTUAL: list[tuple[str, list[str], list[str], str]] = [
    ("json", ["encoder.py"], [], "How does the JSON encoder escape non-ASCII characters when ensure_ascii is true?"),
    ("json", ["decoder.py", "scanner.py"], [], "How are NaN and Infinity handled when JSON text is parsed?"),
    ("json", ["tool.py"], [], "How does the command-line JSON tool let you sort keys and choose the indentation?"),
    ("json", ["decoder.py"], [], "Where does the decoder compute the line and column numbers it reports for a syntax error?"),
    ("email", ["header.py", "_encoded_words.py", "_header_value_parser.py", "charset.py"], [], "How are non-ASCII header values encoded as RFC 2047 encoded words?"),
    ("email", ["feedparser.py"], [], "How does the parser find the boundaries between the parts of a multipart message?"),
    ("email", ["utils.py", "_parseaddr.py"], [], "How is an address string split into a display name and an email address?"),
    ("email", ["utils.py", "_parseaddr.py"], [], "How are RFC 2822 dates formatted and parsed?"),
    ("email", ["contentmanager.py"], [], "What happens when a text payload is set on a message with a given charset and transfer encoding?"),
    ("http", ["client.py"], [], "How does the HTTP client read a response that uses chunked transfer encoding?"),
    ("http", ["cookiejar.py"], [], "How does the cookie policy decide whether a server may set a cookie for a domain?"),
    ("http", ["server.py"], [], "How does the simple HTTP server generate the HTML listing of a directory?"),
    ("http", ["cookies.py"], [], "Why are some cookie values quoted when a Morsel is written out?"),
    ("logging", ["handlers.py"], [], "How does the rotating file handler decide when to roll over to a new log file?"),
    ("logging", ["config.py"], [], "How does dictConfig resolve the ext:// and cfg:// references in a configuration?"),
    ("logging", ["__init__.py"], [], "How does a logger find its effective level when its own level is not set?"),
    ("logging", ["__init__.py"], [], "What keeps the logging locks usable in a child process after fork?"),
    ("concurrent", ["futures/thread.py"], [], "How does the thread pool executor decide whether to start another worker thread?"),
    ("concurrent", ["futures/process.py"], [], "What happens to pending futures when a worker process of the process pool dies abruptly?"),
    ("concurrent", ["futures/_base.py"], [], "How does as_completed yield futures in the order they finish?"),
    ("urllib", ["parse.py"], [], "How is a URL split into scheme, network location, path, query and fragment?"),
    ("urllib", ["request.py"], [], "How are HTTP redirects followed when a URL is opened, and when does it give up?"),
    ("urllib", ["robotparser.py"], [], "How does the robots.txt parser decide whether a user agent may fetch a URL?"),
    ("urllib", ["request.py"], [], "How are proxy settings read from environment variables?"),
    ("asyncio", ["tasks.py"], [], "How does wait_for cancel the awaited task when the timeout expires?"),
    ("asyncio", ["taskgroups.py"], [], "When one task in a task group fails, how are the other tasks cancelled?"),
    ("asyncio", ["base_events.py", "events.py"], [], "How does the event loop schedule a callback to run after a delay?"),
    ("asyncio", ["streams.py"], [], "How does a stream reader find a separator in its buffer when reading until it?"),
]  # fmt: skip

REPORTS: list[tuple[str, list[str], str]] = [
    ("json", ["encoder.py"], "json.dumps ignores default() for classes that inherit from dict\n\nI have a few classes that inherit from dict and carry extra attributes. I subclassed JSONEncoder and overrode default() to add those attributes, but default() is never called for them: they are written as plain objects.\n\n```python\nimport json\n\nclass Tagged(dict):\n    tag = \"x\"\n\nclass Enc(json.JSONEncoder):\n    def default(self, o):\n        return {\"tag\": o.tag, **o}\n\nprint(json.dumps(Tagged(a=1), cls=Enc))\n```\n\nExpected: `{\"tag\": \"x\", \"a\": 1}`\nActual: `{\"a\": 1}`" + "\n\n## Environment\n\n- Python 3.11.7 (CPython)\n- Ubuntu 22.04"),
    ("email", ["utils.py", "_parseaddr.py"], "parseaddr splits a quoted display name that contains a comma\n\nWhen a From header has a display name in quotes with a comma inside, getaddresses() returns two broken addresses. I tried to find where is parseaddr defined and which function does the real splitting, but the quoting rules are spread over several helpers.\n\n```python\nfrom email.utils import getaddresses\nprint(getaddresses(['\"Doe, Jane\" <jane@example.org>, bob@example.org']))\n```\n\nThe output has an address with an empty name and a second one with the name cut at the comma." + "\n\n## Environment\n\n- Python 3.11.7 (CPython)\n- macOS 14.4"),
    ("http", ["client.py"], "IncompleteRead on a chunked response whose last chunk has trailers\n\nA server that sends trailers after the last chunk makes HTTPResponse.read() fail. I looked at who calls _read_chunked and where the trailer lines are consumed, but the error comes before that.\n\n```\nTraceback (most recent call last):\n  File \"fetch.py\", line 9, in <module>\n    body = resp.read()\n  File \"/usr/lib/python3.11/http/client.py\", line 466, in read\n    return self._read_chunked(amt)\n  File \"/usr/lib/python3.11/http/client.py\", line 598, in _read_chunked\n    raise IncompleteRead(b''.join(value))\nhttp.client.IncompleteRead: IncompleteRead(1024 bytes read)\n```" + "\n\n## Environment\n\n- Python 3.11.7 (CPython)\n- Debian 12"),
    ("logging", ["handlers.py"], "RotatingFileHandler never rolls over when delay=True\n\nWith delay=True and maxBytes=1024 the log file grows past the limit until the process restarts. I went through the methods of class RotatingFileHandler and shouldRollover seems to return early when the stream is not open yet.\n\n```python\nimport logging.handlers\nh = logging.handlers.RotatingFileHandler(\"app.log\", maxBytes=1024, backupCount=3, delay=True)\nlog = logging.getLogger(\"app\")\nlog.addHandler(h)\nfor i in range(1000):\n    log.warning(\"line %d\", i)\n```\n\nExpected: app.log.1 to app.log.3 exist. Actual: one large app.log." + "\n\n## Environment\n\n- Python 3.11.7 (CPython)\n- Windows 11"),
    ("urllib", ["parse.py"], "urljoin drops the last path segment for a base without a trailing slash\n\nJoining a relative reference onto a base URL whose path does not end in a slash removes the last segment. I checked the list of functions in parse.py that urljoin uses (urlparse, urlunparse, the dot-segment removal) and I am not sure whether this is RFC 3986 behaviour or a bug.\n\n```python\nfrom urllib.parse import urljoin\nprint(urljoin(\"https://example.org/api/v1\", \"users\"))\n```\n\nExpected: https://example.org/api/v1/users\nActual: https://example.org/api/users" + "\n\n## Environment\n\n- Python 3.11.7 (CPython)\n- Fedora 39"),
    ("asyncio", ["tasks.py"], "wait_for leaves the inner task running after a timeout when it suppresses CancelledError\n\nWhere is wait_for defined, and what does it do when the awaited task swallows the cancellation? In our service the timeout fires, but the task keeps running and the TimeoutError is only raised after it finishes.\n\n```\nTraceback (most recent call last):\n  File \"service.py\", line 31, in handle\n    await asyncio.wait_for(worker(), timeout=2)\n  File \"/usr/lib/python3.11/asyncio/tasks.py\", line 479, in wait_for\n    raise exceptions.TimeoutError() from exc\nTimeoutError\n```" + "\n\n## Environment\n\n- Python 3.11.7 (CPython)\n- Ubuntu 24.04"),
]  # fmt: skip
