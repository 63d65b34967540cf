"""Papers out to files: BibTeX, Markdown, CSV and JSON."""
