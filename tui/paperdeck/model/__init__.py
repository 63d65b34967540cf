"""The paper record and what every room shares: ids, decisions, errors, safe one-line text.

Imports nothing of paperdeck's other rooms.
"""
