"""The conference at a glance, free of any UI: the figures of a set of papers (rating histograms,
decisions by primary area, acceptance by mean rating, reviews per paper and confidence, the
user's reading progress), the Unicode block bars that draw them, and the charts laid out as plain
lines (:data:`paperdeck.stats.charts.CHARTS`). The statistics screen styles those lines and
``paperdeck stats`` prints them; both count with :func:`paperdeck.stats.figures.figures_of`.
"""
