"""Ranking: query parsing, tokenising, features, evidence, the learned ranker."""
