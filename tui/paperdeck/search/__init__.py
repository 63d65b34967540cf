"""Finding papers: the query language, the fuzzy search index, the folded text corpus, which
papers a query selects and in what order, saved views, and similar papers.
"""
