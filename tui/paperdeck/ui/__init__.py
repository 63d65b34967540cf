"""The Textual application: the only room that imports Textual."""
