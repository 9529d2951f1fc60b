"""The eval harness: run question suites through the agent and score them.

suite.load_suites(paths, limit=None)  -> list[SuiteItem]    (JSONL; errors name file:line)
repos.checkout(spec, commit, settings, repo_map=...) -> Path (stdlib:, mirrors, URLs)
runner.run_items(items, EvalRun(settings, ...)) -> list[record]  (one per question)
report.build_report(records, config=..., groups=...) -> dict; write_reports(report, dir)
report.compare(old, new) -> [(metric, old, new)]; format_compare(rows) -> str
metrics.*                             pure scoring functions
judge.LLMJudge(chat_model)            optional 1-10 correctness / completeness
"""
