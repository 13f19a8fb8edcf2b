"""acres_dbw_sim: a ROS 2 stand-in for a Dataspeed drive-by-wire Polaris Ranger CREW XP 1000.

The sub-packages :mod:`acres_dbw_sim.model` (vehicle physics) and
:mod:`acres_dbw_sim.dbw` (drive-by-wire emulation) never import ROS; only
:mod:`acres_dbw_sim.node` and :mod:`msg_adapters` do.
"""
