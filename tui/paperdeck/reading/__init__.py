"""The reading list's rules, free of any UI: marks and which papers an action takes, the status
keys and the next unseen paper, the undo history of the user's changes, and notes as files for
the user's own editor.
"""
