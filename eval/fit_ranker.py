"""Fit the learned file ranker on dumped features; grouped cross-validation by repository.

    PYTHONPATH=src python eval/fit_ranker.py --dumps DIR [--dumps DIR2 …] --mode lexical|dense \
        [--model linear|trees] [--write] [--report FILE.md]

Development time only (needs the ``fit`` extra: scikit-learn, LightGBM). Reads the pickles of
``eval/dump_features.py``; the splits are ``src/codeagent/eval/corpus.json``'s: ``fit``
repositories (mined corpus + the public suites' fit repositories) are fitted on with
GroupKFold by repository (every out-of-fold figure comes from a model that never saw that
repository); ``choose`` repositories score the model fitted on all of ``fit`` and decide
between models and features; the shipped model (``--write``) is fitted on ``fit`` + ``choose``.
``sealed`` repositories are never read here.

Every table has, per question kind (mined commits: Acc@1/5; SWE-bench: Acc@1/5; SWE-QA:
recall@5/10) and as the mean over repositories, the plain BM25 baseline and the first ranker
from the same dumps beside the model.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from codeagent.rank.features import NAMES  # noqa: E402

CORPUS = ROOT / "src/codeagent/eval/corpus.json"
MODEL_FILE = ROOT / "src/codeagent/rank/ranker.json"
TRAIN_POOL = 100  # rows per question the model is fitted on (the first ranker's best)


def load_rows(dirs: list[Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for directory in dirs:
        for path in sorted(directory.rglob("*.pkl")):
            data = pickle.loads(path.read_bytes())
            if tuple(data["names"]) != NAMES:
                raise SystemExit(f"{path}: dumped with other columns; dump again")
            for row in data["rows"]:
                if len(row["pool"]):
                    row["repo"] = row["repo"].lower()  # as the splits spell it
                    rows.append(row)
    return rows


def splits(languages: str = "python") -> dict[str, set[str]]:
    """fit, choose and sealed repositories (lower case): Python's, or with ``other`` those of
    the ranker of other languages (fit: ``langs_fit``; choose: ``langs`` and ``langs2``, read
    before; sealed: ``langs4``; ``langs3``, sealed in the first round and read since, is in
    none of them)."""
    corpus = json.loads(CORPUS.read_text())
    if languages == "other":

        def listed(*names: str) -> set[str]:
            return {
                repo.lower()
                for name in names
                for repos in corpus[name].values()
                if isinstance(repos, list)
                for repo in repos
            }

        return {"fit": listed("langs_fit"), "choose": listed("langs", "langs2"),
                "sealed": listed("langs4")}  # fmt: skip
    return {
        name: {r.lower() for r in (*corpus[name], *corpus["bench"].get(name, ()))}
        for name in ("fit", "choose", "sealed")
    }


def labels(row: dict[str, Any]) -> np.ndarray:
    expected = set(row["expected"])
    return np.array([p in expected for p in row["pool"]], dtype=np.float64)


def ranked(row: dict[str, Any], scores: np.ndarray | None) -> list[str]:
    if scores is None:
        return list(row["stage1"])
    head = [row["pool"][i] for i in np.argsort(-scores, kind="stable")]
    return head + [p for p in row["stage1"] if p not in set(head)]


def metrics(row: dict[str, Any], files: list[str]) -> dict[str, float]:
    expected = set(row["expected"])
    if row["kind"] == "sweqa":
        return {f"R@{k}": len(expected & set(files[:k])) / len(expected) for k in (5, 10)}
    return {f"Acc@{k}": float(bool(expected & set(files[:k]))) for k in (1, 5)}


def table(rows: list[dict[str, Any]], rankings: dict[str, list[list[str]]]) -> str:
    """Per question kind (and language family, for other languages than Python): mean over
    repositories of each ranker's figures, with n."""
    from codeagent.eval.splits import language_of

    lines = []
    families = sorted({language_of(r["repo"]) for r in rows})
    groups = [
        (kind, family) for kind in ("mined", "swebench", "sweqa")
        for family in (families if len(families) > 1 else [None])
    ]  # fmt: skip
    for kind, family in groups:
        picked = [
            i
            for i, r in enumerate(rows)
            if r["kind"] == kind and (family is None or language_of(r["repo"]) == family)
        ]
        if not picked:
            continue
        repos = sorted({rows[i]["repo"] for i in picked})
        header = None
        for name, lists in rankings.items():
            per_repo: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
            for i in picked:
                for key, value in metrics(rows[i], lists[i]).items():
                    per_repo[rows[i]["repo"]][key].append(value)
            keys = list(next(iter(per_repo.values())).keys())
            means = {k: 100 * np.mean([np.mean(per_repo[r][k]) for r in repos]) for k in keys}
            below = sum(
                np.mean(per_repo[r][keys[-1]]) < np.mean(_base(rows, rankings, r, kind, keys[-1]))
                for r in repos
            )
            if header is None:
                what = f"{kind}, {family}" if family else kind
                header = f"| {what} ({len(picked)} q., {len(repos)} repos) | " + " | ".join(keys)
                lines += [header + " | repos below baseline |", "|---" * (len(keys) + 2) + "|"]
            cells = " | ".join(f"{means[k]:.1f}" for k in keys)
            lines.append(f"| {name} | {cells} | {below} |")
    return "\n".join(lines)


def _base(rows: list[dict[str, Any]], rankings: dict[str, list[list[str]]], repo: str,
          kind: str, key: str) -> list[float]:  # fmt: skip
    lists = rankings["baseline"]
    return [
        metrics(r, lists[i])[key]
        for i, r in enumerate(rows)
        if r["repo"] == repo and r["kind"] == kind
    ]


def training_set(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    xs, ys, groups = [], [], []
    for row in rows:
        n = min(TRAIN_POOL, len(row["pool"]))
        y = labels(row)[:n]
        if not y.any():
            continue
        xs.append(row["matrix"][:n])
        ys.append(y)
        groups.append(n)
    return np.concatenate(xs), np.concatenate(ys), groups


def fit(rows: list[dict[str, Any]], kind: str, columns: list[int]) -> Any:
    x, y, groups = training_set(rows)
    x = x[:, columns]
    if kind == "linear":
        from sklearn.linear_model import LogisticRegression

        mean, scale = x.mean(axis=0), x.std(axis=0)
        scale[scale == 0] = 1.0
        weights = np.concatenate([np.full(g, 1.0 / g) for g in groups])  # each question counts once
        model = LogisticRegression(C=1.0, max_iter=2000)
        model.fit((x - mean) / scale, y, sample_weight=weights * len(groups))
        return ("linear", mean, scale, model.coef_[0], float(model.intercept_[0]))
    import lightgbm

    model = lightgbm.LGBMRanker(
        objective="lambdarank", n_estimators=150, learning_rate=0.05, num_leaves=15,
        min_child_samples=40, subsample=0.8, subsample_freq=1, colsample_bytree=0.8,
        lambdarank_truncation_level=20, verbose=-1, random_state=0,
    )  # fmt: skip
    model.fit(x, y, group=groups)
    return ("trees", model)


BLEND = 0.0  # --blend-stage1: the first ranker's weight beside the model (learned.py)


def _z(values: np.ndarray) -> np.ndarray:
    values = values.astype(np.float64)
    return np.asarray((values - values.mean()) / (values.std() + 1e-9))


def predict(model: Any, row: dict[str, Any], columns: list[int]) -> np.ndarray:
    raw = _predict(model, row, columns)
    if not BLEND:
        return raw
    return _z(raw) + BLEND * _z(row["matrix"][:, NAMES.index("stage1")])


def _predict(model: Any, row: dict[str, Any], columns: list[int]) -> np.ndarray:
    x = row["matrix"][:, columns].astype(np.float64)
    if model[0] == "linear":
        _, mean, scale, weights, bias = model
        return np.asarray(((x - mean) / scale) @ weights + bias)
    return np.asarray(model[1].predict(x))


def export(model: Any, columns: list[int]) -> dict[str, Any]:
    names = [NAMES[c] for c in columns]
    if model[0] == "linear":
        _, mean, scale, weights, bias = model
        return {
            "kind": "linear", "features": names, "mean": [round(float(v), 6) for v in mean],
            "scale": [round(float(v), 6) for v in scale],
            "weights": [round(float(v), 6) for v in weights], "bias": round(bias, 6),
        }  # fmt: skip
    dump = model[1].booster_.dump_model()
    trees = [_flatten(t["tree_structure"]) for t in dump["tree_info"]]
    spec = {"kind": "trees", "features": names, "trees": trees, "base": 0.0}
    if BLEND:
        spec["blend_stage1"] = BLEND
    return spec


def _flatten(root: dict[str, Any]) -> dict[str, Any]:
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []

    def walk(node: dict[str, Any], depth: int) -> tuple[int, int]:
        me = len(feature)
        feature.append(0)
        threshold.append(0.0)
        left.append(-1)
        right.append(-1)
        value.append(0.0)
        if "leaf_value" in node:
            value[me] = round(float(node["leaf_value"]), 7)
            return me, depth
        assert node["decision_type"] == "<=", node["decision_type"]
        feature[me] = int(node["split_feature"])
        threshold[me] = float(node["threshold"])
        left[me], d1 = walk(node["left_child"], depth + 1)
        right[me], d2 = walk(node["right_child"], depth + 1)
        return me, max(d1, d2)

    _, depth = walk(root, 0)
    return {"feature": feature, "threshold": threshold, "left": left, "right": right,
            "value": value, "depth": depth}  # fmt: skip


def check_export(model: Any, columns: list[int], rows: list[dict[str, Any]]) -> None:
    """The exported JSON, evaluated by the product's numpy code, scores every row as the
    fitted model does (a failed export is never shipped)."""
    from codeagent.rank.learned import _parse

    shipped = _parse(export(model, columns), NAMES)
    for row in rows:
        want = predict(model, row, columns)
        got = shipped.score(row["matrix"])
        if not np.allclose(want, got, atol=1e-5):
            raise SystemExit(f"the exported model scores {row['id']} differently: not written")


def _shipped(key: str) -> Any:
    """The model ``ranker.json`` ships under ``key``, as the product evaluates it (None: none)."""
    from codeagent.rank import learned

    return learned.load(MODEL_FILE).get(key)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dumps", type=Path, action="append", required=True)
    parser.add_argument("--mode", choices=("lexical", "dense"), default="lexical")
    parser.add_argument("--model", choices=("linear", "trees"), default="trees")
    parser.add_argument("--drop", default="", help="columns left out, comma-separated")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--blend-stage1", type=float, default=0.0)
    parser.add_argument(
        "--train-dumps",
        type=Path,
        action="append",
        default=[],
        help="more dumps fitted on, never scored (e.g. lexical rows for the dense model)",
    )
    parser.add_argument("--report", type=Path, default=None)
    parser.add_argument(
        "--languages",
        choices=("python", "other"),
        default="python",
        help="python: the shipped models `lexical`/`dense` on Python's splits; other: the "
        "models `lexical-other`/`dense-other` of other languages on langs_fit (fit), langs and "
        "langs2 (choose), langs4 sealed",
    )
    args = parser.parse_args()
    from sklearn.model_selection import GroupKFold

    global BLEND
    BLEND = args.blend_stage1
    dropped = {d for d in args.drop.split(",") if d}
    columns = [i for i, n in enumerate(NAMES) if n not in dropped]
    split = splits(args.languages)
    key = args.mode if args.languages == "python" else f"{args.mode}-{args.languages}"
    rows = load_rows(args.dumps)
    fit_rows = [r for r in rows if r["repo"] in split["fit"]]
    choose_rows = [r for r in rows if r["repo"] in split["choose"]]
    extra = load_rows(args.train_dumps) if args.train_dumps else []
    assert not any(r["repo"] in split["sealed"] for r in extra), "sealed repositories in the dumps"

    def with_extra(scored: list[dict[str, Any]]) -> list[dict[str, Any]]:
        repos = {r["repo"] for r in scored}
        return scored + [r for r in extra if r["repo"] in repos]

    assert not any(r["repo"] in split["sealed"] for r in rows), "sealed repositories in the dumps"
    out = []
    # grouped cross-validation on fit
    oof: list[np.ndarray | None] = [None] * len(fit_rows)
    repos = np.array([r["repo"] for r in fit_rows])
    for train, test in GroupKFold(n_splits=args.folds).split(fit_rows, groups=repos):
        model = fit(with_extra([fit_rows[i] for i in train]), args.model, columns)
        for i in test:
            oof[i] = predict(model, fit_rows[i], columns)
    rankings = {
        "baseline": [list(r["baseline"]) for r in fit_rows],
        "first ranker": [ranked(r, None) for r in fit_rows],
        f"{args.model} (out of fold)": [ranked(r, s) for r, s in zip(fit_rows, oof, strict=True)],
    }
    shipped = _shipped(key) or _shipped(args.mode)
    if shipped is not None:  # never fitted on these rows when they are another language's
        rankings["shipped model"] = [ranked(r, shipped.score(r["matrix"])) for r in fit_rows]
    out += [f"## fit, grouped {args.folds}-fold CV by repository ({args.mode})", "",
            table(fit_rows, rankings), ""]  # fmt: skip
    model = fit(with_extra(fit_rows), args.model, columns)
    rankings = {
        "baseline": [list(r["baseline"]) for r in choose_rows],
        "first ranker": [ranked(r, None) for r in choose_rows],
        args.model: [ranked(r, predict(model, r, columns)) for r in choose_rows],
    }
    if shipped is not None:
        rankings["shipped model"] = [ranked(r, shipped.score(r["matrix"])) for r in choose_rows]
    out += [f"## choose, fitted on fit ({args.mode})", "", table(choose_rows, rankings), ""]
    text = "\n".join(out)
    print(text)
    if args.report:
        args.report.write_text(text + "\n")
    if args.write:
        final = fit(with_extra(fit_rows + choose_rows), args.model, columns)
        check_export(final, columns, fit_rows + choose_rows)
        data = json.loads(MODEL_FILE.read_text()) if MODEL_FILE.exists() else {}
        spec = export(final, columns)
        kept = data.get("models", {}).get(key, {}).get("blend_reports")
        if kept:  # chosen apart from the trees, on development items (docs/eval.md)
            spec["blend_reports"] = kept
            print(f"kept blend_reports {kept}: choose it again for the new trees")
        data = {"format": 1, "models": {**data.get("models", {}), key: spec}}
        MODEL_FILE.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"wrote {key} model to {MODEL_FILE} ({MODEL_FILE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
