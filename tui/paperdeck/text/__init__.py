"""Text as papers carry it: abstracts and titles with LaTeX and Markdown read into styled
segments, LaTeX math as Unicode, titles derived from abstracts.

Imports nothing of paperdeck's other rooms.
"""
