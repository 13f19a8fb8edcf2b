"""ROS-free vehicle model of the Polaris Ranger CREW XP 1000 (polaris-ranger-dynamics.md)."""
