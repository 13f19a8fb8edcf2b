"""ROS-free drive-by-wire emulation: actuators, engage logic, command decoding, ULC, reports."""
