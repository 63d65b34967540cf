import sys

from paperdeck.cli.main import main

sys.exit(main())
