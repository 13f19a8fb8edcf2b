"""Everything that knows a ROS message type: conversions between the ROS-free core
and ROS messages, and (under ``interfaces/``) the interface definitions built when
no ROS installation provides them."""
