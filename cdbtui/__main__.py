"""`python -m cdbtui`: the same as the `cdbtui` console script."""

import sys

from .cli import main

sys.exit(main())
