"""Storage: the index store, the dense backends, the cache of index entries."""
