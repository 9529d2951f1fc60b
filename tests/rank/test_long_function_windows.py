"""For a question asking how, a function longer than ``function_heads.SPAN`` lines takes one
place of its file: the window that matched best, its first window (its signature) and the
windows touching them; its other windows leave their places to the file's other definitions
(a real index of a real repository, the windows the chunker cuts and the scores the ranking
gives; leveldb's ``ReadRecord`` filled its file's places and hid ``ReadPhysicalRecord``)."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.function_heads import SPAN
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

CHECKS = "the reader checks the record: its checksum must match"
STEPS = "\n".join(
    f"\t\tcase {n}:\n"
    f"\t\t\t// {CHECKS if 20 <= n <= 26 or 50 <= n <= 56 else f'fragment {n}'}\n"
    f"\t\t\trecord = append(record, r.fragment({n})...)"
    for n in range(70)
)
READER = f"""package log

// ReadRecord reads the next record of the log, fragment by fragment; the reader drops a
// record whose checksum does not match.
func (r *Reader) ReadRecord() ([]byte, error) {{
	var record []byte
	for {{
		kind, err := r.readPhysicalRecord()
		if err != nil {{
			return nil, err
		}}
		switch kind {{
{STEPS}
		}}
	}}
}}

// readPhysicalRecord reads one fragment and verifies its checksum.
func (r *Reader) readPhysicalRecord() (int, error) {{
	header := r.buf[:7]
	expected := binary.LittleEndian.Uint32(header)
	actual := crc32.Checksum(r.buf[7:])
	if actual != expected {{
		r.reportCorruption(len(r.buf), "checksum mismatch")
		return badRecord, nil
	}}
	if len(r.buf) < 7 {{
		return eof, nil // the log ends in the middle of a record
	}}
	return int(header[6]), nil
}}
"""
OTHER = """package log

// {name} {what}.
func {name}(w *Writer) error {{
	return w.flush()
}}
"""
WRITERS = [
    ("Sync", "syncs the log file"),
    ("Close", "closes the log writer"),
    ("Rotate", "starts a new log file"),
    ("Size", "returns the size of the log"),
    ("Path", "is the path of the log file"),
]
FILES = {
    "log/reader.go": READER,
    **{
        f"log/w{n}.go": OTHER.format(name=name, what=what) for n, (name, what) in enumerate(WRITERS)
    },
}


def test_a_long_function_leaves_its_other_windows_places_to_the_next_function(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    windows = [c for c in store.chunks if c.symbol == "Reader.ReadRecord"]
    assert len(windows) > 3  # cut into windows
    assert windows[-1].end_line - windows[0].start_line + 1 > SPAN  # longer than SPAN lines
    question = "how does the log reader react when a record's checksum does not match?"
    ranking = rank_files(store, question, analyze(question))
    assert ranking.files[0][0] == "log/reader.go"
    order = [store.chunks[i] for i in ranking.chunks_of("log/reader.go")]
    worker = next(n for n, c in enumerate(order) if c.symbol == "Reader.readPhysicalRecord")
    # before the function that checks: three windows of the long one, two apart from each other
    before = order[:worker]
    assert len(before) >= 3
    assert {c.symbol for c in before} == {"Reader.ReadRecord"}
    assert before[1].start_line > before[0].end_line + 1
    shown = [(h.path, h.symbol) for h in retrieve(store, question, 6)]
    assert shown[:3] == [
        ("log/reader.go", "Reader.ReadRecord"),  # the window that matched best
        ("log/reader.go", "Reader.ReadRecord"),  # its first, with its signature
        ("log/reader.go", "Reader.readPhysicalRecord"),
    ], shown
