"""Fetching paper lists from the network: OpenReview API v2 and Paper Copilot's paperlists.

Nothing here runs unless the user asks (``paperdeck fetch``, the app's refresh); start-up stays
offline. Fetched pages are imported by :mod:`paperdeck.sources.importer`, as files are.
"""
