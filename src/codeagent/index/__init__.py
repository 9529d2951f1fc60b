"""Building the index of one repository state: discover, chunk, embed, store (load_or_build),
reusing what an earlier state already holds."""
