"""The store on disk: the catalogue, the user's data (stars, notes, status, tags), the rows
cache, settings, backups, merging papers and running imports, the change log, and the atomic
writes and lock under all of them (:mod:`paperdeck.store.store` is the way in).
"""
