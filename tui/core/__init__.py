"""The UI-free core of paperdeck: papers, sources, the store, search and rendering.

Nothing in this package imports Textual; ``tests/core/test_core_is_ui_free.py`` checks it.
"""
