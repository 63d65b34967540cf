"""The conference at a glance, free of any UI: the figures of a set of papers (rating histograms,
decisions by primary area, acceptance by mean rating, reviews per paper and confidence, the
user's reading progress) and the Unicode block bars that draw them. The statistics screen and
``paperdeck stats`` both read :func:`paperdeck.stats.figures.figures_of`.
"""
