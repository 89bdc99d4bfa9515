"""``python -m card_games`` is the ``card-games`` command."""

import sys

from card_games.cli import main

sys.exit(main())
