"""The repository symbol graph: extraction, tables, records, queries."""
