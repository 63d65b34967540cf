"""The reading list's rules, free of any UI: the undo history, marks and ranges, the next
unseen paper, notes as editor files.
"""
