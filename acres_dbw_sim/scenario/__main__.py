"""``python -m acres_dbw_sim.scenario``: the same as ``acres-scenario``."""
import sys

from .cli import main

sys.exit(main())
