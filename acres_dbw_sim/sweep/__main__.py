"""``python -m acres_dbw_sim.sweep``: the same as ``acres-sweep``."""
import sys

from .cli import main

sys.exit(main())
