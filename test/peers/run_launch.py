"""Run a launch file with launch arguments, like ``ros2 launch`` (which needs ros2cli).

Usage: ``run_launch.py FILE [name:=value ...]``; SIGINT shuts the launch down.
"""

import sys

from launch import LaunchDescription, LaunchService
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource


def main() -> int:
    path, *pairs = sys.argv[1:]
    args = dict(p.split(":=", 1) for p in pairs)
    service = LaunchService()
    service.include_launch_description(LaunchDescription([
        IncludeLaunchDescription(PythonLaunchDescriptionSource(path), launch_arguments=args.items())]))
    return service.run()


if __name__ == "__main__":
    sys.exit(main())
