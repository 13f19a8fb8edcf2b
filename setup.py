"""Build script of acres_dbw_sim (ament_python): colcon and pip both use it."""

from glob import glob

from setuptools import find_packages, setup

PACKAGE = "acres_dbw_sim"

setup(
    name=PACKAGE,
    version="0.1.0",
    packages=find_packages(include=[PACKAGE, f"{PACKAGE}.*", "msg_adapters", "msg_adapters.*"]),
    data_files=[
        ("share/ament_index/resource_index/packages", [f"resource/{PACKAGE}"]),
        (f"share/{PACKAGE}", ["package.xml"]),
        (f"share/{PACKAGE}/launch", glob("launch/*.py")),
        (f"share/{PACKAGE}/config", glob("config/*.json") + glob("config/*.yaml") + glob("config/*.xml")),
        (f"share/{PACKAGE}/rviz", glob("rviz/*.rviz")),
    ],
    install_requires=["setuptools"],
    zip_safe=True,
    maintainer="acres_dbw_sim maintainers",
    maintainer_email="maintainers@users.noreply.a-seed-5881167a.example",
    description="Drop-in ROS 2 simulator of a Dataspeed DBW Polaris Ranger CREW XP 1000",
    license="Apache-2.0",
    entry_points={
        # Every tool is acres-<name>; sim_node and demo_driver are the same programs under
        # the names `ros2 run acres_dbw_sim ...` and the launch file use.
        "console_scripts": [
            f"acres-sim = {PACKAGE}.launcher:main",
            f"acres-demo = {PACKAGE}.demo_driver:main",
            f"acres-scenario = {PACKAGE}.scenario:main",
            f"acres-replay = {PACKAGE}.replay:main",
            f"sim_node = {PACKAGE}.launcher:main",
            f"demo_driver = {PACKAGE}.demo_driver:main",
            f"acres-sweep = {PACKAGE}.sweep:main",
            f"acres-calibrate = {PACKAGE}.calibrate:main",
        ],
    },
)
