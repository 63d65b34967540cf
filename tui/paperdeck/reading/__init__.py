"""The reading list's rules, free of any UI: the undo history of the user's changes, and notes
as files for the user's own editor.
"""
