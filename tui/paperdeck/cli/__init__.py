"""The ``paperdeck`` command line: the app's launcher and its subcommands."""
