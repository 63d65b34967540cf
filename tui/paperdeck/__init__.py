"""paperdeck: a keyboard-driven terminal browser for conference paper lists."""

__version__ = "0.1.0"
