"""rosbag2 files through ``rosbags``: our message definitions, message objects, writing, recording.

The package's parts, each importable without ROS:

* :mod:`.store`: :func:`typestore` (rosbags' Kilted store plus ds_dbw_msgs 2.3.11 and tf2_msgs
  from ``msg_adapters/interfaces/``), QoS records, :func:`stamp_ns`, :class:`BagError`.
* :mod:`.fillers`: core dataclass <-> rosbags message (:class:`ReportFiller`,
  :class:`CommandFiller`, :class:`CommandDecoder`, :class:`ImuFiller`, :class:`OdometryFiller`,
  :class:`TfFiller`).
* :mod:`.writer`: :class:`BagWriter` (MCAP by default, sqlite3 on request; thread-safe; custom
  metadata) and :class:`ProcessBagWriter` with its child's protocol (:func:`serve_writer_process`).
* :mod:`.recorder`: :class:`NodeBagRecorder`, which taps an rclpy node (rclpy is imported inside
  it only) and writes through a :class:`ProcessBagWriter`.

Replay and calibration use the first three without rclpy; the node uses the recorder. The
names below are the package's public API, importable from ``msg_adapters.bag``.
"""

from __future__ import annotations

from .fillers import CommandDecoder, CommandFiller, ImuFiller, OdometryFiller, ReportFiller, TfFiller
from .recorder import NodeBagRecorder, rmw_bytes_unreadable, to_rosbags
from .store import (CUSTOM_PREFIX, DISTRO_STORE, INTERFACES_DIR, STORAGES, BagError, default_message,
                    msgtype_name, qos_to_rosbags, register_interfaces, reliable_qos, stamp_ns, typestore)
from .writer import BagWriter, ProcessBagWriter, serve_writer_process

__all__ = ["BagError", "typestore", "register_interfaces", "default_message", "msgtype_name",
           "qos_to_rosbags", "reliable_qos", "ReportFiller", "CommandFiller", "CommandDecoder", "ImuFiller",
           "OdometryFiller", "TfFiller", "BagWriter", "ProcessBagWriter", "serve_writer_process",
           "NodeBagRecorder", "INTERFACES_DIR", "DISTRO_STORE",
           "rmw_bytes_unreadable", "to_rosbags",
           "STORAGES", "CUSTOM_PREFIX", "stamp_ns"]
