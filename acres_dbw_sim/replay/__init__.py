"""Replay of rosbag2 recordings: drive the simulator from a bag, compare simulated against recorded.

Offline (no ROS at run time; ``rosbags`` reads and writes the bags):

>>> from acres_dbw_sim.replay import replay_bag
>>> res = replay_bag("drive_2024_05_01", "out/drive")       # CSV, summary, plots, bag/, replay.json
>>> res.comparison["speed_mps"]["rms"], res.real_time_factor

Live, into a running node over DDS: :func:`acres_dbw_sim.replay.live.play`
(``acres-replay BAG --live``). Recording is the node's ``record_bag``
parameter (:class:`msg_adapters.bag.NodeBagRecorder`). Everything is
documented in ``docs/bags.md``.

Modules: :mod:`.reader` (tolerant MCAP/sqlite3 reading), :mod:`.topics`
(topic tables, ``--topic-map``), :mod:`.channels` (which channels are read,
with which type store), :mod:`.engagement` (the engagement shown by the
reports), :mod:`.params` (the node parameters in force, the simulation they
build), :mod:`.offline` (the replay loop and its outputs), :mod:`.compare`
(errors and overlay plot), :mod:`.synth` (bags from scenarios), :mod:`.live`
(DDS playback, needs rclpy), :mod:`.cli` (``acres-replay``).
"""
from .cli import main
from .offline import ReplayInput, ReplayResult, load_replay, replay_bag, run_replay
from .params import ReplayError
from .reader import BagReadError, Problem, scan_bag
from .synth import scenario_to_bag
from .topics import TopicMap, TopicMapError

__all__ = ["main", "replay_bag", "load_replay", "run_replay", "ReplayInput", "ReplayResult", "ReplayError",
           "BagReadError", "Problem", "scan_bag", "scenario_to_bag", "TopicMap", "TopicMapError"]
