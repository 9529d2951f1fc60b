"""Embedding: the runtimes of the embedder, the embedding cache, Ollama embeddings."""
