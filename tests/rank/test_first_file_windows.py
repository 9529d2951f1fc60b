"""A question in words is shown the first file's further chunks when they outscore the best
chunk of each later file whose place they would take, whatever their share of the first
file's best: the function that does the work under a short one named for the subject (a real
index of a real repository, the chunks the chunker cuts and the scores the ranking gives)."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.declarations import DECLARATION
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import SECOND_CHUNK, retrieve
from conftest import GitRepoFactory

KEYS = """package conf

// toCaseInsensitiveValue checks if the value is a map;
// if so, create a copy and lower-case the keys recursively.
func toCaseInsensitiveValue(value any) any {
	switch v := value.(type) {
	case map[string]any:
		value = copyAndInsensitiviseMap(v)
	}
	return value
}

// copyAndInsensitiviseMap creates a copy of any map it makes case insensitive.
func copyAndInsensitiviseMap(m map[string]any) map[string]any {
	nm := make(map[string]any)
	for key, val := range m {
		lkey := strings.ToLower(key)
		switch v := val.(type) {
		case map[string]any:
			nm[lkey] = copyAndInsensitiviseMap(v)
		default:
			nm[lkey] = v
		}
	}
	return nm
}
"""
OTHER = """package conf

// {name} reads the {what} of the config.
func {name}(c *Config) []string {{
	out := []string{{}}
	for _, k := range c.{field} {{
		out = append(out, k)
	}}
	return out
}}
"""
PARTS = [
    ("AllKeys", "keys", "keys"),
    ("Sources", "sources", "sources"),
    ("Watched", "watched files", "files"),
    ("Flags", "flags", "flags"),
    ("Remote", "remote providers", "remote"),
    ("Defaults", "defaults", "defaults"),
]
FILES = {
    "conf/keys.go": KEYS,
    **{
        f"conf/part{n}.go": OTHER.format(name=name, what=what, field=field)
        for n, (name, what, field) in enumerate(PARTS)
    },
}
QUESTION = "how are config keys made case-insensitive?"


def test_the_first_files_second_chunk_is_shown_when_it_outscores_the_next_files(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    (first, _), (second, _) = ranking.files[:2]
    assert first == "conf/keys.go"
    best, worker, *_ = (float(ranking.chunk_scores[i]) for i in ranking.chunks_of(first))
    assert worker < SECOND_CHUNK * best  # under the share a second chunk needed
    assert worker > ranking.best_score(second)  # above the next file's best
    shown = [(hit.path, hit.symbol) for hit in retrieve(store, QUESTION, 6)]
    assert shown[:3] == [
        ("conf/keys.go", "toCaseInsensitiveValue"),
        ("conf/keys.go", "copyAndInsensitiviseMap"),  # the function that does the work
        ("conf/part0.go", "AllKeys"),  # before the first file's third chunk, the package line
    ], shown


# the next file's best chunk is its package line with its type's documentation: above the first
# file's second chunk as BM25 scores it, under it once a how-question scores such a window down
# (it does no work), as the windows weigh it
DECLARING = """package conf

// Config holds the config keys, made insensitive.
type Config struct {
	keys     map[string]any // config keys
	override map[string]any // keys set by Set
	defaults map[string]any // default keys
}

// New makes an empty config.
func New() *Config {
	c := new(Config)
	c.keys = make(map[string]any)
	return c
}
"""


def test_the_next_files_are_weighed_before_the_first_files_second_chunk_is_compared(
    git_repo: GitRepoFactory,
) -> None:
    files = {
        **FILES,
        "conf/keys.go": KEYS.replace(
            "if the value is a map;", "if the config value is a map of config keys;"
        ),
        "conf/config.go": DECLARING,
    }
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    (first, _), (second, _) = ranking.files[:2]
    assert (first, second) == ("conf/keys.go", "conf/config.go")
    best, worker, *_ = (float(ranking.chunk_scores[i]) for i in ranking.chunks_of(first))
    head = ranking.chunks_of(second)[0]
    assert store.chunks[head].text.startswith("package conf\n\n// Config holds")
    assert worker < SECOND_CHUNK * best
    # BM25 puts that window above the worker; scored down as a declaration it falls under it
    assert DECLARATION * float(ranking.chunk_scores[head]) < worker < ranking.best_score(second)
    shown = [(hit.path, hit.symbol) for hit in retrieve(store, QUESTION, 6)]
    assert shown[:3] == [
        ("conf/keys.go", "toCaseInsensitiveValue"),
        ("conf/keys.go", "copyAndInsensitiviseMap"),
        ("conf/config.go", "New"),  # the next file's code before its documentation
    ], shown
