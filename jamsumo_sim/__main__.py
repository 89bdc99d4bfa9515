"""``python -m jamsumo_sim`` is the ``jamsumo`` command."""

import sys

from jamsumo_sim.cli import main

sys.exit(main())
